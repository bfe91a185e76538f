import BGKBModel

/// Reading Dispatch timers, semaphores and groups, `while`, Swift concurrency (`Task`, `await`,
/// `Task.sleep`), background URLSession and continued processing requests.
extension ScenarioParser {
    /// A statement this file lowered; `kind` is nil when it reported a problem.
    struct Lowered {
        var kind: StatementKind?
    }

    // MARK: Statements that start with a keyword

    mutating func parseConcurrencyStatement(_ word: String, _ start: Scenario.Place) -> Scenario.Statement? {
        advance()
        switch word {
        case "while":
            guard enterLevel() else { skipToLineEnd(); return nil }
            defer { nesting -= 1 }
            guard let syntax = parseExpression(trailingClosures: false), let condition = lowerCondition(syntax) else {
                skipToLineEnd(); return nil
            }
            guard let block = parseBlock(parameters: []) else { return nil }
            return .init(kind: .concurrency(.whileLoop(condition, block: block)), place: start)
        case "guard":
            guard enterLevel() else { skipToLineEnd(); return nil }
            defer { nesting -= 1 }
            if isWord("let", or: "var") {
                fail("`guard let` is not modelled: test the Optional (guard x != nil else { return })", at: start)
                skipToLineEnd(); return nil
            }
            guard let syntax = parseExpression(trailingClosures: false), let condition = lowerCondition(syntax) else {
                skipToLineEnd(); return nil
            }
            guard isWord("else") else { fail("expected 'else' after the guard's condition"); skipToLineEnd(); return nil }
            advance()
            guard let block = parseBlock(parameters: []) else { return nil }
            return .init(kind: .branch(.not(condition), then: block, else: nil), place: start)
        default:
            fail("`\(word)` is not modelled: write the loop with its condition (while condition { }) or an if", at: start)
            skipToLineEnd()
            return nil
        }
    }

    // MARK: Objects

    /// `DispatchSemaphore(value:)`, `DispatchGroup()`, a background `URLSession(...)`,
    /// `BGContinuedProcessingTaskRequest(...)`. Nil: not an object; `.some(nil)`: one with a problem.
    mutating func lowerObject(_ components: [Syntax.Component]) -> ObjectExpression?? {
        guard components.count == 1, let c = components.first, let arguments = c.arguments else {
            if components.count == 2, components[0].name == "URLSession", components[1].name == "shared" {
                fail("URLSession.shared is not modelled: only background sessions (URLSession(configuration: .background(withIdentifier: \"id\"), delegate: self, delegateQueue: nil)) are", at: components[0].place)
                return .some(nil)
            }
            return nil
        }
        switch c.name {
        case "DispatchSemaphore":
            guard let argument = arguments.first(where: { $0.label == "value" }), case let .number(value, nil, _) = argument.value else {
                fail("DispatchSemaphore needs its value: DispatchSemaphore(value: 0)", at: c.place); return .some(nil)
            }
            return .semaphore(value: clampedInt(value))
        case "DispatchGroup":
            return .group
        case "URLSession":
            guard let configuration = arguments.first(where: { $0.label == "configuration" }),
                  let identifier = backgroundIdentifier(configuration.value) else {
                fail("only background sessions are modelled: URLSession(configuration: .background(withIdentifier: \"id\"), delegate: self, delegateQueue: nil)", at: c.place)
                return .some(nil)
            }
            if let queue = arguments.first(where: { $0.label == "delegateQueue" }), normalized(queue.value).last?.name != "nil" {
                fail("only delegateQueue: nil is modelled (the session then calls its delegate on a serial queue of its own)", at: queue.value.place)
                return .some(nil)
            }
            return .backgroundSession(identifier: intern(identifier))
        case "BGContinuedProcessingTaskRequest":
            guard let identifier = stringArgument(arguments, "identifier") else {
                fail("BGContinuedProcessingTaskRequest needs identifier: \"...\" (and title:, subtitle:)", at: c.place); return .some(nil)
            }
            return .continuedRequest(identifier: intern(identifier))
        default:
            return nil
        }
    }

