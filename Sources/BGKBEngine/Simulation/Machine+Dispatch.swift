import BGKBModel

/// The run's objects beyond UIKit's tasks: Dispatch semaphores and groups, Swift tasks suspended
/// in `Task.sleep`, background URLSessions and continued processing requests. A copied run
/// (`copyState(from:)`) copies it field by field into its own storage (`copy(from:)`).
struct MachineObjects: Hashable {
    var semaphores: [Int] = []
    var groups: [Group] = []
    /// Tasks suspended on the main actor, waiting to be queued back on main.
    var continuations: [Continuation] = []

    // Background URLSession (Machine+URLSession.swift).
    /// The identifier of each session object made in this process (`Value.session` indexes it).
    var sessions: [Int32] = []
    /// Identifiers with a session object in this process.
    var connected: [Int32] = []
    /// Transfers the system's daemon carries on, by identifier; they outlive the process.
    var transfers: [Transfer] = []
    /// Each time the system woke the app for a session's events.
    var deliveries: [Delivery] = []
    /// Deliveries whose completion handler the app still owes: they hold the app up.
    var urlSessionHolds = 0
    /// The user force quit the app and has not launched it since: no background launches.
    var forceQuit = false

    // Continued processing (Machine+ContinuedProcessing.swift).
    var continuedRequests: [ContinuedRequest] = []
    var continuedTasks: [ContinuedTask] = []

    struct Group: Hashable {
        var count = 0
        var notifications: [Notification] = []
    }

    struct Notification: Hashable {
        var queue: QueueRef
        var block: Int32
        var captured: Machine.Captures
    }

    struct Continuation: Hashable {
        var frames: [Machine.Frame]
        var env: [Int32]
        var accumulator: Value
    }

    struct Transfer: Hashable {
        var identifier: Int32
        var count: Int
        /// Of those, uploads from a `Data` value: they fail if the app is not running when they end.
        var fromData = 0
    }

    struct Delivery: Hashable {
        var identifier: Int32
        var handleEventsCalled = false
        /// `handleEventsForBackgroundURLSession` has returned (or the app has none): the
        /// session's events are delivered from then on.
        var handleEventsReturned = false
        var delegateCalled = false
        var handlerCalled = false
        var calledOffMain = false
        /// The delegate has been given the session's events (its `urlSessionDidFinishEvents` has
        /// begun), and a handler called before that was called too early.
        var eventsDelivered = false
        var calledEarly = false
        /// The app still owes the completion handler (until it calls it or its time runs out).
        var open = true
    }

    struct ContinuedRequest: Hashable {
        var request: Int32
        var fail = false
    }

    struct ContinuedTask: Hashable {
        var task: Int32
        /// When the task started or last reported progress.
        var lastProgress: Double
    }

    mutating func reset() {
        clear(&semaphores)
        clear(&groups)
        clear(&continuations)
        clear(&sessions)
        clear(&connected)
        clear(&transfers)
        clear(&deliveries)
        urlSessionHolds = 0
        forceQuit = false
        clear(&continuedRequests)
        clear(&continuedTasks)
    }

    /// Makes these objects equal to `other`'s inside their own storage: most runs have none, and
    /// an empty array copied into an empty one costs nothing (an assignment of the whole value
    /// would retain and release each array).
    mutating func copy(from other: inout MachineObjects) {
        BGKBEngine.copy(&semaphores, &other.semaphores)
        BGKBEngine.copy(&groups, &other.groups)
        BGKBEngine.copy(&continuations, &other.continuations)
        BGKBEngine.copy(&sessions, &other.sessions)
        BGKBEngine.copy(&connected, &other.connected)
        BGKBEngine.copy(&transfers, &other.transfers)
        BGKBEngine.copy(&deliveries, &other.deliveries)
        urlSessionHolds = other.urlSessionHolds
        forceQuit = other.forceQuit
        BGKBEngine.copy(&continuedRequests, &other.continuedRequests)
        BGKBEngine.copy(&continuedTasks, &other.continuedTasks)
    }

    /// The process ends: its objects go; the daemon's transfers stay.
    mutating func reclaim() {
        continuations.removeAll(keepingCapacity: true)
        sessions.removeAll(keepingCapacity: true)
        connected.removeAll(keepingCapacity: true)
        for index in deliveries.indices { deliveries[index].open = false }
        urlSessionHolds = 0
    }

    func isContinued(request: Int32) -> Bool { continuedRequests.contains { $0.request == request } }
    func isContinued(task: Int32) -> Bool { continuedTasks.contains { $0.task == task } }
}

/// Dispatch timers, semaphores and groups, `while`, and Swift tasks.
extension Machine {
    /// A new object, for `let sem = DispatchSemaphore(value: 0)` and the like.
    mutating func make(_ object: ObjectExpression, thread t: Int) -> Value {
        switch object {
        case let .semaphore(value):
            objects.semaphores.append(value)
            return .semaphore(Int32(objects.semaphores.count - 1))
        case .group:
            objects.groups.append(MachineObjects.Group())
            return .group(Int32(objects.groups.count - 1))
        case let .backgroundSession(identifier):
            return makeSession(identifier, thread: t)
        case let .continuedRequest(identifier):
            requests.append(Request(identifier: identifier, processing: false))
            let index = Int32(requests.count - 1)
            objects.continuedRequests.append(MachineObjects.ContinuedRequest(request: index))
            return .request(index)
        }
    }

