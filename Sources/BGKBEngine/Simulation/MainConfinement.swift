/// Which globals only code on the main thread ever touches, found from the scenario alone: the
/// explorer's partial-order reduction (`Machine.systemHiding`) needs to know that a step of the
/// main thread cannot race with code the system starts elsewhere.
///
/// Each block is given the threads it can run on, from where the machine starts blocks: the app
/// delegate's handlers, a timeline's calls, expiration handlers of `beginBackgroundTask` and
/// blocks dispatched to the main queue run on main; a block entered in place (a function, a
/// branch, a loop, a lock, a sync dispatch onto a global queue) runs where its caller does;
/// everything else (a global or named queue, a BGTask's queue, a timer, an expiring activity, a
/// URLSession delegate) is counted as another thread, as is a block nothing here starts. A global
/// is main-confined when no statement of a block that may run off main mentions it.
struct MainConfinement {
    /// Per global: true when only main-thread code mentions it.
    private(set) var confined: [Bool]

    func isConfined(_ global: Int32) -> Bool {
        Int(global) < confined.count && confined[Int(global)]
    }

    init(_ scenario: Scenario) {
        // The nested functions and closures below capture these arrays, not the whole scenario
        // (which they would copy field by field).
        let blocks = scenario.blocks, statements = scenario.statements, functions = scenario.functions
        var onMain = [Bool](repeating: false, count: blocks.count)
        var offMain = [Bool](repeating: false, count: blocks.count)
        var work: [Int32] = []
        func mark(_ block: Int32, main: Bool) {
            guard block >= 0, Int(block) < blocks.count else { return }
            if main {
                guard !onMain[Int(block)] else { return }
                onMain[Int(block)] = true
            } else {
                guard !offMain[Int(block)] else { return }
                offMain[Int(block)] = true
            }
            work.append(block)
        }
        for event in [Scenario.AppEvent.didFinishLaunching, .didEnterBackground, .willEnterForeground, .didReceiveRemoteNotification,
                      .handleEventsForBackgroundURLSession] {
            if let block = scenario.handlers[event] { mark(block, main: true) }
        }
        if let block = scenario.handlers[.urlSessionDidFinishEvents] { mark(block, main: false) }
        for item in scenario.timeline where item.function >= 0 && Int(item.function) < functions.count {
            mark(functions[Int(item.function)].block, main: true)
        }
        // Propagate: each statement of a block says where the blocks it names run.
        while let block = work.popLast() {
            let main = onMain[Int(block)], off = offMain[Int(block)]
            for statement in blocks[Int(block)].statements {
                Self.forEachBlock(named: statements[Int(statement)].kind, functions: functions) { target, placement in
                    switch placement {
                    case .inPlace:
                        if main { mark(target, main: true) }
                        if off { mark(target, main: false) }
                    case .main: mark(target, main: true)
                    case .elsewhere: mark(target, main: false)
                    case .inPlaceOrElsewhere:
                        if main { mark(target, main: true) }
                        mark(target, main: false)
                    }
                }
            }
        }
        var confined = [Bool](repeating: true, count: scenario.globals.count)
        for (index, block) in blocks.enumerated() where offMain[index] || !onMain[index] {
            for statement in block.statements {
                Self.forEachGlobal(in: statements[Int(statement)].kind) { global in
                    if Int(global) < confined.count { confined[Int(global)] = false }
                }
            }
        }
        self.confined = confined
    }

    /// Where a block named by a statement runs, relative to the statement's own thread.
    enum Placement {
        case inPlace, main, elsewhere, inPlaceOrElsewhere
    }

