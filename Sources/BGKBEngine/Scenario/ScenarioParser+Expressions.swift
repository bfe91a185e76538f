import BGKBModel

/// Expressions as written: precedence, postfix calls and arguments, names.
extension ScenarioParser {
    mutating func parseExpression(trailingClosures: Bool) -> Syntax? {
        guard var left = parseAnd(trailingClosures) else { return nil }
        // Each operator in a chain nests the tree one level deeper (it leans left).
        let entry = nesting
        defer { nesting = entry }
        while isSymbol("||") {
            let p = place
            advance()
            guard enterLevel(), let right = parseAnd(trailingClosures) else { return nil }
            left = .binary("||", left, right, p)
        }
        return left
    }

    mutating func parseAnd(_ trailing: Bool) -> Syntax? {
        guard var left = parseComparison(trailing) else { return nil }
        let entry = nesting
        defer { nesting = entry }
        while isSymbol("&&") {
            let p = place
            advance()
            guard enterLevel(), let right = parseComparison(trailing) else { return nil }
            left = .binary("&&", left, right, p)
        }
        return left
    }

    mutating func parseComparison(_ trailing: Bool) -> Syntax? {
        guard let left = parseUnary(trailing) else { return nil }
        guard case let .symbol(symbol) = current.kind else { return left }
        let op: String
        switch symbol {
        case "==": op = "=="
        case "!=": op = "!="
        case "<=": op = "<="
        case ">=": op = ">="
        case "<": op = "<"
        case ">": op = ">"
        case "+": op = "+"
        default: return left
        }
        let p = place
        advance()
        guard let right = parseUnary(trailing) else { return nil }
        return .binary(op, left, right, p)
    }

    mutating func parseUnary(_ trailing: Bool) -> Syntax? {
        guard enterLevel() else { return nil }
        defer { nesting -= 1 }
        // `await` marks a suspension point; what suspends is the call itself (Task.sleep).
        if isWord("await") { advance() }
        if isSymbol("!") {
            let p = place
            advance()
            guard let inner = parseUnary(trailing) else { return nil }
            return .not(inner, p)
        }
        return parsePostfix(trailing)
    }

    mutating func parsePostfix(_ trailing: Bool) -> Syntax? {
        let start = place
        var components: [Syntax.Component] = []
        let token = current
        switch token.kind {
        case .number:
            advance()
            let (value, unit) = token.number(in: source)
            return .number(value, unit: unit, start)
        case .string:
            advance()
            return .string(token.string(in: source), start)
        case .hex:
            advance()
            return .hex(token.name(in: source), start)
        case .identifier:
            let name = token.name(in: source)
            advance()
            // Room for a path's usual length (`DispatchQueue.main.async`).
            components.reserveCapacity(4)
            components.append(.init(name: name, arguments: nil, place: start))
        case .symbol("."):
            advance()
            components.reserveCapacity(4)
            components.append(.init(name: "", arguments: nil, place: start))
            guard let member = identifier("a member name after '.'") else { return nil }
            components.append(.init(name: member, arguments: nil, place: start))
        case .symbol("{"):
            advance()
            guard let block = parseBlockBody(parameters: [], openedAt: start) else { return nil }
            return .closure(block, start)
        case .symbol("("):
            advance()
            let inner = parseExpression(trailingClosures: true)
            expect(")", "to close the parenthesis")
            return inner
        default:
            fail("expected an expression, found \(text(current))")
            return nil
        }
        while true {
            if isSymbol(".") {
                advance()
                let p = place
                guard let member = identifier("a member name after '.'") else { return nil }
                components.append(.init(name: member, arguments: nil, place: p))
            } else if isSymbol("(") && components.last?.arguments == nil {
                advance()
                guard let arguments = parseArguments() else { return nil }
                components[components.count - 1].arguments = arguments
            } else if isSymbol("!") {
                advance()
                components[components.count - 1].unwrapped = true
            } else if isSymbol("?"), position + 1 < tokens.count, case let .symbol(next) = tokens[position + 1].kind, next == "." || next == "(" {
                advance()
                components[components.count - 1].chained = true
            } else if isSymbol("{") && trailing {
                let p = place
                advance()
                let enclosing = onMainActor
                onMainActor = closureRunsOnMainActor(components, inside: enclosing)
                defer { onMainActor = enclosing }
                guard let block = parseBlockBody(parameters: [], openedAt: p) else { return nil }
                var arguments = components[components.count - 1].arguments ?? []
                arguments.append(.init(label: nil, value: .closure(block, p)))
                components[components.count - 1].arguments = arguments
            } else {
                break
            }
        }
        return .path(components, start)
    }