    /// The app delegate's stored objects are made as the process launches.
    mutating func makeObjectGlobals() {
        for global in scenario.objectGlobals {
            cells[Int(global.global)] = make(global.object, thread: 0)
        }
    }

    mutating func execute(_ statement: ConcurrencyStatement, thread t: Int, frameIndex: Int) {
        let lane = Int32(t)
        switch statement {
        case let .startTimer(block):
            let captured = capture(lane, block: block)
            spawnWorker(WorkItem(block: block, captured: captured, parameter: .none, context: .plain), name: .timer)
            advance(t, frameIndex)
        case let .signal(expression):
            guard let value = evaluate(expression, thread: t) else { return }
            if case let .semaphore(index) = value { objects.semaphores[Int(index)] += 1 }
            advance(t, frameIndex)
        case let .wait(expression, timeout):
            guard let value = evaluate(expression, thread: t) else { return }
            guard case let .semaphore(index) = value else { advance(t, frameIndex); return }
            if objects.semaphores[Int(index)] > 0 {
                objects.semaphores[Int(index)] -= 1
                threads[t].blocked = .none
                advance(t, frameIndex)
            } else {
                wait(.semaphore(index, until: timeout.map { now + $0 } ?? .infinity), thread: t, frameIndex: frameIndex)
            }
        case let .enter(expression):
            guard let value = evaluate(expression, thread: t) else { return }
            if case let .group(index) = value { objects.groups[Int(index)].count += 1 }
            advance(t, frameIndex)
        case let .leave(expression):
            guard let value = evaluate(expression, thread: t) else { return }
            if case let .group(index) = value { leave(index) }
            if outcome == nil { advance(t, frameIndex) }
        case let .notify(expression, queue, block):
            guard let value = evaluate(expression, thread: t) else { return }
            if case let .group(index) = value {
                let notification = MachineObjects.Notification(queue: queue, block: block, captured: capture(lane, block: block))
                if objects.groups[Int(index)].count == 0 {
                    enqueue(on: queue, WorkItem(block: block, captured: notification.captured, parameter: .none, context: .plain))
                } else {
                    objects.groups[Int(index)].notifications.append(notification)
                }
            }
            advance(t, frameIndex)
        case let .waitGroup(expression, timeout):
            guard let value = evaluate(expression, thread: t) else { return }
            guard case let .group(index) = value, objects.groups[Int(index)].count > 0 else {
                threads[t].blocked = .none
                advance(t, frameIndex); return
            }
            wait(.group(index, until: timeout.map { now + $0 } ?? .infinity), thread: t, frameIndex: frameIndex)
        case let .whileLoop(condition, block):
            guard let result = test(condition, thread: t) else { return }
            if result {
                threads[t].frames.append(Frame(block: block, origin: threads[t].frames[frameIndex].origin, context: .whileBody, boundary: false))
            } else {
                advance(t, frameIndex)
            }
        case let .sleep(seconds, resume):
            advance(t, frameIndex)
            sleep(seconds, resume: resume, thread: t)
        case .resumeTask:
            if let frame = threads[t].frames.last, Int(frame.origin) < threads[t].env.count,
               case let .int(continuation) = cells[Int(threads[t].env[Int(frame.origin)])] {
                threads[0].pending.append(WorkItem(block: -1 - Int32(continuation), captured: .none, parameter: .none, context: .plain))
            }
            advance(t, frameIndex)
        case let .startTransfer(expression, optional):
            guard let value = evaluate(expression, thread: t) else { return }
            startTransfer(value, optional: optional, fromData: false, thread: t)
            if outcome == nil { advance(t, frameIndex) }
        case let .uploadFromData(expression, optional):
            guard let value = evaluate(expression, thread: t) else { return }
            startTransfer(value, optional: optional, fromData: true, thread: t)
            if outcome == nil { advance(t, frameIndex) }
        case let .callHandler(expression, optional):
            guard let value = evaluate(expression, thread: t) else { return }
            callHandler(value, optional: optional, thread: t)
            if outcome == nil { advance(t, frameIndex) }
        case let .setStrategy(ref, fail):
            if case let .request(request) = cells[cellIndex(ref, thread: t)],
               let index = objects.continuedRequests.firstIndex(where: { $0.request == request }) {
                objects.continuedRequests[index].fail = fail
            }
            advance(t, frameIndex)
        case let .reportProgress(expression, completed):
            guard let value = evaluate(expression, thread: t) else { return }
            if completed, case let .task(task) = value, let index = objects.continuedTasks.firstIndex(where: { $0.task == task }) {
                objects.continuedTasks[index].lastProgress = now
            }
            advance(t, frameIndex)
        case .noEffect:
            advance(t, frameIndex)
        }
    }

