import BGKBModel

// How each part of a machine's state feeds the fingerprint's stable hash (`Machine.fingerprint`):
// every stored field of a struct, in declaration order (`StateHashingTests` holds each struct to
// its fields), and an enum's case number then its payload. The switches have no `default`, so a
// new case does not compile until it is hashed here.

extension AppState: StateHashable {
    func hash(into h: inout StableHash) {
        switch self {
        case .notRunning: h.combine(tag: 0)
        case .launching: h.combine(tag: 1)
        case .foreground: h.combine(tag: 2)
        case .background: h.combine(tag: 3)
        case .suspended: h.combine(tag: 4)
        case .terminated: h.combine(tag: 5)
        }
    }
}

extension Conditions.Refusal: StateHashable {
    func hash(into h: inout StableHash) {
        switch self {
        case .none: h.combine(tag: 0)
        case .returnsInvalid: h.combine(tag: 1)
        case .callsExpirationHandler: h.combine(tag: 2)
        }
    }
}

extension Value: StateHashable {
    func hash(into h: inout StableHash) {
        switch self {
        case .none: h.combine(tag: 0)
        case let .identifier(x): h.combine(tag: 1); h.combine(integer: x)
        case let .bool(x): h.combine(tag: 2); h.combine(x)
        case let .int(x): h.combine(tag: 3); h.combine(integer: x)
        case let .task(x): h.combine(tag: 4); h.combine(integer: x)
        case let .request(x): h.combine(tag: 5); h.combine(integer: x)
        case let .push(x): h.combine(tag: 6); h.combine(integer: x)
        case let .semaphore(x): h.combine(tag: 7); h.combine(integer: x)
        case let .group(x): h.combine(tag: 8); h.combine(integer: x)
        case let .session(x): h.combine(tag: 9); h.combine(integer: x)
        case let .completion(x): h.combine(tag: 10); h.combine(integer: x)
        }
    }
}

extension QueueRef: StateHashable {
    func hash(into h: inout StableHash) {
        switch self {
        case .main: h.combine(tag: 0)
        case .global: h.combine(tag: 1)
        case let .named(x): h.combine(tag: 2); h.combine(integer: x)
        }
    }
}

extension Machine.Context: StateHashable {
    func hash(into h: inout StableHash) {
        switch self {
        case .plain: h.combine(tag: 0)
        case .didFinishLaunching: h.combine(tag: 1)
        case .didEnterBackground: h.combine(tag: 2)
        case .willEnterForeground: h.combine(tag: 3)
        case let .expiryHandler(task): h.combine(tag: 4); h.combine(integer: task)
        case let .push(x): h.combine(tag: 5); h.combine(integer: x)
        case let .bgLaunch(x): h.combine(tag: 6); h.combine(integer: x)
        case let .bgExpiration(x): h.combine(tag: 7); h.combine(integer: x)
        case let .activity(x, expired): h.combine(tag: 8); h.combine(integer: x); h.combine(expired)
        case let .sync(waiter): h.combine(tag: 9); h.combine(integer: waiter)
        case let .lock(x): h.combine(tag: 10); h.combine(integer: x)
        case .call: h.combine(tag: 11)
        case .branch: h.combine(tag: 12)
        case .whileBody: h.combine(tag: 13)
        case let .sessionEvents(delivery): h.combine(tag: 14); h.combine(integer: delivery)
        case let .handleEvents(delivery): h.combine(tag: 15); h.combine(integer: delivery)
        }
    }
}

extension Machine.Captures: StateHashable {
    func hash(into h: inout StableHash) {
        h.combine(integer: start)
        h.combine(integer: count)
    }
}

extension Machine.WorkItem: StateHashable {
    func hash(into h: inout StableHash) {
        h.combine(integer: block)
        h.combine(captured)
        h.combine(parameter)
        h.combine(context)
    }
}

extension Machine.Frame: StateHashable {
    func hash(into h: inout StableHash) {
        h.combine(integer: block)
        h.combine(integer: pc)
        h.combine(integer: phase)
        h.combine(integer: origin)
        h.combine(integer: loopsLeft)
        h.combine(context)
        h.combine(boundary)
    }
}

extension Machine.Blocked: StateHashable {
    func hash(into h: inout StableHash) {
        switch self {
        case .none: h.combine(tag: 0)
        case .sync: h.combine(tag: 1)
        case let .lock(x): h.combine(tag: 2); h.combine(integer: x)
        case .forever: h.combine(tag: 3)
        case let .semaphore(x, until): h.combine(tag: 4); h.combine(integer: x); h.combine(until)
        case let .group(x, until): h.combine(tag: 5); h.combine(integer: x); h.combine(until)
        }
    }
}

