/// What iOS does: lifecycle, background tasks and their budget, expiry and the watchdog,
/// BGTaskScheduler, pushes and expiring activities. Each rule cites its SIMULATION.md number.
extension Machine {
    // MARK: Lifecycle

    mutating func handle(_ kind: SystemEvent.Kind) {
        switch kind {
        case let .timeline(index):
            timeline(index)
        case let .budgetExpiry(generation):
            guard generation == periodGeneration, state == .background, !periodExpired else { return }
            expireAll()
        case .forcedExpiry:
            // S4: the system may call tasks in at any time, not only when the budget runs out.
            guard state == .background else { return }
            record(-1, .forcedExpiry)
            // Only a live background period (a task or an activity holds the app) has time to
            // end: with none, there is nothing to call in, and a task begun afterwards starts a
            // period of its own (a begin the scenario pins as granted is never refused by it).
            if periodStart != nil {
                handlingForcedExpiry = true
                expireAll()
                handlingForcedExpiry = false
            }
            // A BGTask is handed to the app through its launch handler, which is also where the
            // app sets its expiration handler: the system cannot call in a task it has not yet
            // handed over, so an early expiry reaches only tasks whose launch handler has begun.
            // (Otherwise the task, with no expiration handler yet, would complete unsuccessfully
            // and the app could be suspended before its launch handler ever ran.)
            for index in bgTasks.indices where !bgTasks[index].completed && bgTasks[index].launched {
                expireBGTask(Int32(index))
            }
            for index in activities.indices where activities[index].active { expireActivity(Int32(index)) }
        case let .handlerDeadline(task):
            // S5: each expiry handler gets about a second.
            if tasks[Int(task)].handlerRunning { terminate(.expiryHandlerTooSlow(task: task)) }
        case let .roundDeadline(r):
            // S5/S11: all handlers together get a few seconds; a blocked main thread never runs them.
            guard r == round else { return }
            if pendingHandlers > 0 { terminate(.expiryHandlersBlocked); return }
            checkLeaks()
        case let .roundCheck(r):
            guard r == round else { return }
            checkLeaks()
        case .suspendCheck:
            suspendIfIdle()
        case let .didEnterBackgroundDeadline(generation):
            // S11: applicationDidEnterBackground has about 5 s.
            if generation == backgroundGeneration && inDidEnterBackground { terminate(.didEnterBackgroundTooSlow) }
        case let .bgTaskExpiry(index):
            expireBGTask(index)
        case let .bgTaskDeadline(index):
            if !bgTasks[Int(index)].completed { terminate(.bgTaskNotCompleted(task: index)) }
        case let .pushDeadline(index):
            // S15: the fetch completion handler within about 30 s.
            if !pushes[Int(index)] && state != .foreground { terminate(.pushNotCompleted) }
        case let .urlSessionDeadline(delivery):
            urlSessionDeadline(delivery)
        case let .continuedStallCheck(task):
            continuedStallCheck(task)
        case let .activityDeadline(activity):
            if activities[Int(activity)].active { terminate(.expiredActivityHeld(activity: activity)) }
        }
    }

    private mutating func timeline(_ index: Int32) {
        let item = scenario.timeline[Int(index)]
        switch item.event {
        case .launch:
            guard state == .notRunning else { return record(-1, .timelineSkipped(item: index, state: state)) }
            launchedByUser = true
            launch()
        case .enterBackground:
            if state == .launching { backgroundAfterLaunch = true; return }
            guard state == .foreground else { return record(-1, .timelineSkipped(item: index, state: state)) }
            enterBackground()
        case .enterForeground:
            guard state == .background || state == .suspended else { return record(-1, .timelineSkipped(item: index, state: state)) }
            enterForeground()
        case .reclaim:
            guard state == .suspended || state == .background else { return record(-1, .timelineSkipped(item: index, state: state)) }
            reclaim()
        case .push:
            pushes.append(false)
            let index = Int32(pushes.count - 1)
            record(-1, .pushArrived(push: index))
            if objects.forceQuit { record(-1, .objects(.notAfterForceQuit)); return }
            if !wakeForBackgroundWork(.timeline(-1)) { return }
            deliverPush(index)
        case .systemLaunches:
            systemLaunch(timelineIdentifiers[Int(index)])
        case .call:
            guard state == .foreground || state == .background || state == .launching else {
                return record(-1, .timelineSkipped(item: index, state: state))
            }
            let block = scenario.functions[Int(item.function)].block
            guard block >= 0 else { return }
            threads[0].pending.append(WorkItem(block: block, captured: .none, parameter: .none, context: .plain))
        case let .urlSessionFinishes(name):
            urlSessionFinishes(name)
        case .forceQuit:
            forceQuit()
        }
    }