    /// Blocks the thread on a semaphore or a group; the statement runs again when the thread can
    /// go on (a signal, the group emptied, or the timeout), and its second run moves past it.
    private mutating func wait(_ blocked: Blocked, thread t: Int, frameIndex: Int) {
        if threads[t].frames[frameIndex].phase == 1, !isRunnableWaitPending(blocked) {
            // Runnable again with nothing to take: the timeout came.
            threads[t].blocked = .none
            record(Int32(t), .objects(.waitTimedOut))
            advance(t, frameIndex)
            return
        }
        threads[t].blocked = blocked
        threads[t].frames[frameIndex].phase = 1
    }

    /// Whether the thing a wait waits for is there (a semaphore's count, an empty group).
    private func isRunnableWaitPending(_ blocked: Blocked) -> Bool {
        switch blocked {
        case let .semaphore(index, _): return objects.semaphores[Int(index)] > 0
        case let .group(index, _): return objects.groups[Int(index)].count == 0
        default: return false
        }
    }

    /// The earliest timeout of a thread waiting on a semaphore or a group (for the clock).
    func nextWaitTimeout() -> Double {
        var next = Double.infinity
        for index in threads.indices where hasWork(index) {
            switch threads[index].blocked {
            case let .semaphore(_, until), let .group(_, until):
                if until > now { next = min(next, until) }
            default: break
            }
        }
        return next
    }

    /// A timed wait's timeout, like a timer, counts only time the app runs.
    mutating func thawWaitTimeouts(by frozen: Double) {
        for index in threads.indices {
            switch threads[index].blocked {
            case let .semaphore(semaphore, until) where until > suspendedAt:
                threads[index].blocked = .semaphore(semaphore, until: until + frozen)
            case let .group(group, until) where until > suspendedAt:
                threads[index].blocked = .group(group, until: until + frozen)
            default: break
            }
        }
    }

    private mutating func leave(_ index: Int32) {
        guard objects.groups[Int(index)].count > 0 else {
            crash(.unbalancedGroupLeave)
            return
        }
        objects.groups[Int(index)].count -= 1
        guard objects.groups[Int(index)].count == 0 else { return }
        let notifications = objects.groups[Int(index)].notifications
        objects.groups[Int(index)].notifications.removeAll()
        for notification in notifications {
            enqueue(on: notification.queue, WorkItem(block: notification.block, captured: notification.captured, parameter: .none, context: .plain))
        }
    }

    /// `Task.sleep`: on main (the main actor), the task lets go of the thread: its frames are set
    /// aside and a timer queues them back on main when the time is up, so main runs other work
    /// meanwhile. On a task's own thread, the thread just sleeps.
    private mutating func sleep(_ seconds: Double, resume: Int32, thread t: Int) {
        guard t == 0 else {
            threads[t].wake = now + seconds
            return
        }
        let continuation = Int32(objects.continuations.count)
        objects.continuations.append(MachineObjects.Continuation(frames: threads[t].frames, env: threads[t].env,
                                                                 accumulator: threads[t].accumulator))
        threads[t].frames.removeAll(keepingCapacity: true)
        threads[t].env.removeAll(keepingCapacity: true)
        record(Int32(t), .objects(.taskSuspended(continuation)))
        spawnWorker(WorkItem(block: resume, captured: .none, parameter: .int(Int(continuation)), context: .plain), name: .timer)
    }

    /// A suspended task's turn on main has come: its frames go back on the thread.
    mutating func resumeContinuation(_ index: Int, thread t: Int) {
        guard index < objects.continuations.count else { return }
        let continuation = objects.continuations[index]
        threads[t].frames = continuation.frames
        threads[t].env = continuation.env
        threads[t].accumulator = continuation.accumulator
        record(Int32(t), .objects(.taskResumed(Int32(index))))
    }
}

/// What a run logs about these objects (see `RawEvent`).
enum ObjectNote: Sendable, Hashable {
    case waitTimedOut
    case taskSuspended(Int32)
    case taskResumed(Int32)
    case sessionConnected(identifier: Int32)
    case sessionExists(identifier: Int32)
    case transferStarted(identifier: Int32)
    case noTransfer(identifier: Int32)
    case dataUploadFailed(identifier: Int32)
    case transfersFinished(identifier: Int32)
    case eventsToRunningApp(identifier: Int32)
    case handleEventsCalled(delivery: Int32)
    case delegateEvents(identifier: Int32)
    case handlerCalled(delivery: Int32)
    case handlerCalledOffMain(delivery: Int32)
    case handlerCalledEarly(delivery: Int32)
    case handlerNeverCalled(delivery: Int32)
    case continuedQueued(request: Int32)
    case continuedFromBackground(request: Int32)
    case continuedStalled(task: Int32)
    case forceQuit
    case transfersCancelled(identifier: Int32)
    case notAfterForceQuit

    var isWarning: Bool {
        switch self {
        case .sessionExists, .handlerCalledOffMain, .handlerNeverCalled, .continuedFromBackground, .dataUploadFailed: return true
        default: return false
        }
    }
}
