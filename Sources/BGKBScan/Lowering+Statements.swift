import SwiftSyntax

extension Lowerer {
    mutating func lowerItem(_ item: CodeBlockItemSyntax) {
        switch item.item {
        case let .decl(decl):
            if let variable = decl.as(VariableDeclSyntax.self) { lowerLocal(variable) }
            if let function = decl.as(FunctionDeclSyntax.self) { bind(function.name.text, .localFunction(function)) }
        case let .stmt(statement):
            lowerStatement(statement)
        case let .expr(expression):
            lowerExpression(expression)
        }
    }

    mutating func lowerStatement(_ statement: StmtSyntax) {
        if let expression = statement.as(ExpressionStmtSyntax.self) {
            lowerExpression(expression.expression)
        } else if let returned = statement.as(ReturnStmtSyntax.self) {
            if let value = returned.expression {
                if let target = returnTargets.last ?? nil {
                    assign(value, to: target, at: returned)
                } else {
                    lowerExpression(value)
                }
            }
            lowerReturn(at: returned)
        } else if let thrown = statement.as(ThrowStmtSyntax.self) {
            lowerThrow(at: thrown)
        } else if let guardStatement = statement.as(GuardStmtSyntax.self) {
            lowerGuard(guardStatement)
        } else if let forStatement = statement.as(ForStmtSyntax.self) {
            // One pass of the body: enough for what it begins, ends or leaves out.
            lowerNested(forStatement.body.statements)
        } else if let whileStatement = statement.as(WhileStmtSyntax.self) {
            lowerNested(whileStatement.body.statements)
        } else if let repeatStatement = statement.as(RepeatStmtSyntax.self) {
            lowerNested(repeatStatement.body.statements)
        } else if let doStatement = statement.as(DoStmtSyntax.self) {
            lowerDo(doStatement)
        }
        // break, continue, fallthrough: nothing the engine needs.
    }

    mutating func lowerExpression(_ expression: ExprSyntax) {
        if let ifExpression = expression.as(IfExprSyntax.self) {
            lowerIf(ifExpression)
        } else if let switchExpression = expression.as(SwitchExprSyntax.self) {
            lowerSwitch(switchExpression)
        } else if let tryExpression = expression.as(TryExprSyntax.self) {
            lowerExpression(tryExpression.expression)
        } else if let awaitExpression = expression.as(AwaitExprSyntax.self) {
            let saved = awaiting
            awaiting = true
            lowerExpression(awaitExpression.expression)
            awaiting = saved
        } else if let sequence = expression.as(SequenceExprSyntax.self) {
            lowerSequence(sequence)
        } else if let call = expression.as(FunctionCallExprSyntax.self) {
            lowerCall(call)
        } else if let optional = expression.as(OptionalChainingExprSyntax.self) {
            lowerExpression(optional.expression)
        } else if expression.is(ClosureExprSyntax.self) || expression.is(DeclReferenceExprSyntax.self)
                    || expression.is(MemberAccessExprSyntax.self) || expression.is(StringLiteralExprSyntax.self) {
            return
        } else {
            lowerEffects(of: expression)
        }
    }

    /// The calls inside an expression the scan does not otherwise understand, in order.
    mutating func lowerEffects(of node: some SyntaxProtocol) {
        let finder = CallFinder(viewMode: .sourceAccurate)
        finder.walk(node)
        for call in finder.calls { lowerCall(call) }
    }

    // MARK: control flow

