import BGKBModel

/// Background URLSession (SIMULATION.md S18): transfers run in a system daemon, also while the
/// app is suspended or gone; when a session's transfers finish, the system resumes or relaunches
/// the app in the background, calls `application(_:handleEventsForBackgroundURLSession:
/// completionHandler:)` on main, delivers the session's events to its delegate (on the session's
/// own serial queue) once the app has a session with that identifier, ending with
/// `urlSessionDidFinishEvents(forBackgroundURLSession:)`; the app then calls the completion
/// handler on main, and the system may suspend it again. Called before the events are
/// delivered, the handler tells the system the app is done when it has not seen them: the
/// system may then take its snapshot and suspend the app before the delegate runs.
extension Machine {
    /// `URLSession(configuration: .background(withIdentifier:), ...)`: connects the identifier to
    /// this process; a second session with the same identifier is an error iOS logs.
    mutating func makeSession(_ identifier: Int32, thread t: Int) -> Value {
        objects.sessions.append(identifier)
        let value = Value.session(Int32(objects.sessions.count - 1))
        if objects.connected.contains(identifier) {
            record(Int32(t), .objects(.sessionExists(identifier: identifier)))
            return value
        }
        objects.connected.append(identifier)
        record(Int32(t), .objects(.sessionConnected(identifier: identifier)))
        deliverSessionEvents(identifier)
        return value
    }

    /// `session.downloadTask(with:).resume()`: the daemon takes the transfer over.
    mutating func startTransfer(_ value: Value, optional: Bool, fromData: Bool, thread t: Int) {
        guard case let .session(index) = value else {
            if !optional, case .none = value { crash(.forceUnwrapNil(variable: -1)) }
            return
        }
        let identifier = objects.sessions[Int(index)]
        if objects.transfers.firstIndex(where: { $0.identifier == identifier }) == nil {
            objects.transfers.append(MachineObjects.Transfer(identifier: identifier, count: 0))
        }
        if let slot = objects.transfers.firstIndex(where: { $0.identifier == identifier }) {
            objects.transfers[slot].count += 1
            if fromData { objects.transfers[slot].fromData += 1 }
        }
        record(Int32(t), .objects(.transferStarted(identifier: identifier)))
    }

    /// The timeline's `background URLSession "id" finishes`.
    mutating func urlSessionFinishes(_ name: String) {
        // The parser interns every name a timeline's `finishes` uses.
        let found = scenario.strings.firstIndex(of: name) ?? -1
        guard let slot = objects.transfers.firstIndex(where: { $0.identifier == Int32(found) && $0.count > 0 }) else {
            record(-1, .objects(.noTransfer(identifier: Int32(found))))
            return
        }
        let identifier = Int32(found)
        let fromData = objects.transfers[slot].fromData
        objects.transfers[slot].count = 0
        objects.transfers[slot].fromData = 0
        record(-1, .objects(.transfersFinished(identifier: identifier)))
        if fromData > 0 && (state == .suspended || state == .notRunning) {
            // Apple's article: uploads from data or a stream fail once the app is no longer running.
            record(-1, .objects(.dataUploadFailed(identifier: identifier)))
        }
        switch state {
        case .terminated:
            return
        case .foreground, .launching, .background:
            // A running app's session gets its events directly; UIKit is not involved.
            record(-1, .objects(.eventsToRunningApp(identifier: identifier)))
            return
        case .suspended, .notRunning:
            break
        }
        objects.deliveries.append(MachineObjects.Delivery(identifier: identifier))
        let delivery = Int32(objects.deliveries.count - 1)
        objects.urlSessionHolds += 1
        let wasLaunched = state == .suspended
        _ = wakeForBackgroundWork(.timeline(-1))
        post(at: now + constants.urlSessionEventsLimit, .urlSessionDeadline(delivery))
        // A relaunched app hears of the events once it has finished launching.
        if wasLaunched { callHandleEvents(delivery) }
    }

    /// After a relaunch for a session's events: UIKit calls the app delegate now.
    mutating func deliverURLSessionEventsAfterLaunch() {
        for index in objects.deliveries.indices where objects.deliveries[index].open && !objects.deliveries[index].handleEventsCalled {
            callHandleEvents(Int32(index))
        }
    }