extension Machine.Thread: StateHashable {
    func hash(into h: inout StableHash) {
        h.combine(integer: lane)
        h.combine(pending)
        h.combine(integer: pendingHead)
        h.combine(frames)
        h.combine(env)
        h.combine(wake)
        h.combine(blocked)
        h.combine(accumulator)
        h.combine(finished)
    }
}

extension Machine.Task: StateHashable {
    func hash(into h: inout StableHash) {
        h.combine(name)
        h.combine(handler)
        h.combine(captured)
        h.combine(ended)
        h.combine(expiring)
        h.combine(handlerRunning)
    }
}

extension Machine.SystemEvent: StateHashable {
    func hash(into h: inout StableHash) {
        h.combine(time)
        h.combine(kind)
    }
}

extension Machine.SystemEvent.Kind: StateHashable {
    func hash(into h: inout StableHash) {
        switch self {
        case let .timeline(x): h.combine(tag: 0); h.combine(integer: x)
        case let .budgetExpiry(generation): h.combine(tag: 1); h.combine(integer: generation)
        case .forcedExpiry: h.combine(tag: 2)
        case let .handlerDeadline(task): h.combine(tag: 3); h.combine(integer: task)
        case let .roundDeadline(round): h.combine(tag: 4); h.combine(integer: round)
        case let .roundCheck(round): h.combine(tag: 5); h.combine(integer: round)
        case .suspendCheck: h.combine(tag: 6)
        case let .didEnterBackgroundDeadline(generation): h.combine(tag: 7); h.combine(integer: generation)
        case let .bgTaskExpiry(x): h.combine(tag: 8); h.combine(integer: x)
        case let .bgTaskDeadline(x): h.combine(tag: 9); h.combine(integer: x)
        case let .pushDeadline(x): h.combine(tag: 10); h.combine(integer: x)
        case let .urlSessionDeadline(x): h.combine(tag: 11); h.combine(integer: x)
        case let .continuedStallCheck(x): h.combine(tag: 12); h.combine(integer: x)
        case let .activityDeadline(x): h.combine(tag: 13); h.combine(integer: x)
        }
    }
}

extension Machine.Request: StateHashable {
    func hash(into h: inout StableHash) {
        h.combine(integer: identifier)
        h.combine(processing)
        h.combine(earliest)
        h.combine(power)
        h.combine(network)
    }
}

extension Machine.BGTaskState: StateHashable {
    func hash(into h: inout StableHash) {
        h.combine(integer: identifier)
        h.combine(processing)
        h.combine(expirationHandler)
        h.combine(captured)
        h.combine(queue)
        h.combine(completed)
        h.combine(success)
        h.combine(expiring)
        h.combine(launched)
    }
}

extension Machine.Registration: StateHashable {
    func hash(into h: inout StableHash) {
        h.combine(integer: identifier)
        h.combine(queue)
        h.combine(integer: block)
        h.combine(captured)
    }
}

extension Machine.Activity: StateHashable {
    func hash(into h: inout StableHash) {
        h.combine(integer: block)
        h.combine(captured)
        h.combine(active)
        h.combine(expiredCalled)
    }
}

extension Machine.LaneName: StateHashable {
    func hash(into h: inout StableHash) {
        switch self {
        case .main: h.combine(tag: 0)
        case let .queue(x): h.combine(tag: 1); h.combine(integer: x)
        case let .worker(kind, x): h.combine(tag: 2); h.combine(kind); h.combine(integer: x)
        }
    }
}

extension Machine.WorkerKind: StateHashable {
    func hash(into h: inout StableHash) {
        switch self {
        case .global: h.combine(tag: 0)
        case .activity: h.combine(tag: 1)
        case .bgTaskScheduler: h.combine(tag: 2)
        case .timer: h.combine(tag: 3)
        case .urlSessionDelegate: h.combine(tag: 4)
        }
    }
}

extension Machine.PendingDecision: StateHashable {
    func hash(into h: inout StableHash) {
        h.combine(integer: total)
        h.combine(currentRunnable)
        h.combine(integer: firstOther)
        h.combine(systemDue)
    }
}

extension Machine.Outcome: StateHashable {
    func hash(into h: inout StableHash) {
        switch self {
        case let .suspended(time): h.combine(tag: 0); h.combine(time)
        case let .running(time): h.combine(tag: 1); h.combine(time)
        case let .terminated(reason, time): h.combine(tag: 2); h.combine(reason); h.combine(time)
        case let .crashed(reason, time): h.combine(tag: 3); h.combine(reason); h.combine(time)
        case let .undecided(limit, time): h.combine(tag: 4); h.combine(limit); h.combine(time)
        }
    }
}

