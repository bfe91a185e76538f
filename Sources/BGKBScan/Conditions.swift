import SwiftSyntax

/// A condition of the scenario language: atoms joined by all `&&` or all `||`, so that negating
/// one (De Morgan) never needs parentheses.
indirect enum ScenarioCondition: Equatable {
    /// `text` holds; `negated` is its opposite spelled out (`x == .invalid` for `x != .invalid`).
    case atom(String, negated: String)
    case all([ScenarioCondition])
    case any([ScenarioCondition])

    var text: String {
        switch self {
        case let .atom(text, _): return text
        case let .all(parts): return parts.map(\.text).joined(separator: " && ")
        case let .any(parts): return parts.map(\.text).joined(separator: " || ")
        }
    }

    var negation: ScenarioCondition {
        switch self {
        case let .atom(text, negated): return .atom(negated, negated: text)
        case let .all(parts): return .any(parts.map(\.negation))
        case let .any(parts): return .all(parts.map(\.negation))
        }
    }

    /// True when the condition is a flat list of atoms (what the language can write without parentheses).
    var isFlat: Bool {
        switch self {
        case .atom: return true
        case let .all(parts), let .any(parts): return parts.allSatisfy { if case .atom = $0 { return true } else { return false } }
        }
    }

    static func flag(_ name: String) -> ScenarioCondition { .atom(name, negated: "!" + name) }

    static func joined(_ parts: [ScenarioCondition], all: Bool) -> ScenarioCondition {
        parts.count == 1 ? parts[0] : (all ? .all(parts) : .any(parts))
    }
}

extension Lowerer {
    /// An expression that means "no identifier": `.invalid`, `UIBackgroundTaskIdentifier.invalid`, `UIBackgroundTaskInvalid`.
    static func isInvalidIdentifier(_ expression: ExprSyntax) -> Bool {
        let text = expression.trimmedDescription
        return text == ".invalid" || text == "UIBackgroundTaskIdentifier.invalid" || text == "UIBackgroundTaskInvalid"
    }

    /// The scenario form of a Swift condition, or nil when the scan cannot evaluate it.
    func condition(_ expression: ExprSyntax) -> ScenarioCondition? {
        if let prefix = expression.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "!" {
            return condition(prefix.expression).flatMap { $0.isFlat ? $0.negation : nil }
        }
        if let tuple = expression.as(TupleExprSyntax.self), tuple.elements.count == 1, let only = tuple.elements.first {
            return condition(only.expression)
        }
        if let sequence = expression.as(SequenceExprSyntax.self) {
            let elements = Array(sequence.elements)
            if elements.count == 3, let op = elements[1].as(BinaryOperatorExprSyntax.self)?.operator.text, op == "==" || op == "!=" {
                return comparison(elements[0], op, elements[2])
            }
            // a && b && c, or a || b || c, of atoms.
            guard elements.count >= 3, elements.count % 2 == 1 else { return nil }
            let operators = stride(from: 1, to: elements.count, by: 2).compactMap { elements[$0].as(BinaryOperatorExprSyntax.self)?.operator.text }
            guard operators.count == elements.count / 2, let first = operators.first, first == "&&" || first == "||",
                  operators.allSatisfy({ $0 == first }) else { return nil }
            var parts: [ScenarioCondition] = []
            for index in stride(from: 0, to: elements.count, by: 2) {
                guard let part = condition(elements[index]), case .atom = part else { return nil }
                parts.append(part)
            }
            return .joined(parts, all: first == "&&")
        }
        if let boolean = expression.as(BooleanLiteralExprSyntax.self) {
            let value = boolean.literal.tokenKind == .keyword(.true)
            return value ? .atom("true", negated: "false") : .atom("false", negated: "true")
        }
        switch resolve(expression) {
        case let .bool(name)?, let .expired(name)?:
            return .atom(name, negated: "!" + name)
        default:
            return nil
        }
    }

    private func comparison(_ left: ExprSyntax, _ op: String, _ right: ExprSyntax) -> ScenarioCondition? {
        let flipped = op == "==" ? "!=" : "=="
        // `identifier == Downloader.sessionIdentifier` in handleEventsForBackgroundURLSession: the
        // session the harness finishes is the app's own (the other branch is another session's).
        if resolve(left) == .sessionIdentifier || resolve(right) == .sessionIdentifier {
            return op == "==" ? .atom("true", negated: "false") : .atom("false", negated: "true")
        }
        if case let .identifier(name, optional)? = resolve(left) {
            if Self.isInvalidIdentifier(right) {
                let subject = optional ? name : name
                return .atom("\(subject) \(op) .invalid", negated: "\(subject) \(flipped) .invalid")
            }
            if right.trimmedDescription == "nil", optional {
                return .atom("\(name) \(op) nil", negated: "\(name) \(flipped) nil")
            }
        }
        if case let .bool(name)? = resolve(left), let boolean = right.as(BooleanLiteralExprSyntax.self) {
            let wanted = (boolean.literal.tokenKind == .keyword(.true)) == (op == "==")
            return wanted ? .atom(name, negated: "!" + name) : .atom("!" + name, negated: name)
        }
        if Self.isInvalidIdentifier(left) || left.trimmedDescription == "nil" {
            return comparison(right, op, left)
        }
        return nil
    }
}