    /// Brings the app to life in the background (launching it if needed). Returns false when
    /// the app is gone; `deferred` is replayed once launching has finished.
    mutating func wakeForBackgroundWork(_ deferred: SystemEvent.Kind) -> Bool {
        switch state {
        case .terminated: return false
        case .notRunning:
            launchedByUser = false
            launch()
            return true
        case .suspended:
            setState(.background)
            return true
        default: return true
        }
    }

    /// The process ends quietly (memory pressure while suspended); the system keeps its own
    /// state (pending requests), the app loses everything else.
    mutating func reclaim() {
        for index in threads.indices {
            threads[index].frames.removeAll(keepingCapacity: true)
            threads[index].pending.removeAll(keepingCapacity: true)
            threads[index].pendingHead = 0
            threads[index].env.removeAll(keepingCapacity: true)
            threads[index].blocked = .none
            threads[index].wake = now
            if index > scenario.queues.count { threads[index].finished = true }
        }
        let previous = cells
        cells.removeAll(keepingCapacity: true)
        for (index, global) in scenario.globals.enumerated() {
            cells.append(global.persistent ? previous[index] : global.initial)
        }
        cells.append(.none)
        for index in tasks.indices { tasks[index].ended = true; tasks[index].handlerRunning = false }
        outstanding = 0
        pendingHandlers = 0
        round += 1
        endPeriod()
        inDidEnterBackground = false
        backgroundGeneration += 1
        for index in locks.indices { locks[index] = -1 }
        registrations.removeAll(keepingCapacity: true)
        for index in bgTasks.indices { bgTasks[index].completed = true }
        runningBGTasks = 0
        for index in pushes.indices { pushes[index] = true }
        pendingPushes = 0
        for index in activities.indices { activities[index].active = false }
        activeActivities = 0
        objects.reclaim()
        launchPhaseOver = false
        backgroundAfterLaunch = false
        setState(.notRunning)
    }

    mutating func launch() {
        setState(.launching)
        // Background launches resume once the user opens the app again.
        if launchedByUser { objects.forceQuit = false }
        makeObjectGlobals()
        if let block = didFinishLaunchingHandler {
            threads[0].pending.append(WorkItem(block: block, captured: .none, parameter: .none, context: .didFinishLaunching))
        } else {
            finishLaunch()
        }
    }

    mutating func finishLaunch() {
        launchPhaseOver = true
        if launchedByUser && !backgroundAfterLaunch {
            setState(.foreground)
        } else {
            setState(.background)
            if launchedByUser {
                enterBackgroundHandlers()
            } else if (outstanding > 0 || activeActivities > 0) && periodStart == nil {
                // S2: launched in the background, tasks and activities begun while launching
                // start the clock as the app enters the background.
                startPeriod()
            }
        }
        // Work the system launched us for waits until launching is over.
        let deferred = deliverAfterLaunch
        deliverAfterLaunch.removeAll()
        for kind in deferred {
            if case let .bgTaskExpiry(index) = kind { startBGTask(index) }
        }
        deliverURLSessionEventsAfterLaunch()
        checkSuspend()
    }

    private mutating func enterBackground() {
        setState(.background)
        enterBackgroundHandlers()
        checkSuspend()
    }

    private mutating func enterBackgroundHandlers() {
        // S2: dormant tasks (and expiring activities begun in the foreground) start the clock now.
        if (outstanding > 0 || activeActivities > 0) && periodStart == nil { startPeriod() }
        if let block = didEnterBackgroundHandler {
            inDidEnterBackground = true
            backgroundGeneration += 1
            threads[0].pending.append(WorkItem(block: block, captured: .none, parameter: .none, context: .didEnterBackground))
            didEnterBackgroundDeadline = now + constants.didEnterBackgroundLimit
            post(at: didEnterBackgroundDeadline, .didEnterBackgroundDeadline(generation: backgroundGeneration))
        }
    }