    mutating func parseArguments() -> [Syntax.Argument]? {
        var arguments: [Syntax.Argument] = []
        while case .newline = current.kind { advance() }
        if isSymbol(")") { advance(); return arguments }
        while true {
            while case .newline = current.kind { advance() }
            var label: String?
            if current.kind == .identifier, position + 1 < tokens.count, case .symbol(":") = tokens[position + 1].kind {
                label = currentName
                advance(); advance()
            }
            guard let value = parseExpression(trailingClosures: true) else { return nil }
            arguments.append(.init(label: label, value: value))
            while case .newline = current.kind { advance() }
            if isSymbol(",") { advance(); continue }
            if isSymbol(")") { advance(); return arguments }
            fail("expected ',' or ')' in the argument list, found \(text(current))")
            return nil
        }
    }

    func stringArgument(_ arguments: [Syntax.Argument]?, _ label: String) -> String? {
        for argument in arguments ?? [] where argument.label == label {
            if case let .string(text, _) = argument.value { return text }
        }
        return nil
    }

    /// Drops the receivers an iOS developer writes but that carry no meaning here
    /// (`UIApplication.shared.`, `self.`, `BGTaskScheduler.shared.`, `ProcessInfo.processInfo.`).
    static let ignoredReceivers: [[String]] = [["UIApplication", "shared"], ["self"], ["BGTaskScheduler", "shared"],
                                                       ["ProcessInfo", "processInfo"], ["application"], ["UIApplication"]]
    /// Whether `name` is one of `ignoredReceivers`' first names. Most paths start with none of
    /// them, so the length decides first and most names are never compared.
    /// (`ScenarioParserTests` checks this against `ignoredReceivers`.)
    static func isIgnoredFirstName(_ name: String) -> Bool {
        switch name.utf8.count {
        case 4: return name == "self"
        case 11: return name == "ProcessInfo" || name == "application"
        case 13: return name == "UIApplication"
        case 15: return name == "BGTaskScheduler"
        default: return false
        }
    }

    func normalized(_ syntax: Syntax) -> [Syntax.Component] {
        guard case var .path(components, _) = syntax else { return [] }
        var changed = true
        while changed, let first = components.first, Self.isIgnoredFirstName(first.name) {
            changed = false
            for prefix in Self.ignoredReceivers where components.count > prefix.count {
                if zip(components, prefix).allSatisfy({ $0.name == $1 && $0.arguments == nil }) {
                    components.removeFirst(prefix.count)
                    changed = true
                }
            }
        }
        return components
    }

    func describe(_ components: [Syntax.Component]) -> String {
        components.map { $0.name + ($0.arguments == nil ? "" : "(...)") + ($0.unwrapped ? "!" : "") }.joined(separator: ".")
    }

    func closureArgument(_ arguments: [Syntax.Argument]?, labels: [String?]) -> (found: Bool, block: Int32?) {
        for argument in arguments ?? [] where labels.contains(argument.label) {
            if case let .closure(block, _) = argument.value { return (true, block) }
            if case let .path(components, _) = argument.value, components.count == 1, components[0].name == "nil" { return (true, nil) }
        }
        return (false, nil)
    }

    func typeOf(_ expression: Expression) -> ValueType {
        switch expression {
        case let .literal(value): return inferredType(value)
        case let .read(ref), let .unwrap(ref):
            switch ref {
            case let .global(index):
                let type = scenario.globals[Int(index)].type
                if case .unwrap = expression, type == .optionalIdentifier { return .identifier }
                return type
            case .local: return .unknown
            }
        case .backgroundTimeRemaining: return .int
        case .begin: return .identifier
        case .refreshRequest, .processingRequest: return .request
        case .dateFromNow: return .unknown
        case let .object(object): return objectType(object)
        }
    }
}