    /// Calls `body` with each block a statement names, and where it runs.
    static func forEachBlock(named kind: StatementKind, functions: [Scenario.Function], _ body: (Int32, Placement) -> Void) {
        // The system queues an expiration handler on the main thread.
        forEachExpression(in: kind) { if case let .begin(_, handler?) = $0 { body(handler, .main) } }
        switch kind {
        case .declare, .assign, .add, .evaluate, .end, .work, .print, .returnFromBlock, .submit, .setRequest, .setTaskCompleted,
             .completePush:
            break
        case let .dispatch(queue, block, sync):
            switch queue {
            case .main: body(block, .main)
            case .global: body(block, sync ? .inPlaceOrElsewhere : .elsewhere)
            case .named: body(block, .elsewhere)
            }
        case let .withLock(_, block), let .loop(_, block): body(block, .inPlace)
        case let .call(function):
            if function >= 0, Int(function) < functions.count { body(functions[Int(function)].block, .inPlace) }
        case let .branch(_, then, otherwise):
            body(then, .inPlace)
            if let otherwise { body(otherwise, .inPlace) }
        case let .register(_, _, block): body(block, .elsewhere)
        case let .setExpirationHandler(_, block): if let block { body(block, .elsewhere) }
        case let .performExpiringActivity(_, block): body(block, .elsewhere)
        case let .concurrency(statement):
            switch statement {
            case let .startTimer(block): body(block, .elsewhere)
            case let .notify(_, queue, block): body(block, queue == .main ? .main : .elsewhere)
            case let .whileLoop(_, block): body(block, .inPlace)
            case let .sleep(_, resume): body(resume, .elsewhere)
            case .signal, .wait, .enter, .leave, .waitGroup, .startTransfer, .uploadFromData, .callHandler, .reportProgress,
                 .resumeTask, .setStrategy, .noEffect:
                break
            }
        }
    }

    /// Calls `body` with every global a statement mentions (read, written or passed).
    static func forEachGlobal(in kind: StatementKind, _ body: (Int32) -> Void) {
        func ref(_ ref: VariableRef) { if case let .global(index) = ref { body(index) } }
        forEachExpression(in: kind) { expression in
            switch expression {
            case let .read(variable), let .unwrap(variable): ref(variable)
            case .literal, .backgroundTimeRemaining, .begin, .refreshRequest, .processingRequest, .dateFromNow, .object: break
            }
        }
        // The variables it writes.
        switch kind {
        case let .assign(variable, _), let .add(variable, _), let .setRequest(variable, _, _): ref(variable)
        case let .concurrency(.setStrategy(variable, _)): ref(variable)
        case .declare, .evaluate, .end, .work, .print, .dispatch, .withLock, .call, .branch, .loop, .returnFromBlock, .register,
             .submit, .setTaskCompleted, .setExpirationHandler, .completePush, .performExpiringActivity, .concurrency:
            break
        }
    }

    /// Calls `body` with every expression a statement holds, those of its conditions included.
    static func forEachExpression(in kind: StatementKind, _ body: (Expression) -> Void) {
        func condition(_ test: Condition) {
            switch test {
            case let .compare(left, _, right): body(left); body(right)
            case let .truthy(inner): body(inner)
            case let .not(inner): condition(inner)
            case let .and(left, right), let .or(left, right): condition(left); condition(right)
            }
        }
        switch kind {
        case let .declare(_, initial): if let initial { body(initial) }
        case let .assign(_, value), let .evaluate(value), let .end(value), let .submit(value), let .setRequest(_, _, value),
             let .setTaskCompleted(value, _), let .completePush(value), let .setExpirationHandler(value, _):
            body(value)
        case let .branch(test, _, _): condition(test)
        case .add, .work, .print, .dispatch, .withLock, .call, .loop, .returnFromBlock, .register, .performExpiringActivity: break
        case let .concurrency(statement):
            switch statement {
            case let .signal(value), let .wait(value, _), let .enter(value), let .leave(value), let .waitGroup(value, _),
                 let .startTransfer(value, _), let .uploadFromData(value, _), let .callHandler(value, _), let .reportProgress(value, _),
                 let .notify(value, _, _):
                body(value)
            case let .whileLoop(test, _): condition(test)
            case .setStrategy, .startTimer, .sleep, .resumeTask, .noEffect: break
            }
        }
    }
}