    private mutating func enterForeground() {
        setState(.foreground)
        // S16: the background period is over; a later trip to the background starts a new one.
        endPeriod()
        // BGProcessingTask: ended when the user starts using the device.
        for index in bgTasks.indices where bgTasks[index].processing && !bgTasks[index].completed {
            expireBGTask(Int32(index))
        }
        if let block = willEnterForegroundHandler {
            threads[0].pending.append(WorkItem(block: block, captured: .none, parameter: .none, context: .willEnterForeground))
        }
    }

    /// Ends the background period (suspended, foreground, reclaimed): its budget event goes stale.
    mutating func endPeriod() {
        noteBudgetStopsMattering()
        periodStart = nil
        periodExpired = false
        periodGeneration += 1
    }

    /// The period's budget event is dead from now on (see `isDead`). A budget whose event would
    /// come due only after this point could not have changed the run: the explorer's memo uses
    /// `budgetFloor` to tell which budgets give this very run.
    mutating func noteBudgetStopsMattering() {
        guard let start = periodStart, !periodExpired else { return }
        budgetFloor = max(budgetFloor, now - start)
        if handlingForcedExpiry { forcedPeriodStart = start } else { otherPeriodsFloor = max(otherPeriodsFloor, now - start) }
    }

    mutating func startPeriod() {
        periodStart = now
        periodExpired = false
        periodGeneration += 1
        post(at: now + schedule.budget, .budgetExpiry(generation: periodGeneration))
    }

    private var canSuspend: Bool {
        state == .background && launchPhaseOver && outstanding == 0 && !inDidEnterBackground && pendingHandlers == 0
            && runningBGTasks == 0 && pendingPushes == 0 && activeActivities == 0 && objects.urlSessionHolds == 0
    }

    /// S7: once nothing holds the app up in the background, it is suspended "shortly after" and
    /// its queues stop. The suspension is a system event at the same instant, so the explorer
    /// can put it before or after other threads' steps.
    mutating func checkSuspend() {
        guard canSuspend, !suspendPending else { return }
        suspendPending = true
        post(at: now, .suspendCheck)
    }

    private mutating func suspendIfIdle() {
        suspendPending = false
        guard canSuspend else { return }
        setState(.suspended)
        endPeriod()
    }

    // MARK: UIApplication background tasks

    mutating func begin(name: Int32?, handler: Int32?, thread t: Int) -> Value {
        let lane = Int32(t)
        // The background period's time is already up (its budget ran out, or the system ended it
        // early): the task cannot have time of its own. Refused as the schedule says, or, when
        // the schedule grants it (as a scenario that pins `system grants beginBackgroundTask`
        // does), granted and called in at once.
        let timeIsUp = state == .background && periodExpired
        refusalRead = true
        switch schedule.refusal {
        case .returnsInvalid:
            // S1, older text: the system cannot create a task and returns .invalid.
            record(lane, .refused(invalid: true))
            return .identifier(0)
        case .none, .callsExpirationHandler:
            break
        }
        // S8: about 1,000 outstanding assertions, then 0xbada5e47.
        if outstanding >= constants.assertionLimit {
            terminate(.tooManyAssertions)
            return .identifier(0)
        }
        let captured = handler.map { capture(lane, block: $0) } ?? .none
        tasks.append(Task(name: name, handler: handler, captured: captured))
        let index = Int32(tasks.count - 1)
        outstanding += 1
        record(lane, .began(task: index))
        if schedule.refusal == .callsExpirationHandler || timeIsUp {
            // S1, newer text: when the assertion cannot be granted, the expiry handler is called.
            record(lane, schedule.refusal == .callsExpirationHandler ? .refused(invalid: false) : .grantedAfterTimeIsUp(task: index))
            round += 1
            expire(index)
            post(at: now + constants.expiryHandlersTotalLimit, .roundDeadline(round: round))
            if pendingHandlers == 0 { post(at: now, .roundCheck(round: round)) }
            return .identifier(index + 1)
        }
        if state == .background && periodStart == nil { startPeriod() }
        return .identifier(index + 1)
    }