    mutating func branchCondition(_ conditions: ConditionElementListSyntax, flagText: String) -> ScenarioCondition? {
        var parts: [ScenarioCondition] = []
        for element in conditions {
            switch element.condition {
            case let .expression(expression):
                if let part = condition(expression) {
                    parts.append(part)
                } else if let result = testedCall(expression) {
                    parts.append(.atom(result, negated: "!" + result))
                } else {
                    lowerWaits(in: expression)
                    return flag(for: flagText).map(ScenarioCondition.flag)
                }
            case let .optionalBinding(binding):
                guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else { return nil }
                // `guard let self`, `if let strongSelf = self`: the object is taken to exist; the
                // path where it is gone does nothing the rules speak of.
                if name == "self" || binding.initializer?.value.trimmedDescription == "self" { continue }
                let value = binding.initializer?.value ?? ExprSyntax(DeclReferenceExprSyntax(baseName: .identifier(name)))
                switch resolve(value) {
                case let .storedHandler(source)?:
                    // A saved completion handler, read once into a local (calling it when nil does nothing).
                    let copy = fresh(name)
                    out.line("let \(copy) = \(source)", at: place(binding))
                    bind(name, .storedHandler(copy))
                case let .identifier(source, optional: true)?:
                    // Read the Optional once into a local, as `if let` does, then test the copy.
                    let copy = fresh(name)
                    out.line("let \(copy) = \(source)", at: place(binding))
                    bind(name, .identifier(copy, optional: true))
                    parts.append(.atom("\(copy) != nil", negated: "\(copy) == nil"))
                case let ref?:
                    bind(name, ref)
                default:
                    return flag(for: flagText).map(ScenarioCondition.flag)
                }
            case let .matchingPattern(pattern):
                // `if case .failure = completion` on a Combine completion: failure iff no value came.
                if case let .combineCompletion(valueFlag)? = resolve(pattern.initializer.value) {
                    let text = pattern.pattern.trimmedDescription
                    if text.contains(".failure") { parts.append(.atom("!" + valueFlag, negated: valueFlag)); continue }
                    if text.contains(".finished") { parts.append(.atom(valueFlag, negated: "!" + valueFlag)); continue }
                }
                return flag(for: flagText).map(ScenarioCondition.flag)
            default:
                return flag(for: flagText).map(ScenarioCondition.flag)
            }
        }
        if parts.isEmpty { return .atom("true", negated: "false") }
        let joined = ScenarioCondition.joined(parts, all: true)
        return joined.isFlat ? joined : flag(for: flagText).map(ScenarioCondition.flag)
    }

    /// A call of a function of the file that returns `Bool` (`if state.finishOnce()`), lowered in
    /// place with its result kept in a new local: the local's name, or nil for any other expression.
    mutating func testedCall(_ expression: ExprSyntax) -> String? {
        guard let call = Self.unwrapped(expression).as(FunctionCallExprSyntax.self), let (name, base) = Self.callee(call) else { return nil }
        let labels = call.arguments.map { $0.label?.text }
        let returnsBool: (FunctionDeclSyntax) -> Bool = { $0.signature.returnClause?.type.trimmedDescription == "Bool" && $0.body != nil }
        if isSelf(base), let function = model.function(named: name, labels: labels, trailingClosures: Self.trailingCount(call)), returnsBool(function), call.trailingClosure == nil {
            let result = fresh("result")
            declareHoisted("var \(result) = false", at: place(call))
            inline(function, arguments: Array(call.arguments), at: call, returning: .bool(result))
            return result
        }
        if let base, case let .instance(prefix, type)? = resolve(base), let foreign = fileTypes[type],
           let function = foreign.function(named: name, labels: labels, trailingClosures: Self.trailingCount(call)), returnsBool(function), keepsClosureParameters(function, call) {
            let result = fresh("result")
            declareHoisted("var \(result) = false", at: place(call))
            inlineForeign(function, of: foreign, prefix: prefix, call: call, returning: .bool(result))
            return result
        }
        return nil
    }

    mutating func lowerIf(_ node: IfExprSyntax) {
        let condition = branchCondition(node.conditions, flagText: node.conditions.trimmedDescription)
        guard let condition else {
            // Past the flag limit: the branch that continues without leaving.
            if !containsExit(node.body) { lowerNested(node.body.statements) }
            return
        }
        out.block("if \(condition.text)", at: place(node)) { _ in }
        replaceLastBlock { $0.lowerNested(node.body.statements) }
        switch node.elseBody {
        case let .ifExpr(nested)?:
            openElse { $0.lowerIf(nested) }
        case let .codeBlock(block)?:
            openElse { $0.lowerNested(block.statements) }
        case nil:
            break
        }
    }

    mutating func lowerGuard(_ node: GuardStmtSyntax) {
        guard let condition = branchCondition(node.conditions, flagText: node.conditions.trimmedDescription) else { return }
        let failing = condition.negation
        guard failing.isFlat else { return }
        out.block("if \(failing.text)", at: place(node)) { _ in }
        replaceLastBlock { $0.lowerNested(node.body.statements) }
    }

    mutating func lowerSwitch(_ node: SwitchExprSyntax) {
        let cases = node.cases.compactMap { $0.as(SwitchCaseSyntax.self) }
        lowerCases(cases[...], switchPlace: place(node))
    }