extension EngineLimit: StateHashable {
    func hash(into h: inout StableHash) {
        switch self {
        case let .stepsWithoutTimePassing(steps): h.combine(tag: 0); h.combine(integer: steps)
        case let .stepsInOneRun(steps): h.combine(tag: 1); h.combine(integer: steps)
        }
    }
}

extension Reason: StateHashable {
    func hash(into h: inout StableHash) {
        switch self {
        case let .leakedTask(task): h.combine(tag: 0); h.combine(integer: task)
        case let .expiryHandlerTooSlow(task): h.combine(tag: 1); h.combine(integer: task)
        case .expiryHandlersBlocked: h.combine(tag: 2)
        case .didEnterBackgroundTooSlow: h.combine(tag: 3)
        case .tooManyAssertions: h.combine(tag: 4)
        case let .forceUnwrapNil(variable): h.combine(tag: 5); h.combine(integer: variable)
        case let .registerAfterLaunch(identifier): h.combine(tag: 6); h.combine(integer: identifier)
        case let .registerTwice(identifier): h.combine(tag: 7); h.combine(integer: identifier)
        case let .noLaunchHandler(identifier): h.combine(tag: 8); h.combine(integer: identifier)
        case let .bgTaskNotCompleted(task): h.combine(tag: 9); h.combine(integer: task)
        case .pushNotCompleted: h.combine(tag: 10)
        case .mainSyncOnMain: h.combine(tag: 11)
        case .unbalancedGroupLeave: h.combine(tag: 12)
        case let .expiredActivityHeld(activity): h.combine(tag: 13); h.combine(integer: activity)
        }
    }
}

extension RawEvent: StateHashable {
    func hash(into h: inout StableHash) {
        h.combine(time)
        h.combine(integer: lane)
        h.combine(note)
    }
}

extension Note: StateHashable {
    func hash(into h: inout StableHash) {
        switch self {
        case let .state(state): h.combine(tag: 0); h.combine(state)
        case let .step(statement, phase): h.combine(tag: 1); h.combine(integer: statement); h.combine(integer: phase)
        case let .began(task): h.combine(tag: 2); h.combine(integer: task)
        case let .refused(invalid): h.combine(tag: 3); h.combine(invalid)
        case let .grantedAfterTimeIsUp(task): h.combine(tag: 4); h.combine(integer: task)
        case let .ended(task): h.combine(tag: 5); h.combine(integer: task)
        case let .expiry(task): h.combine(tag: 6); h.combine(integer: task)
        case let .handlerStarted(task): h.combine(tag: 7); h.combine(integer: task)
        case let .warningEndUnknown(identifier): h.combine(tag: 8); h.combine(integer: identifier)
        case let .terminated(reason): h.combine(tag: 9); h.combine(reason)
        case let .crashed(reason): h.combine(tag: 10); h.combine(reason)
        case let .registered(identifier, permitted): h.combine(tag: 11); h.combine(integer: identifier); h.combine(permitted)
        case let .submitted(request): h.combine(tag: 12); h.combine(integer: request)
        case let .submitFailed(request, error): h.combine(tag: 13); h.combine(integer: request); h.combine(error)
        case let .bgLaunched(task): h.combine(tag: 14); h.combine(integer: task)
        case let .bgNotLaunched(identifier, why): h.combine(tag: 15); h.combine(integer: identifier); h.combine(why)
        case let .bgExpiry(task, hasHandler): h.combine(tag: 16); h.combine(integer: task); h.combine(hasHandler)
        case let .bgCompleted(task, success): h.combine(tag: 17); h.combine(integer: task); h.combine(success)
        case let .pushArrived(push): h.combine(tag: 18); h.combine(integer: push)
        case let .pushCompleted(push): h.combine(tag: 19); h.combine(integer: push)
        case let .activityStarted(activity, expired): h.combine(tag: 20); h.combine(integer: activity); h.combine(expired)
        case let .activityEnded(activity): h.combine(tag: 21); h.combine(integer: activity)
        case let .activityRefused(activity): h.combine(tag: 22); h.combine(integer: activity)
        case .forcedExpiry: h.combine(tag: 23)
        case let .objects(note): h.combine(tag: 24); h.combine(note)
        case let .timelineSkipped(item, state): h.combine(tag: 25); h.combine(integer: item); h.combine(state)
        case let .undecided(limit): h.combine(tag: 26); h.combine(limit)
        }
    }
}

extension SubmitError: StateHashable {
    func hash(into h: inout StableHash) {
        switch self {
        case .unavailable: h.combine(tag: 0)
        case .tooManyPendingTaskRequests: h.combine(tag: 1)
        case .notPermitted: h.combine(tag: 2)
        case .immediateRunIneligible: h.combine(tag: 3)
        }
    }
}