    mutating func end(_ value: Value, thread t: Int) {
        let lane = Int32(t)
        guard case let .identifier(id) = value, id > 0, Int(id) <= tasks.count, !tasks[Int(id) - 1].ended else {
            // S10: ending an unknown or ended identifier only logs.
            var id: Int32 = 0
            if case let .identifier(n) = value { id = n }
            record(lane, .warningEndUnknown(identifier: id))
            return
        }
        tasks[Int(id) - 1].ended = true
        outstanding -= 1
        record(lane, .ended(task: id - 1))
        checkSuspend()
    }

    /// The system calls every outstanding task in (end of the budget, or early).
    mutating func expireAll() {
        noteBudgetStopsMattering()
        periodExpired = true
        round += 1
        for index in tasks.indices where !tasks[index].ended && !tasks[index].expiring {
            expire(Int32(index))
        }
        for index in activities.indices where activities[index].active { expireActivity(Int32(index)) }
        post(at: now + constants.expiryHandlersTotalLimit, .roundDeadline(round: round))
        if pendingHandlers == 0 { post(at: now, .roundCheck(round: round)) }
    }

    private mutating func expire(_ index: Int32) {
        tasks[Int(index)].expiring = true
        record(-1, .expiry(task: index))
        // S5: handlers run on the main thread, one after another.
        if let handler = tasks[Int(index)].handler {
            pendingHandlers += 1
            threads[0].pending.append(WorkItem(block: handler, captured: tasks[Int(index)].captured, parameter: .none,
                                               context: .expiryHandler(task: index)))
        }
    }

    /// S6: a task the app has not ended once its handlers have run (or time is up) is a leak.
    private mutating func checkLeaks() {
        if let index = leakedTask { terminate(.leakedTask(task: Int32(index))) }
    }

    // MARK: performExpiringActivity (S13)

    /// S13/S20: the system calls the block again, on another thread, with `expired == true`: the
    /// process is about to be suspended. The activity ends when either call returns; the app is
    /// then suspended with any work still under way frozen. A `true` call that has not returned
    /// within `expiredActivityReturnLimit` (while the activity still holds the app) gets the app
    /// killed for holding its task assertion past its time (an assumption, see SystemConstants).
    private mutating func expireActivity(_ index: Int32) {
        guard activities[Int(index)].active, !activities[Int(index)].expiredCalled else { return }
        activities[Int(index)].expiredCalled = true
        record(-1, .activityStarted(activity: index, expired: true))
        let activity = activities[Int(index)]
        spawnWorker(WorkItem(block: activity.block, captured: activity.captured, parameter: .bool(true),
                             context: .activity(index, expired: true)), name: .activity)
        post(at: now + constants.expiredActivityReturnLimit, .activityDeadline(index))
    }

    // MARK: BGTaskScheduler (S14)

    func permitted(_ identifier: Int32) -> Bool {
        guard let list = scenario.permittedIdentifiers else { return true }
        // A continued processing pattern (`com.example.export.*`) permits every suffix.
        return list.contains(identifier) || list.contains { self.identifier(identifier, matches: $0) }
    }

    mutating func register(identifier: Int32, queue: QueueRef?, block: Int32, thread t: Int) {
        // Continued processing identifiers are exempt (iOS 26 header): they are registered on demand.
        if launchPhaseOver && !isContinuedIdentifier(identifier) {
            crash(.registerAfterLaunch(identifier: identifier))
            return
        }
        if registrations.contains(where: { $0.identifier == identifier }) {
            crash(.registerTwice(identifier: identifier))
            return
        }
        let ok = permitted(identifier)
        record(Int32(t), .registered(identifier: identifier, permitted: ok))
        guard ok else { return }
        registrations.append(Registration(identifier: identifier, queue: queue, block: block, captured: capture(Int32(t), block: block)))
    }

    mutating func submit(_ index: Int32, thread t: Int) {
        if objects.isContinued(request: index) { submitContinued(index, thread: t); return }
        let request = requests[Int(index)]
        let lane = Int32(t)
        if !scenario.conditions.backgroundAppRefresh {
            record(lane, .submitFailed(request: index, error: .unavailable)); return
        }
        if !permitted(request.identifier) {
            record(lane, .submitFailed(request: index, error: .notPermitted)); return
        }
        // Resubmitting an identifier replaces the earlier request.
        pendingRequests.removeAll { requests[Int($0)].identifier == request.identifier }
        let sameKind = pendingRequests.filter { requests[Int($0)].processing == request.processing }.count
        let limit = request.processing ? constants.pendingProcessingLimit : constants.pendingRefreshLimit
        if sameKind >= limit {
            record(lane, .submitFailed(request: index, error: .tooManyPendingTaskRequests)); return
        }
        pendingRequests.append(index)
        record(lane, .submitted(request: index))
    }