    private mutating func lowerCases(_ cases: ArraySlice<SwitchCaseSyntax>, switchPlace: SourcePlace) {
        guard let first = cases.first else { return }
        if cases.count == 1 {
            lowerNested(first.statements)
            return
        }
        guard let flag = flag(for: "case@\(place(first).line):\(place(first).column)") else {
            lowerNested(first.statements)
            return
        }
        out.block("if \(flag)", at: place(first)) { _ in }
        replaceLastBlock { $0.lowerNested(first.statements) }
        openElse { $0.lowerCases(cases.dropFirst(), switchPlace: switchPlace) }
    }

    mutating func lowerDo(_ node: DoStmtSyntax) {
        guard let handler = node.catchClauses.first else {
            lowerNested(node.body.statements)
            return
        }
        catches.append((boundary: boundaryCount, body: handler.body))
        lowerNested(node.body.statements)
        catches.removeLast()
    }

    /// True when a block leaves its function (`return` or `throw` at its own level).
    func containsExit(_ block: CodeBlockSyntax) -> Bool {
        block.statements.contains { $0.item.is(ReturnStmtSyntax.self) || $0.item.is(ThrowStmtSyntax.self) }
    }

    // MARK: locals and assignment

    mutating func lowerLocal(_ node: VariableDeclSyntax) {
        let keyword = node.bindingSpecifier.text
        for binding in node.bindings {
            guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else {
                if let value = binding.initializer?.value { lowerExpression(value) }
                continue
            }
            let value = binding.initializer?.value
            if let value, let begin = beginCall(value) {
                let local = fresh(name)
                bind(name, .identifier(local, optional: false))
                lowerBegin(begin, storingIn: "\(keyword) \(local)")
                continue
            }
            if binding.typeAnnotation == nil, let value, let (call, callee, base, closure) = valueClosureCall(value), returnsIdentifier(closure) {
                // `let id = await MainActor.run { beginBackgroundTask … }` (or `queue.sync`, `lock.withLock`):
                // the closure's result is the identifier.
                let local = fresh(name)
                let ref = Ref.identifier(local, optional: false)
                bind(name, ref)
                declareHoisted("var \(local): UIBackgroundTaskIdentifier = .invalid", at: place(binding))
                lowerValueClosure(call: call, callee: callee, base: base, closure: closure, target: ref)
                continue
            }
            let kind = TypeCollector.kind(type: binding.typeAnnotation?.type.trimmedDescription, initial: value, isLet: keyword == "let")
            switch kind {
            case let .identifier(optional):
                let local = fresh(name)
                let ref = Ref.identifier(local, optional: optional)
                bind(name, ref)
                declareHoisted("var \(local): UIBackgroundTaskIdentifier\(optional ? "?" : "") = \(optional ? "nil" : ".invalid")", at: place(binding))
                if let value, !Self.isInvalidIdentifier(value), value.trimmedDescription != "nil" {
                    if let call = Self.unwrapped(value).as(FunctionCallExprSyntax.self), let closure = Self.closures(of: call).first,
                       let (callee, base) = Self.callee(call), callee == "sync" || callee == "withLock" {
                        // `let id: T = queue.sync { …; return taskID }`: the closure's return assigns the local.
                        lowerValueClosure(call: call, callee: callee, base: base, closure: closure, target: ref)
                    } else {
                        assign(value, to: ref, at: binding)
                    }
                }
            case let .bool(initial):
                let local = fresh(name)
                bind(name, .bool(local))
                declareHoisted("var \(local) = \(initial)", at: place(binding))
            case let .semaphore(initial) where instrumentsActivity:
                let local = fresh(name)
                bind(name, .semaphore(local))
                declareHoisted("let \(local) = DispatchSemaphore(value: \(initial))", at: place(binding))
            case .group where instrumentsActivity:
                let local = fresh(name)
                bind(name, .group(local))
                declareHoisted("let \(local) = DispatchGroup()", at: place(binding))
            case let .object(type) where fileTypes[type] != nil && type != model.name && value.flatMap(resolve) == nil:
                // An object of another type of the file: its methods are lowered where they are called.
                if let value { lowerEffects(of: value) }
                bind(name, .instance(fresh(name) + "_", type: type))
            default:
                if let value, resolve(value) == nil, let test = condition(value), case .atom = test, !test.text.contains(" ") {
                    // `let first = !done`: a flag read now.
                    let local = fresh(name)
                    bind(name, .bool(local))
                    declareHoisted("var \(local) = false", at: place(binding))
                    let at = place(binding)
                    out.block("if \(test.text)", at: at) { $0.line("\(local) = true", at: at) }
                } else if let value, let ref = resolve(value) {
                    // `let id = self.taskID`: a copy, read now.
                    switch ref {
                    case let .identifier(source, optional):
                        let local = fresh(name)
                        bind(name, .identifier(local, optional: optional))
                        if hoistPoints.isEmpty {
                            out.line("let \(local) = \(source)", at: place(binding))
                        } else {
                            declareHoisted("var \(local): UIBackgroundTaskIdentifier\(optional ? "?" : " = .invalid")", at: place(binding))
                            out.line("\(local) = \(source)", at: place(binding))
                        }
                    case let .storedHandler(source):
                        // A saved completion handler, read now into a local of its own.
                        let local = fresh(name)
                        bind(name, .storedHandler(local))
                        out.line("let \(local) = \(source)", at: place(binding))
                    default:
                        bind(name, ref)
                    }
                } else if let value {
                    if let closure = value.as(ClosureExprSyntax.self) {
                        bind(name, capture(closure))
                    } else {
                        lowerExpression(value)
                    }
                }
            }
        }
    }