extension NotLaunched: StateHashable {
    func hash(into h: inout StableHash) {
        switch self {
        case .noPendingRequest: h.combine(tag: 0)
        case .tooEarly: h.combine(tag: 1)
        case .needsPower: h.combine(tag: 2)
        case .needsNetwork: h.combine(tag: 3)
        case .inForeground: h.combine(tag: 4)
        case .terminated: h.combine(tag: 5)
        case .forceQuit: h.combine(tag: 6)
        }
    }
}

extension ObjectNote: StateHashable {
    func hash(into h: inout StableHash) {
        switch self {
        case .waitTimedOut: h.combine(tag: 0)
        case let .taskSuspended(x): h.combine(tag: 1); h.combine(integer: x)
        case let .taskResumed(x): h.combine(tag: 2); h.combine(integer: x)
        case let .sessionConnected(identifier): h.combine(tag: 3); h.combine(integer: identifier)
        case let .sessionExists(identifier): h.combine(tag: 4); h.combine(integer: identifier)
        case let .transferStarted(identifier): h.combine(tag: 5); h.combine(integer: identifier)
        case let .noTransfer(identifier): h.combine(tag: 6); h.combine(integer: identifier)
        case let .dataUploadFailed(identifier): h.combine(tag: 7); h.combine(integer: identifier)
        case let .transfersFinished(identifier): h.combine(tag: 8); h.combine(integer: identifier)
        case let .eventsToRunningApp(identifier): h.combine(tag: 9); h.combine(integer: identifier)
        case let .handleEventsCalled(delivery): h.combine(tag: 10); h.combine(integer: delivery)
        case let .delegateEvents(identifier): h.combine(tag: 11); h.combine(integer: identifier)
        case let .handlerCalled(delivery): h.combine(tag: 12); h.combine(integer: delivery)
        case let .handlerCalledOffMain(delivery): h.combine(tag: 13); h.combine(integer: delivery)
        case let .handlerNeverCalled(delivery): h.combine(tag: 14); h.combine(integer: delivery)
        case let .continuedQueued(request): h.combine(tag: 15); h.combine(integer: request)
        case let .continuedFromBackground(request): h.combine(tag: 16); h.combine(integer: request)
        case let .continuedStalled(task): h.combine(tag: 17); h.combine(integer: task)
        case .forceQuit: h.combine(tag: 18)
        case let .transfersCancelled(identifier): h.combine(tag: 19); h.combine(integer: identifier)
        case .notAfterForceQuit: h.combine(tag: 20)
        case let .handlerCalledEarly(delivery): h.combine(tag: 21); h.combine(integer: delivery)
        }
    }
}

extension MachineObjects: StateHashable {
    func hash(into h: inout StableHash) {
        h.combine(semaphores)
        h.combine(groups)
        h.combine(continuations)
        h.combine(sessions)
        h.combine(connected)
        h.combine(transfers)
        h.combine(deliveries)
        h.combine(integer: urlSessionHolds)
        h.combine(forceQuit)
        h.combine(continuedRequests)
        h.combine(continuedTasks)
    }
}

extension MachineObjects.Group: StateHashable {
    func hash(into h: inout StableHash) {
        h.combine(integer: count)
        h.combine(notifications)
    }
}

extension MachineObjects.Notification: StateHashable {
    func hash(into h: inout StableHash) {
        h.combine(queue)
        h.combine(integer: block)
        h.combine(captured)
    }
}

extension MachineObjects.Continuation: StateHashable {
    func hash(into h: inout StableHash) {
        h.combine(frames)
        h.combine(env)
        h.combine(accumulator)
    }
}

extension MachineObjects.Transfer: StateHashable {
    func hash(into h: inout StableHash) {
        h.combine(integer: identifier)
        h.combine(integer: count)
        h.combine(integer: fromData)
    }
}

extension MachineObjects.Delivery: StateHashable {
    func hash(into h: inout StableHash) {
        h.combine(integer: identifier)
        h.combine(handleEventsCalled)
        h.combine(handleEventsReturned)
        h.combine(delegateCalled)
        h.combine(handlerCalled)
        h.combine(calledOffMain)
        h.combine(eventsDelivered)
        h.combine(calledEarly)
        h.combine(open)
    }
}

extension MachineObjects.ContinuedRequest: StateHashable {
    func hash(into h: inout StableHash) {
        h.combine(integer: request)
        h.combine(fail)
    }
}

extension MachineObjects.ContinuedTask: StateHashable {
    func hash(into h: inout StableHash) {
        h.combine(integer: task)
        h.combine(lastProgress)
    }
}
