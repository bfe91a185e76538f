import SwiftSyntax

extension Lowerer {
    /// Closures these run synchronously, in place.
    static let synchronousCallees: Set<String> = [
        "forEach", "map", "compactMap", "flatMap", "filter", "reduce", "sorted", "first", "contains", "allSatisfy",
        "removeAll", "withLock", "autoreleasepool", "performAndWait", "sync", "withCheckedContinuation",
        "withCheckedThrowingContinuation", "withTaskGroup", "withThrowingTaskGroup", "withExtendedLifetime",
    ]

    /// The name a call is made by and the expression it is made on (`nil` for a plain call).
    static func callee(_ call: FunctionCallExprSyntax) -> (name: String, base: ExprSyntax?)? {
        if let reference = call.calledExpression.as(DeclReferenceExprSyntax.self) { return (reference.baseName.text, nil) }
        if let member = call.calledExpression.as(MemberAccessExprSyntax.self) { return (member.declName.baseName.text, member.base) }
        if let optional = call.calledExpression.as(OptionalChainingExprSyntax.self),
           let reference = optional.expression.as(DeclReferenceExprSyntax.self) { return (reference.baseName.text, nil) }
        if let optional = call.calledExpression.as(OptionalChainingExprSyntax.self),
           let member = optional.expression.as(MemberAccessExprSyntax.self) { return (member.declName.baseName.text, member.base) }
        return nil
    }

    /// How many trailing closures a call has.
    static func trailingCount(_ call: FunctionCallExprSyntax) -> Int {
        (call.trailingClosure == nil ? 0 : 1) + call.additionalTrailingClosures.count
    }

    static func closures(of call: FunctionCallExprSyntax) -> [ClosureExprSyntax] {
        var found = call.arguments.compactMap { $0.expression.as(ClosureExprSyntax.self) }
        if let trailing = call.trailingClosure { found.append(trailing) }
        found.append(contentsOf: call.additionalTrailingClosures.map(\.closure))
        return found
    }

    /// The first parameter name of a closure (`task` in `{ task in … }`).
    static func parameterName(_ closure: ClosureExprSyntax) -> String? {
        guard let parameters = closure.signature?.parameterClause else { return nil }
        switch parameters {
        case let .simpleInput(list): return list.first?.name.text
        case let .parameterClause(clause): return clause.parameters.first.map { ($0.secondName ?? $0.firstName).text }
        }
    }

    /// `self`, `self?`, `self!`, or a strong copy of it (`strongSelf`); nil (no base) counts too.
    func isSelf(_ expression: ExprSyntax?) -> Bool {
        guard let expression else { return true }
        if let optional = expression.as(OptionalChainingExprSyntax.self) { return isSelf(optional.expression) }
        if let forced = expression.as(ForceUnwrapExprSyntax.self) { return isSelf(forced.expression) }
        let name = expression.as(DeclReferenceExprSyntax.self)?.baseName.text
        return name == "self" || name == "strongSelf"
    }

    /// `beginBackgroundTask(…)` (on any receiver, possibly behind `try`/parentheses), or nil.
    func beginCall(_ expression: ExprSyntax) -> FunctionCallExprSyntax? {
        guard let call = expression.as(FunctionCallExprSyntax.self), Self.callee(call)?.name == "beginBackgroundTask" else { return nil }
        return call
    }