    /// `try`, `await` and parentheses taken off.
    static func unwrapped(_ expression: ExprSyntax) -> ExprSyntax {
        if let tryExpression = expression.as(TryExprSyntax.self) { return unwrapped(tryExpression.expression) }
        if let awaitExpression = expression.as(AwaitExprSyntax.self) { return unwrapped(awaitExpression.expression) }
        return expression
    }

    /// Writes `target = value` for a value the scenario can hold; otherwise the code is out of
    /// the scan's sight.
    mutating func assign(_ value: ExprSyntax, to target: Ref, at node: some SyntaxProtocol) {
        switch target {
        case let .identifier(name, optional):
            if Self.isInvalidIdentifier(value) {
                out.line("\(name) = .invalid", at: place(node))
            } else if value.trimmedDescription == "nil" {
                out.line(optional ? "\(name) = nil" : "\(name) = .invalid", at: place(node))
            } else if case let .identifier(source, sourceOptional)? = resolve(value), sourceOptional == optional || optional {
                out.line("\(name) = \(source)", at: place(node))
            } else if let begin = beginCall(value) {
                lowerBegin(begin, storingIn: name)
            } else {
                markUnmodelled("an identifier is given a value the scan cannot follow")
            }
        case let .bool(name):
            if let boolean = value.as(BooleanLiteralExprSyntax.self) {
                out.line("\(name) = \(boolean.literal.text)", at: place(node))
            } else if let condition = condition(value), case .atom = condition, !condition.text.contains(" ") {
                out.line("\(name) = \(condition.text)", at: place(node))
            } else {
                markUnmodelled("a flag is given a value the scan cannot follow")
            }
        default:
            lowerEffects(of: value)
        }
    }

    /// `queue.sync { … return x }`, `lock.withLock { … return x }` or `await MainActor.run { x }`
    /// whose result is kept.
    mutating func lowerValueClosure(call: FunctionCallExprSyntax, callee: String, base: ExprSyntax?, closure: ClosureExprSyntax, target: Ref) {
        var head: String?
        if let base, case let .lock(lock)? = resolve(base) { head = "\(lock).withLock" }
        if let base, case let .queue(queue)? = resolve(base) { head = "\(queue).sync" }
        if callee == "sync", base?.trimmedDescription == "DispatchQueue.main" { head = "DispatchQueue.main.sync" }
        if callee == "run", base?.trimmedDescription == "MainActor", !onMainActor { head = "DispatchQueue.main.sync" }
        let body: (inout Lowerer) -> Void = { lowerer in
            // A closure of one expression returns it.
            if closure.statements.count == 1, let only = closure.statements.first, case let .expr(expression) = only.item {
                lowerer.assign(expression, to: target, at: expression)
            } else {
                lowerer.lowerBody(closure.statements, returning: target)
            }
        }
        guard let head else { return body(&self) }
        out.block(head, at: place(call)) { _ in }
        replaceLastBlock(body)
    }

    /// `MainActor.run { }`, `queue.sync { }` or `lock.withLock { }` (behind `try`/`await`), with its closure.
    func valueClosureCall(_ value: ExprSyntax) -> (FunctionCallExprSyntax, String, ExprSyntax?, ClosureExprSyntax)? {
        guard let call = Self.unwrapped(value).as(FunctionCallExprSyntax.self), let (callee, base) = Self.callee(call),
              let closure = Self.closures(of: call).first else { return nil }
        let isRun = callee == "run" && base?.trimmedDescription == "MainActor"
        guard isRun || callee == "sync" || callee == "withLock" else { return nil }
        return (call, callee, base, closure)
    }