    /// `identifier`: the launched name's index in `scenario.strings`, -1 when no string has it.
    private mutating func systemLaunch(_ identifier: Int32) {
        if objects.forceQuit { record(-1, .bgNotLaunched(identifier: identifier, why: .forceQuit)); return }
        if startQueuedContinued(identifier) { return }
        guard identifier >= 0,
              let position = pendingRequests.firstIndex(where: { requests[Int($0)].identifier == identifier }) else {
            record(-1, .bgNotLaunched(identifier: identifier, why: .noPendingRequest))
            return
        }
        let request = requests[Int(pendingRequests[position])]
        // The launch is the system's decision: these only make it possible.
        var why: NotLaunched?
        if state == .terminated { why = .terminated }
        else if now < request.earliest { why = .tooEarly }
        else if request.power && !scenario.conditions.externalPower { why = .needsPower }
        else if request.network && !scenario.conditions.network { why = .needsNetwork }
        else if state == .foreground || state == .launching { why = .inForeground }
        if let why {
            record(-1, .bgNotLaunched(identifier: identifier, why: why))
            return
        }
        pendingRequests.remove(at: position)
        bgTasks.append(BGTaskState(identifier: identifier, processing: request.processing))
        let index = Int32(bgTasks.count - 1)
        runningBGTasks += 1
        if state != .notRunning && launchPhaseOver {
            _ = wakeForBackgroundWork(.bgTaskExpiry(index))
            startBGTask(index)
        } else {
            deliverAfterLaunch.append(.bgTaskExpiry(index))
            _ = wakeForBackgroundWork(.bgTaskExpiry(index))
        }
    }

    mutating func startBGTask(_ index: Int32) {
        let task = bgTasks[Int(index)]
        record(-1, .bgLaunched(task: index))
        guard let registration = registrations.first(where: { $0.identifier == task.identifier }) else {
            crash(.noLaunchHandler(identifier: task.identifier))
            return
        }
        bgTasks[Int(index)].queue = registration.queue
        let item = WorkItem(block: registration.block, captured: registration.captured, parameter: .task(index), context: .bgLaunch(index))
        if let queue = registration.queue { enqueue(on: queue, item) } else { spawnWorker(item, name: .bgTaskScheduler) }
        let budget = task.processing ? constants.processingTaskBudget : constants.refreshTaskBudget
        post(at: now + budget, .bgTaskExpiry(index))
    }

    mutating func expireBGTask(_ index: Int32) {
        let task = bgTasks[Int(index)]
        guard !task.completed, !task.expiring else { return }
        bgTasks[Int(index)].expiring = true
        record(-1, .bgExpiry(task: index, hasHandler: task.expirationHandler != nil))
        guard let handler = task.expirationHandler else {
            // With no handler, the task is marked complete and unsuccessful (BGTask.h).
            completeBGTask(index, success: false, thread: -1)
            return
        }
        let item = WorkItem(block: handler, captured: task.captured, parameter: .none, context: .bgExpiration(index))
        if let queue = task.queue { enqueue(on: queue, item) } else { spawnWorker(item, name: .bgTaskScheduler) }
        post(at: now + constants.bgTaskCompletionGrace, .bgTaskDeadline(index))
    }

    mutating func completeBGTask(_ index: Int32, success: Bool, thread t: Int) {
        guard !bgTasks[Int(index)].completed else { return }
        bgTasks[Int(index)].completed = true
        bgTasks[Int(index)].success = success
        runningBGTasks -= 1
        record(Int32(t), .bgCompleted(task: index, success: success))
        checkSuspend()
    }

    // MARK: Background push (S15)

    private mutating func deliverPush(_ index: Int32) {
        guard let block = remoteNotificationHandler else {
            pushes[Int(index)] = true
            checkSuspend()
            return
        }
        pendingPushes += 1
        threads[0].pending.append(WorkItem(block: block, captured: .none, parameter: .push(index), context: .push(index)))
        post(at: now + constants.pushCompletionLimit, .pushDeadline(index))
    }
}