    /// `.background(withIdentifier: "id")` or `URLSessionConfiguration.background(withIdentifier: "id")`.
    func backgroundIdentifier(_ syntax: Syntax) -> String? {
        let components = normalized(syntax)
        guard let last = components.last, last.name == "background" else { return nil }
        return stringArgument(last.arguments, "withIdentifier")
    }

    func objectType(_ object: ObjectExpression) -> ValueType {
        switch object {
        case .semaphore: return .semaphore
        case .group: return .group
        case .backgroundSession: return .session
        case .continuedRequest: return .request
        }
    }

    // MARK: Durations

    /// `.now() + 5`, `.now() + .seconds(5)`, `DispatchTime.now() + .milliseconds(500)`; nil with
    /// `infinite` set for `.distantFuture`.
    mutating func deadline(_ syntax: Syntax, infinite: inout Bool) -> Double? {
        if case .path = syntax, normalized(syntax).last?.name == "distantFuture" { infinite = true; return nil }
        guard case let .binary("+", base, offset, _) = syntax, normalized(base).last?.name == "now" else {
            fail("write the deadline as .now() + 5 (or .now() + .seconds(5))", at: syntax.place); return nil
        }
        return interval(offset)
    }

    /// `5`, `.seconds(5)`, `.milliseconds(500)`, `.nanoseconds(n)`, `.microseconds(n)`.
    mutating func interval(_ syntax: Syntax) -> Double? {
        switch syntax {
        case let .number(value, unit, p):
            switch unit {
            case nil, "s": return value
            case "ms": return value / 1000
            default: fail("write the interval in seconds (5) or as .seconds(5)", at: p); return nil
            }
        case .path:
            let components = normalized(syntax)
            if let last = components.last, let argument = last.arguments?.first, case let .number(value, nil, _) = argument.value {
                switch last.name {
                case "seconds": return value
                case "milliseconds": return value / 1e3
                case "microseconds": return value / 1e6
                case "nanoseconds": return value / 1e9
                default: break
                }
            }
        default: break
        }
        fail("write the interval in seconds (5) or as .seconds(5), .milliseconds(500)", at: syntax.place)
        return nil
    }

    // MARK: Calls

    /// Whether a trailing closure given to `components` runs on the main actor, as Swift decides
    /// it: blocks on the main queue and UIKit's handlers do, `Task { }` keeps the isolation it is
    /// started in, `Task.detached` and other queues' blocks do not.
    func closureRunsOnMainActor(_ components: [Syntax.Component], inside enclosing: Bool) -> Bool {
        let path = normalized(.path(components, components.first?.place ?? .init(line: 0, column: 0)))
        guard let last = path.last?.name else { return enclosing }
        switch last {
        case "Task": return path.count == 1 ? enclosing : false
        case "detached": return false
        case "withLock": return enclosing
        case "beginBackgroundTask": return true
        case "notify":
            let queue = components.last?.arguments?.first { $0.label == "queue" }
            return queue.map { normalized($0.value).last?.name == "main" } ?? false
        default: return path.contains { $0.name == "main" }
        }
    }

    /// The variable a method is called on, with its type.
    mutating func receiver(_ component: Syntax.Component) -> (Expression, ValueType)? {
        guard let (ref, type) = lookup(component.name) else { return nil }
        return (.read(ref), type)
    }