    /// True when a closure's result is an identifier: it ends in (or returns) a
    /// `beginBackgroundTask` call or an identifier the scan follows.
    func returnsIdentifier(_ closure: ClosureExprSyntax) -> Bool {
        var results: [ExprSyntax] = []
        if closure.statements.count == 1, let only = closure.statements.first, case let .expr(expression) = only.item {
            results.append(expression)
        }
        for item in closure.statements {
            if let returned = item.item.as(ReturnStmtSyntax.self)?.expression { results.append(returned) }
        }
        return results.contains { result in
            if beginCall(Self.unwrapped(result)) != nil { return true }
            if case .identifier? = resolve(result) { return true }
            return false
        }
    }

    mutating func lowerSequence(_ node: SequenceExprSyntax) {
        let elements = Array(node.elements)
        guard elements.count == 3 else {
            lowerEffects(of: node)
            return
        }
        let target = elements[0], value = elements[2]
        if let op = elements[1].as(BinaryOperatorExprSyntax.self)?.operator.text, op == "+=" || op == "-=" {
            if case let .int(name)? = resolve(target), let amount = Int(value.trimmedDescription) {
                out.line("\(name) \(op) \(amount)", at: place(node))
            } else {
                lowerEffects(of: value)
            }
            return
        }
        guard elements[1].is(AssignmentExprSyntax.self) else {
            lowerEffects(of: node)
            return
        }
        // task.expirationHandler = { … } on a BGTask.
        if let member = target.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "expirationHandler",
           let base = member.base, case let .task(task)? = resolve(base) {
            if let closure = value.as(ClosureExprSyntax.self) {
                out.block("\(task).expirationHandler =", at: place(node)) { _ in }
                replaceLastBlock { $0.lowerBody(closure.statements) }
            } else if value.trimmedDescription == "nil" {
                out.line("\(task).expirationHandler = nil", at: place(node))
            } else {
                out.line("\(task).expirationHandler = { }", at: place(node))
            }
            return
        }
        declareObjects(in: target)
        switch resolve(target) {
        case let .storedHandler(name)?:
            if resolve(value) == .sessionHandler {
                out.line("\(name) = completionHandler", at: place(node))
            } else if value.trimmedDescription == "nil" {
                out.line("\(name) = nil", at: place(node))
            } else {
                markUnmodelled("a completion handler is stored from a value the scan cannot follow")
            }
        case let .identifier(name, optional)?:
            if let begin = beginCall(value) {
                lowerBegin(begin, storingIn: name)
            } else if Self.isInvalidIdentifier(value) {
                out.line("\(name) = .invalid", at: place(node))
            } else if value.trimmedDescription == "nil", optional {
                out.line("\(name) = nil", at: place(node))
            } else if case let .identifier(source, _)? = resolve(value) {
                out.line("\(name) = \(source)", at: place(node))
            } else {
                markUnmodelled("an identifier is assigned a value the scan cannot follow")
            }
        case let .bool(name)?:
            if let boolean = value.as(BooleanLiteralExprSyntax.self) {
                out.line("\(name) = \(boolean.literal.text)", at: place(node))
            } else {
                lowerEffects(of: value)
            }
        case let .int(name)?:
            if let number = Int(value.trimmedDescription) { out.line("\(name) = \(number)", at: place(node)) } else { lowerEffects(of: value) }
        default:
            if let ref = resolve(value), case .pushCompletion = ref {
                markUnmodelled("the completion handler is stored")
            } else if resolve(value) == .sessionHandler {
                markUnmodelled("the session's completion handler is stored where the scan cannot follow it")
            } else if let ref = resolve(value), case .identifier = ref {
                markUnmodelled("an identifier is stored where the scan cannot follow it")
            } else if let ref = resolve(value), case .task = ref {
                markUnmodelled("a BGTask is stored where the scan cannot follow it")
            } else if let closure = value.as(ClosureExprSyntax.self) {
                // A callback handed over by assignment (`operation.completionBlock = { … }`): it runs later, once.
                lowerDeferred([closure], at: node)
            } else if let begin = beginCall(value) {
                // Stored somewhere the scan cannot follow (a dictionary, another object).
                _ = begin
                markUnmodelled("an identifier is stored where the scan cannot follow it")
            } else {
                lowerEffects(of: value)
            }
        }
    }
}

/// The outermost calls of an expression, outside its closures.
private final class CallFinder: SyntaxVisitor {
    var calls: [FunctionCallExprSyntax] = []
    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        calls.append(node)
        return .skipChildren
    }
    override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
}
