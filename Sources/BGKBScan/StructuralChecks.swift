import SwiftSyntax

/// Checks made from the code's shape, for code the scan cannot lower into a scenario (a
/// background session's handler passed where the harness cannot follow it). Each looks only
/// for what the code shows for certain; anything it cannot follow leaves it silent.
struct StructuralChecks {
    let path: String
    let file: SourceFileSyntax
    let converter: SourceLocationConverter
    /// `handleEventsForBackgroundURLSession` methods (by the place of `func`) whose handler the
    /// engine followed: the structural check leaves them to it.
    var engineCheckedSessions: Set<SourcePlace> = []

    func place(_ node: some SyntaxProtocol) -> SourcePlace {
        let location = node.startLocation(converter: converter)
        return SourcePlace(line: location.line, column: location.column)
    }

    var findings: [Finding] {
        let functions = FunctionIndex(file)
        return sessionFindings(functions)
    }

    /// `beginBackgroundTask` calls with no expiration handler (none given, or `nil`). Where the
    /// file declares a function of that name (a wrapper), a call without a receiver, or on
    /// `self`, is the wrapper's.
    var beginsWithoutHandler: [SourcePlace] {
        final class Begins: SyntaxVisitor {
            var found: [FunctionCallExprSyntax] = []
            var wrapped = false
            override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
                let called = node.calledExpression.trimmedDescription
                if wrapped, called == "beginBackgroundTask" || called == "self.beginBackgroundTask" || called == "self?.beginBackgroundTask" {
                    return .visitChildren
                }
                if called.hasSuffix("beginBackgroundTask"), node.trailingClosure == nil {
                    let handler = node.arguments.first { $0.label?.text == "expirationHandler" }
                    if handler == nil || handler?.expression.trimmedDescription == "nil" { found.append(node) }
                }
                return .visitChildren
            }
        }
        let visitor = Begins(viewMode: .sourceAccurate)
        visitor.wrapped = FunctionIndex(file).byName["beginBackgroundTask"] != nil
        visitor.walk(file)
        return visitor.found.map { place($0) }
    }

    // MARK: background URLSession

    private func sessionFindings(_ functions: FunctionIndex) -> [Finding] {
        var found: [Finding] = []
        for function in functions.all where function.signature.parameterClause.parameters.contains(where: { $0.secondName?.text == nil && $0.firstName.text == "handleEventsForBackgroundURLSession" || $0.firstName.text == "handleEventsForBackgroundURLSession" }) {
            guard let body = function.body, let parameter = function.signature.parameterClause.parameters.last,
                  !engineCheckedSessions.contains(place(function.funcKeyword)) else { continue }
            let handler = (parameter.secondName ?? parameter.firstName).text
            // Where the handler goes: called here, or stored (in this function or one it is passed to).
            if uses(body, callOf: handler) { continue }
            let stores = storedNames(of: handler, in: body, functions: functions, depth: 0)
            guard let stores else { continue }   // passed somewhere the scan cannot follow
            let finishers = functions.all.filter { $0.name.text == "urlSessionDidFinishEvents" }
            if stores.isEmpty {
                found.append(Finding(path: path, place: place(function.funcKeyword), family: .sessionCompletionNotCalled,
                                     message: "the background session's completion handler is neither called nor kept",
                                     timeline: ["\(handler) is not called, stored or passed on in this method"]))
                continue
            }
            // Stored: urlSessionDidFinishEvents (or what it calls in this file) must call it.
            guard !finishers.isEmpty else { continue }
            let reached = finishers.flatMap { functions.reachable(from: $0) }
            let mentioned = reached.contains { callee in stores.contains { name in mentions(callee.body, name) } }
            if !mentioned {
                found.append(Finding(path: path, place: place(function.funcKeyword), family: .sessionCompletionNotCalled,
                                     message: "the completion handler is stored in `\(stores.sorted().joined(separator: "`, `"))` but urlSessionDidFinishEvents never calls it",
                                     timeline: ["\(handler) is stored in \(stores.sorted().joined(separator: ", "))",
                                                "urlSessionDidFinishEvents(forBackgroundURLSession:) does not call it"]))
                continue
            }
            if sessionDelegateRunsOnMain { continue }
            for finisher in reached {
                for call in handlerCalls(in: finisher, stores: stores) where !runsOnMain(call, in: finisher) {
                    found.append(Finding(path: path, place: place(call), family: .sessionCompletionOffMain,
                                         message: "the background session's completion handler is called off the main thread",
                                         timeline: ["urlSessionDidFinishEvents runs on the session's delegate queue, not main",
                                                    "this call is not dispatched to main"]))
                }
            }
        }
        return found
    }

    /// True when the file hands its sessions a main delegate queue, so their callbacks run on main.
    private var sessionDelegateRunsOnMain: Bool {
        let text = file.description
        return text.contains("delegateQueue: .main") || text.contains("delegateQueue: OperationQueue.main")
    }

    private func mentions(_ node: CodeBlockSyntax?, _ name: String) -> Bool {
        guard let node else { return false }
        return node.tokens(viewMode: .sourceAccurate).contains { $0.text == name }
    }

    /// True when the body calls `name(…)` or `name?(…)`.
    private func uses(_ body: CodeBlockSyntax, callOf name: String) -> Bool {
        body.tokens(viewMode: .sourceAccurate).contains { token in
            guard token.text == name, let next = token.nextToken(viewMode: .sourceAccurate) else { return false }
            return next.tokenKind == .leftParen || next.tokenKind == .postfixQuestionMark
        }
    }

    /// The property names the handler is stored into, following it into functions of the file
    /// it is passed to; nil when it is passed somewhere the file does not show.
    private func storedNames(of handler: String, in body: CodeBlockSyntax, functions: FunctionIndex, depth: Int) -> Set<String>? {
        var names: Set<String> = []
        for token in body.tokens(viewMode: .sourceAccurate) where token.text == handler {
            // `x = handler` / `x[key] = handler`
            if let sequence = token.parent?.parent?.parent?.as(SequenceExprSyntax.self), sequence.elements.count == 3,
               sequence.elements.dropFirst().first?.is(AssignmentExprSyntax.self) == true {
                let target = sequence.elements.first
                let name = target?.tokens(viewMode: .sourceAccurate).filter { $0.tokenKind.isIdentifierLike }.last?.text
                    ?? target?.trimmedDescription
                if let subscriptTarget = target?.as(SubscriptCallExprSyntax.self) {
                    names.insert(subscriptTarget.calledExpression.lastToken(viewMode: .sourceAccurate)?.text ?? "")
                } else if let name { names.insert(name) }
                continue
            }
            // Passed as an argument to a function of this file.
            if let argument = token.parent?.parent?.as(LabeledExprSyntax.self),
               let call = argument.parent?.parent?.as(FunctionCallExprSyntax.self) {
                let calleeName = call.calledExpression.lastToken(viewMode: .sourceAccurate)?.text ?? ""
                guard depth < 3, let callee = functions.byName[calleeName]?.first, let calleeBody = callee.body,
                      let index = call.arguments.firstIndex(where: { $0.id == argument.id }) else { return nil }
                let position = call.arguments.distance(from: call.arguments.startIndex, to: index)
                let parameters = Array(callee.signature.parameterClause.parameters)
                guard position < parameters.count else { return nil }
                let inner = (parameters[position].secondName ?? parameters[position].firstName).text
                if uses(calleeBody, callOf: inner) { continue }
                guard let deeper = storedNames(of: inner, in: calleeBody, functions: functions, depth: depth + 1) else { return nil }
                names.formUnion(deeper)
                continue
            }
        }
        return names
    }

    /// Calls in `function` of a stored handler: `name()`, `name?()`, or a local bound from it.
    private func handlerCalls(in function: FunctionDeclSyntax, stores: Set<String>) -> [FunctionCallExprSyntax] {
        guard let body = function.body else { return [] }
        var names = stores
        for token in body.tokens(viewMode: .sourceAccurate) where stores.contains(token.text) {
            // `let handler = …name…` or `guard let handler = …name…`
            var node: Syntax? = token.parent
            while let current = node {
                if let binding = current.as(PatternBindingSyntax.self), let name = binding.pattern.as(IdentifierPatternSyntax.self) {
                    names.insert(name.identifier.text)
                    break
                }
                if let binding = current.as(OptionalBindingConditionSyntax.self), let name = binding.pattern.as(IdentifierPatternSyntax.self) {
                    names.insert(name.identifier.text)
                    break
                }
                if current.is(CodeBlockItemSyntax.self) { break }
                node = current.parent
            }
        }
        final class Calls: SyntaxVisitor {
            var names: Set<String> = []
            var found: [FunctionCallExprSyntax] = []
            override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
                let called = node.calledExpression.as(OptionalChainingExprSyntax.self)?.expression ?? node.calledExpression
                let last = called.lastToken(viewMode: .sourceAccurate)?.text ?? ""
                if names.contains(last), node.arguments.isEmpty { found.append(node) }
                return .visitChildren
            }
        }
        let visitor = Calls(viewMode: .sourceAccurate)
        visitor.names = names
        visitor.walk(body)
        return visitor.found
    }

    /// True when the call sits in a main-thread context: `DispatchQueue.main.async`, `MainActor.run`,
    /// `Task { @MainActor … }`, `OperationQueue.main.addOperation`, or a `@MainActor` function or type.
    private func runsOnMain(_ call: some SyntaxProtocol, in function: FunctionDeclSyntax) -> Bool {
        if function.attributes.trimmedDescription.contains("@MainActor") { return true }
        var node: Syntax? = call.parent
        while let current = node {
            if let closure = current.as(ClosureExprSyntax.self) {
                if closure.signature?.attributes.trimmedDescription.contains("@MainActor") == true { return true }
                if let owner = closure.parent?.as(FunctionCallExprSyntax.self) ?? closure.parent?.parent?.parent?.as(FunctionCallExprSyntax.self) {
                    let callee = owner.calledExpression.trimmedDescription
                    if callee.hasPrefix("DispatchQueue.main.") || callee == "MainActor.run" || callee.hasPrefix("OperationQueue.main.") {
                        return true
                    }
                }
                return false
            }
            for attributes in [current.as(ClassDeclSyntax.self)?.attributes, current.as(ActorDeclSyntax.self)?.attributes,
                               current.as(StructDeclSyntax.self)?.attributes] {
                if attributes?.trimmedDescription.contains("@MainActor") == true { return true }
            }
            node = current.parent
        }
        return false
    }

}