    mutating func lowerConcurrencyCall(_ components: [Syntax.Component]) -> Lowered? {
        guard let last = components.last else { return nil }
        let arguments = last.arguments
        // `Task.detached`, `Task.sleep`: a member of Task.
        let onTask = components.count == 2 && components[0].name == "Task"
        switch last.name {
        case "asyncAfter":
            return lowerAsyncAfter(components)
        case "async" where arguments?.contains { $0.label == "group" } ?? false:
            fail("async(group:) is not modelled: call group.enter() before and group.leave() at the end of the block", at: last.place)
            return Lowered(kind: nil)
        case "Task" where components.count == 1, "detached" where onTask:
            // `Task { }` keeps the isolation it starts in; `Task.detached { }` has none.
            guard let block = closureArgument(arguments, labels: [nil, "operation"]).block else {
                fail("Task needs a closure: Task { ... }", at: last.place); return Lowered(kind: nil)
            }
            let main = last.name == "Task" && onMainActor
            return Lowered(kind: .dispatch(main ? .main : .global, block: block, sync: false))
        case "sleep" where onTask:
            return lowerSleep(last)
        case "resume" where components.count == 3 && ["downloadTask", "uploadTask"].contains(components[1].name):
            return lowerTransfer(components, resumed: true)
        case "downloadTask" where components.count == 2, "uploadTask" where components.count == 2:
            return lowerTransfer(components, resumed: false)
        case "updateTitle" where components.count == 2:
            return Lowered(kind: .concurrency(.noEffect))
        default:
            break
        }
        if components.count == 1, arguments != nil, let (expression, type) = receiver(last), type == .completion {
            return Lowered(kind: .concurrency(.callHandler(expression, optional: last.chained)))
        }
        guard components.count == 2, let (expression, type) = receiver(components[0]) else { return nil }
        switch (type, last.name) {
        case (.semaphore, "signal"): return Lowered(kind: .concurrency(.signal(expression)))
        case (.semaphore, "wait"), (.group, "wait"):
            var timeout: Double?
            if let argument = arguments?.first(where: { $0.label == "timeout" || $0.label == "wallTimeout" }) {
                var infinite = false
                timeout = deadline(argument.value, infinite: &infinite)
                if timeout == nil && !infinite { return Lowered(kind: nil) }
            }
            return Lowered(kind: .concurrency(type == .semaphore ? .wait(expression, timeout: timeout) : .waitGroup(expression, timeout: timeout)))
        case (.group, "enter"): return Lowered(kind: .concurrency(.enter(expression)))
        case (.group, "leave"): return Lowered(kind: .concurrency(.leave(expression)))
        case (.group, "notify"):
            guard let queueArgument = arguments?.first(where: { $0.label == "queue" }),
                  let queue = queue(implicitQueue(normalized(queueArgument.value))[...]) else {
                fail("notify needs its queue: group.notify(queue: .main) { ... }", at: last.place); return Lowered(kind: nil)
            }
            guard let block = closureArgument(arguments, labels: [nil, "execute"]).block else {
                fail("notify needs a closure: group.notify(queue: .main) { ... }", at: last.place); return Lowered(kind: nil)
            }
            return Lowered(kind: .concurrency(.notify(expression, queue: queue, block: block)))
        case (.semaphore, _), (.group, _), (.session, _):
            fail("\(describe(components)) is not modelled: see the list of understood APIs in Content/README.md", at: last.place, id: "scenario-name")
            return Lowered(kind: nil)
        default:
            return nil
        }
    }

    /// `queue.asyncAfter(deadline: .now() + 5) { body }` becomes a timer block (wait the delay,
    /// then `queue.async { body }`) run on a thread of its own: the delay passes only while the
    /// app runs, as every thread's does.
    mutating func lowerAsyncAfter(_ components: [Syntax.Component]) -> Lowered {
        let last = components[components.count - 1]
        guard let queue = queue(components.dropLast()) else {
            fail("unknown queue \(describe(Array(components.dropLast()))): use DispatchQueue.main, DispatchQueue.global() or a queue declared with let queue = DispatchQueue(label: \"...\")", at: last.place, id: "scenario-name")
            return Lowered(kind: nil)
        }
        guard let argument = last.arguments?.first(where: { $0.label == "deadline" || $0.label == "wallDeadline" }) else {
            fail("asyncAfter needs its deadline: asyncAfter(deadline: .now() + 5) { ... }", at: last.place); return Lowered(kind: nil)
        }
        var infinite = false
        guard let delay = deadline(argument.value, infinite: &infinite) else {
            if infinite { fail("asyncAfter(deadline: .distantFuture) never runs: give a delay", at: argument.value.place) }
            return Lowered(kind: nil)
        }
        guard let body = closureArgument(last.arguments, labels: [nil, "execute"]).block else {
            fail("asyncAfter needs a closure: asyncAfter(deadline: .now() + 5) { ... }", at: last.place); return Lowered(kind: nil)
        }
        let first = Int32(scenario.statements.count)
        scenario.statements.append(.init(kind: .work(max(0, delay)), place: last.place))
        scenario.statements.append(.init(kind: .dispatch(queue, block: body, sync: false), place: last.place))
        let timer = Int32(scenario.blocks.count)
        scenario.blocks.append(Scenario.Block(statements: [first, first + 1], localsAtEntry: localCount, captured: localCount, parameters: 0))
        return Lowered(kind: .concurrency(.startTimer(block: timer)))
    }