    private mutating func callHandleEvents(_ delivery: Int32) {
        objects.deliveries[Int(delivery)].handleEventsCalled = true
        if let block = scenario.handlers[.handleEventsForBackgroundURLSession] {
            record(-1, .objects(.handleEventsCalled(delivery: delivery)))
            threads[0].pending.append(WorkItem(block: block, captured: .none, parameter: .completion(delivery), context: .handleEvents(delivery)))
            return
        }
        // No handler: the app is owed nothing and owes nothing.
        objects.deliveries[Int(delivery)].handlerCalled = true
        objects.deliveries[Int(delivery)].handleEventsReturned = true
        release(delivery)
        deliverSessionEvents(objects.deliveries[Int(delivery)].identifier)
    }

    /// The session's delegate gets the events once UIKit has told the app (its
    /// `handleEventsForBackgroundURLSession` has returned: the events come "later", in Apple's
    /// words for urlSessionDidFinishEvents) and the app has a session with that identifier: on
    /// the session's delegate queue, not on main.
    mutating func deliverSessionEvents(_ identifier: Int32) {
        guard objects.connected.contains(identifier) else { return }
        for index in objects.deliveries.indices {
            let delivery = objects.deliveries[index]
            guard delivery.identifier == identifier, delivery.handleEventsReturned, !delivery.delegateCalled else { continue }
            objects.deliveries[index].delegateCalled = true
            record(-1, .objects(.delegateEvents(identifier: identifier)))
            if let block = scenario.handlers[.urlSessionDidFinishEvents] {
                spawnWorker(WorkItem(block: block, captured: .none, parameter: .none, context: .sessionEvents(Int32(index))), name: .urlSessionDelegate)
            } else {
                objects.deliveries[index].eventsDelivered = true
            }
        }
    }

    /// `completionHandler()`, `savedHandler?()`: a push's or a session's completion handler.
    mutating func callHandler(_ value: Value, optional: Bool, thread t: Int) {
        let lane = Int32(t)
        switch value {
        case let .completion(delivery):
            guard !objects.deliveries[Int(delivery)].handlerCalled else { return }
            objects.deliveries[Int(delivery)].handlerCalled = true
            if !objects.deliveries[Int(delivery)].eventsDelivered {
                objects.deliveries[Int(delivery)].calledEarly = true
                record(lane, .objects(.handlerCalledEarly(delivery: delivery)))
            }
            if t != 0 {
                objects.deliveries[Int(delivery)].calledOffMain = true
                record(lane, .objects(.handlerCalledOffMain(delivery: delivery)))
            }
            record(lane, .objects(.handlerCalled(delivery: delivery)))
            release(delivery)
        case let .push(index):
            guard !pushes[Int(index)] else { return }
            pushes[Int(index)] = true
            pendingPushes -= 1
            record(lane, .pushCompleted(push: index))
            checkSuspend()
        case .none:
            if !optional { crash(.forceUnwrapNil(variable: -1)) }
        default:
            break
        }
    }

    private mutating func release(_ delivery: Int32) {
        guard objects.deliveries[Int(delivery)].open else { return }
        objects.deliveries[Int(delivery)].open = false
        objects.urlSessionHolds -= 1
        checkSuspend()
    }

    /// The app's time to call the completion handler is over: UIKit logs it and the app may be
    /// suspended.
    mutating func urlSessionDeadline(_ delivery: Int32) {
        guard objects.deliveries[Int(delivery)].open else { return }
        if !objects.deliveries[Int(delivery)].handlerCalled {
            record(-1, .objects(.handlerNeverCalled(delivery: delivery)))
        }
        release(delivery)
    }

    /// `expect completion handler called`: nil when it holds.
    func completionHandlerFailure() -> String? {
        guard !objects.deliveries.isEmpty else {
            return "expected the app to call the completion handler of handleEventsForBackgroundURLSession, but the system never called it (\(modelOutcome.description))"
        }
        for delivery in objects.deliveries {
            let name = string(delivery.identifier)
            if !delivery.handlerCalled {
                return "the completion handler for URLSession \"\(name)\" was never called (\(modelOutcome.description))"
            }
            if delivery.calledOffMain {
                return "the completion handler for URLSession \"\(name)\" was called off the main thread"
            }
            if delivery.calledEarly {
                return "the completion handler for URLSession \"\(name)\" was called before the session delivered its events to urlSessionDidFinishEvents (\(modelOutcome.description))"
            }
        }
        return nil
    }
}