    /// Writes `target = beginBackgroundTask(withName: "…") { handler }` (`target` may be `let x`).
    mutating func lowerBegin(_ call: FunctionCallExprSyntax, storingIn target: String) {
        let nameArgument = call.arguments.first { $0.label?.text == "withName" }?.expression.as(StringLiteralExprSyntax.self)
        let name = nameArgument.map { literal in literal.segments.compactMap { $0.as(StringSegmentSyntax.self)?.content.text }.joined() }
        let nameText = name.map { "withName: \"\($0.replacingOccurrences(of: "\"", with: ""))\"" }
        let handlerArgument = call.arguments.first { $0.label?.text == "expirationHandler" }?.expression
        let closure = call.trailingClosure ?? handlerArgument?.as(ClosureExprSyntax.self)
        let head = "\(target) = UIApplication.shared.beginBackgroundTask"
        let saved = out.context
        defer { out.context = saved }
        if let closure {
            out.block(head + (nameText.map { "(\($0))" } ?? ""), at: place(call)) { _ in }
            out.context = saved.contains("h") ? saved : saved + "h"
            replaceLastBlock { $0.lowerBody(closure.statements) }
        } else if let handlerArgument, handlerArgument.trimmedDescription != "nil" {
            // A handler given by reference (`expirationHandler: self.expire`): run it as a closure would.
            out.block(head + (nameText.map { "(\($0))" } ?? ""), at: place(call)) { _ in }
            out.context = saved.contains("h") ? saved : saved + "h"
            replaceLastBlock { lowerer in
                if let function = lowerer.functionReference(handlerArgument) { lowerer.inline(function, arguments: [], at: call) } else { lowerer.unknown(at: call) }
            }
        } else {
            let arguments = (nameText.map { [$0] } ?? []) + ["expirationHandler: nil"]
            out.line(head + "(" + arguments.joined(separator: ", ") + ")", at: place(call))
        }
    }

    func functionReference(_ expression: ExprSyntax) -> FunctionDeclSyntax? {
        let name: String?
        if let reference = expression.as(DeclReferenceExprSyntax.self) { name = reference.baseName.text } else if let member = expression.as(MemberAccessExprSyntax.self), isSelf(member.base) {
            name = member.declName.baseName.text
        } else { name = nil }
        return name.flatMap { model.function(named: $0, labels: []) ?? model.functions[$0]?.first }
    }

    mutating func lowerCall(_ call: FunctionCallExprSyntax) {
        guard let (name, base) = Self.callee(call) else {
            lowerEffects(ofArguments: call)
            unknown(at: call)
            return
        }
        let labels = call.arguments.map { $0.label?.text }
        // A background session's completion handler, as received or as stored.
        declareObjects(in: call.calledExpression)
        switch resolve(call.calledExpression) {
        case .sessionHandler?:
            out.line("completionHandler()", at: place(call))
            return
        case let .storedHandler(stored)?:
            out.line("\(stored)?()", at: place(call))
            return
        default:
            break
        }
        if let base, let ref = resolve(base), lowerSynchronization(call, name: name, on: ref) { return }
        // A parameter or local that stands for a closure: the push completion, a closure literal.
        if base == nil, let ref = lookup(name) {
            switch ref {
            case let .pushCompletion(handler):
                out.line("\(handler)(.newData)", at: place(call))
                return
            case let .closure(closure, captured):
                withCapture(captured) { $0.lowerInline(closure.statements, at: call) }
                return
            case let .localFunction(function):
                inline(function, arguments: Array(call.arguments), trailing: Self.closures(of: call), at: call, keepsLocals: true)
                return
            default:
                break
            }
        }
        // The type's own function (which may share a name with the API it wraps: `endBackgroundTask()`).
        if isSelf(base), let function = model.function(named: name, labels: labels, trailingClosures: Self.trailingCount(call)),
           function.signature.parameterClause.parameters.count == call.arguments.count + (call.trailingClosure == nil ? 0 : 1) {
            inline(function, arguments: Array(call.arguments), trailing: Self.closures(of: call).filter { closure in
                !call.arguments.contains { $0.expression.as(ClosureExprSyntax.self) == closure }
            }, at: call)
            return
        }
        // A method of an object of another type of the file that is handed a closure
        // (`cache.prune { … }`) or uses the covered APIs itself: lowered where it is called.
        if let base, case let .instance(prefix, type)? = resolve(base), let foreign = fileTypes[type],
           let function = foreign.function(named: name, labels: labels, trailingClosures: Self.trailingCount(call)), keepsClosureParameters(function, call),
           !Self.closures(of: call).isEmpty || HarnessBuilder.mentions(function.description)
            || call.arguments.contains(where: { resolve($0.expression) == .sessionHandler }) {
            inlineForeign(function, of: foreign, prefix: prefix, call: call)
            return
        }
        switch name {
        case "beginBackgroundTask":
            lowerBegin(call, storingIn: "let \(fresh("discarded"))")
        case "endBackgroundTask":
            guard let argument = call.arguments.first?.expression, case let .identifier(identifier, optional)? = resolve(argument) else {
                markUnmodelled("endBackgroundTask is passed an identifier the scan cannot follow")
                return
            }
            out.line("UIApplication.shared.endBackgroundTask(\(identifier)\(optional ? "!" : ""))", at: place(call))
        case "register" where labels.first == "forTaskWithIdentifier":
            lowerRegister(call)
        case "submit", "cancel", "cancelAllTaskRequests", "getPendingTaskRequests":
            // The checker submits its own requests; what the app submits is not what is checked.
            return
        case "setTaskCompleted":
            guard let base, case let .task(task)? = resolve(base) else { return unknown(at: call) }
            out.line("\(task).setTaskCompleted(success: true)", at: place(call))
        case "performExpiringActivity":
            lowerExpiringActivity(call)
        case "async", "asyncAfter", "sync", "asyncAndWait" where base != nil:
            lowerDispatch(call, name: name, base: base)
        case "addOperation" where base.map(isOperationQueue) == true && call.arguments.isEmpty:
            // `queue.addOperation { }` on a known OperationQueue (or `OperationQueue.main`): the block runs there, soon.
            lowerDispatch(call, name: "async", base: base)
        case "withLock":
            guard let closure = Self.closures(of: call).first else { return unknown(at: call) }
            if let base, case let .lock(lock)? = resolve(base) {
                out.block("\(lock).withLock", at: place(call)) { _ in }
                replaceLastBlock { $0.lowerBody(closure.statements) }
            } else {
                lowerInline(closure.statements, at: call)
            }
        case "Task", "detached" where base == nil || base?.trimmedDescription == "Task":
            guard let closure = Self.closures(of: call).first else { return unknown(at: call) }
            // `Task { }` in a main-actor type runs on main (an `await` in it lets go of main); in
            // another type it runs on the global executor, as a detached task does, on its own thread.
            let onMain = name == "Task" && (model.isMainActor || closure.signature?.attributes.trimmedDescription.contains("@MainActor") == true)
            spawn(at: call) { lowerer in
                lowerer.out.block(onMain ? "DispatchQueue.main.async" : "Task.detached", at: lowerer.place(call)) { _ in }
                lowerer.replaceLastBlock { inner in inner.isolated(onMainActor: onMain) { $0.lowerBody(closure.statements) } }
            }
        case "run" where base?.trimmedDescription == "MainActor":
            // `await MainActor.run { }`: a hop to main that waits for the block.
            guard let closure = Self.closures(of: call).first else { return unknown(at: call) }
            if onMainActor { return lowerInline(closure.statements, at: call) }
            out.block("DispatchQueue.main.sync", at: place(call)) { _ in }
            replaceLastBlock { $0.lowerBody(closure.statements) }
        default:
            if isSelf(base), let function = model.function(named: name, labels: labels, trailingClosures: Self.trailingCount(call)) {
                inline(function, arguments: Array(call.arguments), trailing: Self.closures(of: call).filter { closure in
                    !call.arguments.contains { $0.expression.as(ClosureExprSyntax.self) == closure }
                }, at: call)
            } else if Self.synchronousCallees.contains(name) {
                if let base { lowerExpression(base) }
                lowerEffects(ofArguments: call)
                for closure in Self.closures(of: call) { lowerInline(closure.statements, at: call) }
            } else {
                if let base { lowerEffects(of: base) }
                lowerEffects(ofArguments: call)
                unknown(at: call)
                lowerHandOver(call)
            }
        }
    }

    /// `OperationQueue.main`, or a stored queue the scan declared (an OperationQueue property).
    func isOperationQueue(_ base: ExprSyntax) -> Bool {
        if base.trimmedDescription == "OperationQueue.main" { return true }
        if case .queue? = resolve(base) { return true }
        return false
    }

    /// The calls in a call's arguments (not in closures), evaluated before the call.
    mutating func lowerEffects(ofArguments call: FunctionCallExprSyntax) {
        for argument in call.arguments where !argument.expression.is(ClosureExprSyntax.self) {
            lowerEffects(of: argument.expression)
        }
    }

    /// What an unknown call is handed: its closures run later, once (one of them, when there are
    /// several, such as success and failure); a completion handler passed on is called later; an
    /// identifier passed on is out of the scan's sight.
    mutating func lowerHandOver(_ call: FunctionCallExprSyntax) {
        var callbacks = Self.closures(of: call)
        for argument in call.arguments {
            switch resolve(argument.expression) {
            case .identifier?, .task?, .sessionHandler?, .storedHandler?:
                markUnmodelled("\(argument.expression.trimmedDescription) is passed to \(call.calledExpression.trimmedDescription)")
            case let .pushCompletion(handler)?:
                out.block("DispatchQueue.global().async", at: place(call)) { _ in }
                replaceLastBlock { lowerer in
                    lowerer.out.line("work 100ms", at: lowerer.place(call))
                    lowerer.out.line("\(handler)(.newData)", at: lowerer.place(argument))
                }
            case let .closure(closure, captured)?:
                // A closure passed on: called later, once, in the scope it was written in.
                spawn(at: call) { lowerer in
                    lowerer.out.block("DispatchQueue.global().async", at: lowerer.place(call)) { _ in }
                    lowerer.replaceLastBlock { inner in
                        inner.out.line("work 100ms", at: inner.place(call))
                        inner.withCapture(captured) { $0.lowerBody(closure.statements) }
                    }
                }
            default:
                break
            }
        }
        guard !callbacks.isEmpty else { return }
        // Combine's sink delivers values, then its completion: both run, in that order.
        let labels = call.arguments.map { $0.label?.text ?? "" }
        if labels.contains("receiveCompletion"), labels.contains("receiveValue") {
            let value = call.arguments.first { $0.label?.text == "receiveValue" }?.expression.as(ClosureExprSyntax.self)
            let completion = call.arguments.first { $0.label?.text == "receiveCompletion" }?.expression.as(ClosureExprSyntax.self)
            lowerDeferred([value, completion].compactMap { $0 }, at: call, inSequence: true, on: deliveryQueue(call))
            return
        }
        lowerDeferred(callbacks, at: call, on: deliveryQueue(call))
    }

    /// The queue a Combine chain delivers on, in the scenario's words: the last
    /// `.receive(on:)`, else the last operator's `scheduler:` (`debounce`, `throttle`, `delay`
    /// deliver there), else `.subscribe(on:)`; nil when the chain names none the scan knows.
    func deliveryQueue(_ call: FunctionCallExprSyntax) -> String? {
        var receive: ExprSyntax?, scheduler: ExprSyntax?, subscribe: ExprSyntax?
        var node: ExprSyntax? = call.calledExpression
        // Walk the chain from its end: `a.b(…).c(…).sink` is sink's base, c's call, and so on.
        while let current = node {
            if let member = current.as(MemberAccessExprSyntax.self) {
                node = member.base
            } else if let step = current.as(FunctionCallExprSyntax.self) {
                let name = Self.callee(step)?.name
                if name == "receive", receive == nil { receive = step.arguments.first { $0.label?.text == "on" }?.expression }
                if name == "subscribe", subscribe == nil { subscribe = step.arguments.first { $0.label?.text == "on" }?.expression }
                if scheduler == nil, let argument = step.arguments.first(where: { $0.label?.text == "scheduler" }) { scheduler = argument.expression }
                node = step.calledExpression
            } else {
                node = nil
            }
        }
        guard let expression = receive ?? scheduler ?? subscribe else { return nil }
        let text = expression.trimmedDescription
        if ["DispatchQueue.main", "RunLoop.main", ".main", "OperationQueue.main"].contains(text) { return "DispatchQueue.main" }
        if text.hasPrefix("DispatchQueue.global(") { return "DispatchQueue.global()" }
        if case let .queue(name)? = resolve(expression) { return name }
        return nil
    }

    /// A Combine subscriber called as an entry point: its value closure, on the background queue
    /// its chain delivers on. A chain that names none, or main, is left alone: when it delivers
    /// (a notification when the app becomes active, a tap) is not the scan's to guess.
    mutating func lowerSubscriber(_ call: FunctionCallExprSyntax) {
        let labelled = call.arguments.first { $0.label?.text == "receiveValue" }?.expression.as(ClosureExprSyntax.self)
        guard let value = labelled ?? call.trailingClosure, let queue = deliveryQueue(call), queue != "DispatchQueue.main" else { return }
        out.block("\(queue).async", at: place(call)) { _ in }
        replaceLastBlock { $0.lowerInline(value.statements, at: call) }
    }

    /// Runs one of `closures` later on a thread of its own, as a completion callback would, or on
    /// `queue` (`DispatchQueue.main` or a declared queue) when the callback is delivered there.
    mutating func lowerDeferred(_ closures: [ClosureExprSyntax], at node: some SyntaxProtocol, inSequence: Bool = false, on queue: String? = nil) {
        guard let first = closures.first else { return }
        if inSequence || queue != nil {
            // Later, once; on the queue the publisher delivers on (`.receive(on: DispatchQueue.main)`).
            spawn(at: node) { outer in
            outer.out.block("DispatchQueue.global().async", at: outer.place(node)) { _ in }
            outer.replaceLastBlock { lowerer in
                lowerer.out.line("work 100ms", at: lowerer.place(node))
                let run: (inout Lowerer) -> Void = { inner in
                    guard inSequence else { return inner.lowerInline(first.statements, at: node) }
                    // A publisher may finish without a value: the value closure runs on some paths.
                    // Values then `.finished`, or a failure with no value.
                    guard closures.count > 1, let flag = inner.flag(for: "value@\(inner.place(node).line):\(inner.place(node).column)") else {
                        for closure in closures { inner.lowerInline(closure.statements, at: node) }
                        return
                    }
                    inner.out.block("if \(flag)", at: inner.place(node)) { _ in }
                    inner.replaceLastBlock { $0.lowerInline(closures[0].statements, at: node) }
                    let parameter = Self.parameterName(closures[1]) ?? "completion"
                    inner.lowerInline(closures[1].statements, at: node, bindings: [parameter: .combineCompletion(valueFlag: flag)])
                }
                if let queue {
                    lowerer.out.block("\(queue).async", at: lowerer.place(node)) { _ in }
                    lowerer.replaceLastBlock(run)
                } else {
                    run(&lowerer)
                }
            }
            }
            return
        }
        if closures.count > 1, let choice = flag(for: "callback@\(place(node).line):\(place(node).column)") {
            out.block("if \(choice)", at: place(node)) { _ in }
            replaceLastBlock { $0.lowerDeferred([first], at: node) }
            openElse { $0.lowerDeferred([closures[1]], at: node) }
            return
        }
        spawn(at: node) { outer in
            outer.out.block("DispatchQueue.global().async", at: outer.place(node)) { _ in }
            outer.replaceLastBlock { lowerer in
                lowerer.out.line("work 100ms", at: lowerer.place(node))
                lowerer.lowerBody(first.statements, bindings: lowerer.closureBindings(first))
            }
        }
    }

    /// A callback's parameters are values the scan cannot see, except a closure literal's own locals.
    func closureBindings(_ closure: ClosureExprSyntax) -> [String: Ref] { [:] }

    mutating func lowerDispatch(_ call: FunctionCallExprSyntax, name: String, base: ExprSyntax?) {
        guard let closure = Self.closures(of: call).first else {
            // `queue.async(execute: block)`: work the scan cannot see, run later, once.
            guard name == "async", call.arguments.contains(where: { $0.label?.text == "execute" }) else { return unknown(at: call) }
            return spawn(at: call) { lowerer in
                lowerer.out.block("DispatchQueue.global().async", at: lowerer.place(call)) { _ in }
                lowerer.replaceLastBlock { inner in
                    inner.out.line("work 100ms", at: inner.place(call))
                    inner.markSpawnDone(leaving: false)
                }
            }
        }
        let baseText = base?.trimmedDescription ?? ""
        let queue: String?
        if baseText == "DispatchQueue.main" || baseText == "OperationQueue.main" {
            queue = "DispatchQueue.main"
        } else if baseText.hasPrefix("DispatchQueue.global") {
            queue = "DispatchQueue.global()"
        } else if let base, case let .queue(named)? = resolve(base) {
            queue = named
        } else {
            queue = nil
        }
        guard let queue else {
            // A queue the scan does not know (an OperationQueue, a queue from elsewhere): later, once.
            lowerDeferred([closure], at: call)
            return
        }
        if name == "asyncAfter" {
            spawn(at: call) { outer in
                outer.out.block("DispatchQueue.global().async", at: outer.place(call)) { _ in }
                outer.replaceLastBlock { lowerer in
                    lowerer.out.line("work 100ms", at: lowerer.place(call))
                    lowerer.out.block("\(queue).async", at: lowerer.place(call)) { _ in }
                    lowerer.replaceLastBlock { $0.lowerBody(closure.statements) }
                }
            }
            return
        }
        if name == "sync" || name == "asyncAndWait" {
            if queue == "DispatchQueue.global()" {
                lowerInline(closure.statements, at: call)
            } else {
                out.block("\(queue).sync", at: place(call)) { _ in }
                replaceLastBlock { $0.lowerBody(closure.statements) }
            }
            return
        }
        spawn(at: call) { lowerer in
            lowerer.out.block("\(queue).async", at: lowerer.place(call)) { _ in }
            lowerer.replaceLastBlock { $0.lowerBody(closure.statements) }
        }
    }

    mutating func lowerRegister(_ call: FunctionCallExprSyntax) {
        guard let identifier = call.arguments.first?.expression else { return }
        let handlerArgument = call.arguments.first { $0.label?.text == "launchHandler" }?.expression
        let closure = call.trailingClosure ?? handlerArgument?.as(ClosureExprSyntax.self)
        let processing = (closure?.description ?? "").contains("BGProcessingTask") || identifier.trimmedDescription.lowercased().contains("process")
        let literal = literal(forTaskIdentifier: identifier, processing: processing, at: call)
        let request = "BGContinuedProcessingTaskRequest(identifier: \(identifier.trimmedDescription)"
        if (closure?.description ?? "").contains("BGContinuedProcessingTask") || model.functionOrder.contains(where: { $0.description.contains(request) }),
           let index = taskIdentifiers.firstIndex(where: { $0.literal == literal }) {
            taskIdentifiers[index].continued = true
        }
        let queueText = call.arguments.first { $0.label?.text == "using" }?.expression.trimmedDescription ?? "nil"
        let queue = queueText == "DispatchQueue.main" || queueText == ".main" ? "DispatchQueue.main" : "nil"
        let task = fresh("task")
        out.block("BGTaskScheduler.shared.register(forTaskWithIdentifier: \"\(literal)\", using: \(queue)) { \(task) in", at: place(call)) { _ in }
        // `block` wrote "… in {": the launch handler's brace is the one after `)`.
        out.lines[out.lines.count - 2] = out.lines[out.lines.count - 2].replacingOccurrences(of: ") { \(task) in {", with: ") { \(task) in")
        let start = out.lines.count
        defer {
            let body = out.lines[start...].joined(separator: "\n")
            if let index = taskIdentifiers.firstIndex(where: { $0.literal == literal }) {
                taskIdentifiers[index].setsExpirationHandler = taskIdentifiers[index].setsExpirationHandler || body.contains(".expirationHandler =")
            }
        }
        replaceLastBlock { lowerer in
            if let closure {
                let parameter = Self.parameterName(closure) ?? "task"
                lowerer.lowerBody(closure.statements, bindings: [parameter: .task(task)])
            } else if let handlerArgument, let function = lowerer.functionReference(handlerArgument) {
                lowerer.withScope(["__task": .task(task)], boundary: false) { inner in
                    inner.inline(function, arguments: [], at: call, boundArguments: [.task(task)])
                }
            } else {
                lowerer.markUnmodelled("a launch handler the scan cannot see")
            }
        }
    }

    /// Lowers a call to a function of the same type in place, its parameters bound to what the
    /// arguments stand for. A body that returns early is wrapped in a lock of its own, whose block
    /// a `return` leaves, so the caller's statements after the call still run.
    mutating func inline(_ function: FunctionDeclSyntax, arguments: [LabeledExprSyntax], trailing: [ClosureExprSyntax] = [],
                         at call: some SyntaxProtocol, boundArguments: [Ref?]? = nil, keepsLocals: Bool = false, returning target: Ref? = nil) {
        guard let body = function.body, enterCall(function.name.text) else { return unknown(at: call) }
        defer { leaveCall() }
        var bindings: [String: Ref] = [:]
        let parameters = Array(function.signature.parameterClause.parameters)
        var values: [Ref?] = boundArguments ?? arguments.map { argument in
            if let closure = argument.expression.as(ClosureExprSyntax.self) { return capture(closure) }
            return resolve(argument.expression)
        }
        values.append(contentsOf: trailing.map { capture($0) })
        for (parameter, value) in zip(parameters, values) {
            let name = (parameter.secondName ?? parameter.firstName).text
            if let value { bindings[name] = value }
        }
        if Self.returnsEarly(body) {
            let lock = newInlineLock(for: function.name.text)
            out.block("\(lock).withLock", at: place(call)) { _ in }
            replaceLastBlock { $0.lowerBody(body.statements, bindings: bindings, returning: target, barrier: !keepsLocals) }
        } else {
            lowerBody(body.statements, bindings: bindings, returning: target, barrier: !keepsLocals)
        }
    }

    /// Lowers a method of another type of the file where it is called: the arguments are read
    /// here, then the body is lowered as that type's code, its stored properties the object's.
    mutating func inlineForeign(_ function: FunctionDeclSyntax, of type: TypeModel, prefix objectPrefix: String, call: FunctionCallExprSyntax,
                                returning target: Ref? = nil) {
        var values: [Ref?] = call.arguments.map { argument in
            if let closure = argument.expression.as(ClosureExprSyntax.self) { return capture(closure) }
            return resolve(argument.expression)
        }
        values.append(contentsOf: Self.closures(of: call).filter { closure in
            !call.arguments.contains { $0.expression.as(ClosureExprSyntax.self) == closure }
        }.map { capture($0) })
        declareObject(objectPrefix, of: type)
        let saved = (model, prefix)
        model = type
        prefix = objectPrefix
        inline(function, arguments: [], at: call, boundArguments: values, returning: target)
        (model, prefix) = saved
    }

    /// True when every closure the call passes is only called or handed on by the function (not
    /// stored or returned, which the scan could not follow): then lowering the function in place
    /// keeps what the closure does.
    func keepsClosureParameters(_ function: FunctionDeclSyntax, _ call: FunctionCallExprSyntax) -> Bool {
        guard let body = function.body else { return false }
        let parameters = Array(function.signature.parameterClause.parameters)
        let passesClosure = call.arguments.contains { $0.expression.is(ClosureExprSyntax.self) } || call.trailingClosure != nil
        guard passesClosure else { return true }
        for parameter in parameters where parameter.type.trimmedDescription.contains("->") {
            let name = (parameter.secondName ?? parameter.firstName).text
            for token in body.tokens(viewMode: .sourceAccurate) where token.text == name {
                let next = token.nextToken(viewMode: .sourceAccurate)?.tokenKind
                let called = next == .leftParen || next == .postfixQuestionMark
                let passed = token.parent?.parent?.is(LabeledExprSyntax.self) == true
                if !called && !passed { return false }
            }
        }
        return true
    }

    /// A closure that runs in place (a synchronous callee's): its `return` leaves only the
    /// closure, so a body that returns early is wrapped in a lock of its own.
    mutating func lowerInline(_ statements: CodeBlockItemListSyntax, at node: some SyntaxProtocol, bindings: [String: Ref] = [:]) {
        let finder = EarlyExitFinder(viewMode: .sourceAccurate)
        finder.walk(statements)
        guard finder.found else { return lowerBody(statements, bindings: bindings) }
        let lock = newInlineLock()
        out.block("\(lock).withLock", at: place(node)) { _ in }
        replaceLastBlock { $0.lowerBody(statements, bindings: bindings) }
    }

    /// True when a body has a `return`, `throw` or `try` outside its closures.
    static func returnsEarly(_ body: CodeBlockSyntax) -> Bool {
        let finder = EarlyExitFinder(viewMode: .sourceAccurate)
        finder.walk(body)
        return finder.found
    }
}

/// Finds a `return`, `throw` or throwing `try` outside closures.
final class EarlyExitFinder: SyntaxVisitor {
    var found = false
    override func visit(_ node: ReturnStmtSyntax) -> SyntaxVisitorContinueKind { found = true; return .skipChildren }
    override func visit(_ node: ThrowStmtSyntax) -> SyntaxVisitorContinueKind { found = true; return .skipChildren }
    override func visit(_ node: TryExprSyntax) -> SyntaxVisitorContinueKind {
        if node.questionOrExclamationMark == nil { found = true }
        return .visitChildren
    }
    override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
}