    /// `Task.sleep(for: .seconds(5))`, `Task.sleep(nanoseconds: 5_000_000_000)`.
    mutating func lowerSleep(_ call: Syntax.Component) -> Lowered {
        var seconds: Double?
        if let argument = call.arguments?.first(where: { $0.label == "for" }) {
            seconds = interval(argument.value)
            if seconds == nil { return Lowered(kind: nil) }
        } else if let argument = call.arguments?.first(where: { $0.label == "nanoseconds" }), case let .number(value, nil, _) = argument.value {
            seconds = value / 1e9
        }
        guard let seconds else {
            fail("write Task.sleep(for: .seconds(5)) or Task.sleep(nanoseconds: 5_000_000_000)", at: call.place); return Lowered(kind: nil)
        }
        let first = Int32(scenario.statements.count)
        scenario.statements.append(.init(kind: .work(max(0, seconds)), place: call.place))
        scenario.statements.append(.init(kind: .concurrency(.resumeTask), place: call.place))
        let resume = Int32(scenario.blocks.count)
        scenario.blocks.append(Scenario.Block(statements: [first, first + 1], localsAtEntry: 1, captured: 0, parameters: 1))
        return Lowered(kind: .concurrency(.sleep(max(0, seconds), resume: resume)))
    }

    /// `session.downloadTask(with: url).resume()`, `session.uploadTask(with: request, fromFile: file).resume()`.
    mutating func lowerTransfer(_ components: [Syntax.Component], resumed: Bool) -> Lowered? {
        guard let (expression, type) = receiver(components[0]) else { return nil }
        guard type == .session || type == .unknown else {
            fail("\(components[0].name) is not a URLSession", at: components[0].place, id: "scenario-type"); return Lowered(kind: nil)
        }
        let make = components[1]
        let optional = components[0].chained
        // A task made and never resumed does nothing, as in Foundation.
        if !resumed { return Lowered(kind: .concurrency(.noEffect)) }
        if make.name == "uploadTask", make.arguments?.contains(where: { $0.label == "from" }) ?? false {
            return Lowered(kind: .concurrency(.uploadFromData(expression, optional: optional)))
        }
        return Lowered(kind: .concurrency(.startTransfer(expression, optional: optional)))
    }

    /// `.main` and `.global()` as arguments name DispatchQueue's members.
    func implicitQueue(_ components: [Syntax.Component]) -> [Syntax.Component] {
        guard let first = components.first, first.name.isEmpty else { return components }
        var named = components
        named[0].name = "DispatchQueue"
        return named
    }

    // MARK: Assignments

    /// `request.strategy = .fail`, `task.progress.completedUnitCount = n`.
    mutating func lowerConcurrencyAssignment(_ components: [Syntax.Component], ref: VariableRef, value: Syntax) -> Lowered? {
        if components.count == 2, components[1].name == "strategy" {
            switch normalized(value).last?.name {
            case "fail": return Lowered(kind: .concurrency(.setStrategy(ref, fail: true)))
            case "queue": return Lowered(kind: .concurrency(.setStrategy(ref, fail: false)))
            default:
                fail("strategy is .queue or .fail", at: value.place); return Lowered(kind: nil)
            }
        }
        if components.count == 2, components[1].name == "requiredResources" {
            fail("requiredResources (the GPU) is not modelled", at: components[1].place); return Lowered(kind: nil)
        }
        if components.count == 3, components[1].name == "progress" {
            switch components[2].name {
            case "completedUnitCount", "totalUnitCount":
                return Lowered(kind: .concurrency(.reportProgress(.read(ref), completed: components[2].name == "completedUnitCount")))
            default:
                fail("set progress.totalUnitCount or progress.completedUnitCount", at: components[2].place); return Lowered(kind: nil)
            }
        }
        return nil
    }
}