extension Machine {
    /// Words for an `ObjectNote`: the trace event's kind, subject and detail.
    func describe(_ note: ObjectNote) -> (TraceEvent.Kind, String?, String) {
        func session(_ identifier: Int32) -> String { "URLSession \"\(string(identifier))\"" }
        func delivery(_ index: Int32) -> String {
            index >= 0 && Int(index) < objects.deliveries.count ? session(objects.deliveries[Int(index)].identifier) : "URLSession"
        }
        func request(_ index: Int32) -> String { string(requests[Int(index)].identifier) }
        switch note {
        case .waitTimedOut: return (.system, nil, "the wait times out (.timedOut)")
        case let .taskSuspended(index): return (.system, "Swift task \(index + 1)", "the task suspends at its await and lets go of the main thread")
        case let .taskResumed(index): return (.system, "Swift task \(index + 1)", "the task resumes on the main thread")
        case let .sessionConnected(identifier): return (.system, session(identifier), "the app makes background session \"\(string(identifier))\": the identifier is connected to this process")
        case let .sessionExists(identifier):
            return (.log, session(identifier), "A background URLSession with identifier \(string(identifier)) already exists!")
        case let .transferStarted(identifier): return (.system, session(identifier), "the transfer is handed to the system, which carries it on outside the app")
        case let .noTransfer(identifier):
            let name = identifier >= 0 ? string(identifier) : "?"
            return (.system, "URLSession \"\(name)\"", "no transfer of session \"\(name)\" is in flight: nothing finishes")
        case let .dataUploadFailed(identifier):
            return (.log, session(identifier), "the upload from a Data value fails: the app is no longer running, and a background session carries on only uploads from a file")
        case let .transfersFinished(identifier): return (.system, session(identifier), "the session's transfers finish")
        case let .eventsToRunningApp(identifier): return (.system, session(identifier), "the app is running: the session's delegate gets the events directly")
        case let .handleEventsCalled(index): return (.system, delivery(index), "UIKit calls handleEventsForBackgroundURLSession on main with a completion handler")
        case let .delegateEvents(identifier): return (.system, session(identifier), "the session delivers its events to its delegate, then urlSessionDidFinishEvents")
        case let .handlerCalled(index): return (.taskEnded, delivery(index), "the completion handler is called: the system takes a snapshot and may suspend the app")
        case let .handlerCalledOffMain(index):
            return (.log, delivery(index), "the background session's completion handler is called off the main thread (UIKit expects main)")
        case let .handlerCalledEarly(index):
            return (.system, delivery(index), "too early: urlSessionDidFinishEvents has not begun, so the app has not processed the session's events")
        case let .handlerNeverCalled(index):
            return (.log, delivery(index), "Application delegate received call to -application:handleEventsForBackgroundURLSession:completionHandler: but the completion handler was never called")
        case let .continuedQueued(index): return (.system, request(index), "the system cannot run \"\(request(index))\" now: the request is queued (strategy .queue)")
        case let .continuedFromBackground(index):
            return (.log, request(index), "submit(\"\(request(index))\") fails: a continued processing request is accepted only from the foreground")
        case .forceQuit: return (.system, nil, "the user removes the app in the app switcher: the process ends")
        case let .transfersCancelled(identifier):
            return (.system, session(identifier), "the system cancels the session's transfers (NSURLErrorCancelledReasonUserForceQuitApplication)")
        case .notAfterForceQuit: return (.system, nil, "not delivered: the user force quit the app")
        case let .continuedStalled(task):
            return (.system, string(bgTasks[Int(task)].identifier), "\"\(string(bgTasks[Int(task)].identifier))\" reported no progress for \(formatSeconds(constants.continuedProgressLimit)): the system ends it")
        }
    }
}

extension Machine {
    /// `user force quits app`: the process ends as a reclaim does; the system also cancels the
    /// background sessions' transfers, drops queued continued processing requests and launches
    /// the app for nothing in the background until the user opens it again (S18, S19).
    mutating func forceQuit() {
        guard state != .terminated, state != .notRunning else { return }
        record(-1, .objects(.forceQuit))
        reclaim()
        for index in objects.transfers.indices where objects.transfers[index].count > 0 {
            objects.transfers[index].count = 0
            objects.transfers[index].fromData = 0
            record(-1, .objects(.transfersCancelled(identifier: objects.transfers[index].identifier)))
        }
        pendingRequests.removeAll { objects.isContinued(request: $0) }
        objects.forceQuit = true
    }
}