/// The functions of a file by name, and what each calls among them.
struct FunctionIndex {
    var all: [FunctionDeclSyntax] = []
    var byName: [String: [FunctionDeclSyntax]] = [:]

    init(_ file: SourceFileSyntax) {
        final class Collect: SyntaxVisitor {
            var functions: [FunctionDeclSyntax] = []
            override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind {
                functions.append(node)
                return .visitChildren
            }
        }
        let visitor = Collect(viewMode: .sourceAccurate)
        visitor.walk(file)
        all = visitor.functions
        for function in all { byName[function.name.text, default: []].append(function) }
    }

    /// `function` and the functions of the file it calls, transitively.
    func reachable(from function: FunctionDeclSyntax) -> [FunctionDeclSyntax] {
        var seen: [FunctionDeclSyntax] = [function]
        var index = 0
        while index < seen.count {
            let tokens = seen[index].body?.tokens(viewMode: .sourceAccurate) ?? TokenSequence(Syntax(seen[index]), viewMode: .sourceAccurate)
            for token in tokens {
                guard let callees = byName[token.text], token.nextToken(viewMode: .sourceAccurate)?.tokenKind == .leftParen else { continue }
                for callee in callees where !seen.contains(where: { $0.id == callee.id }) { seen.append(callee) }
            }
            index += 1
        }
        return seen
    }
}

extension TokenKind {
    var isIdentifierLike: Bool {
        if case .identifier = self { return true }
        return false
    }
}
