import BGKBModel

/// The run loop: starting a run, copying a paused one, picking who goes next at each decision,
/// moving the clock, and how a run ends.
extension Machine {
    mutating func reset(_ schedule: Schedule) {
        self.schedule = schedule
        generator = SeededGenerator(seed: schedule.seed ?? 0)
        now = 0
        state = .notRunning
        launchPhaseOver = false
        launchedByUser = true
        backgroundAfterLaunch = false
        clear(&deliverAfterLaunch)
        clear(&cells)
        clear(&capturePool)
        // The globals, then a scratch cell, so a reference that resolves to nothing can never
        // index out of range.
        cells.append(contentsOf: initialCells)
        while let thread = threads.popLast() { spareThreads.append(thread) }
        clear(&laneNames)
        threads.append(makeThread(lane: 0))
        laneNames.append(.main)
        clear(&namedQueueThread)
        for _ in scenario.queues {
            namedQueueThread.append(Int32(threads.count))
            threads.append(makeThread(lane: Int32(threads.count)))
            laneNames.append(.queue(Int32(laneNames.count - 1)))
        }
        workerCount = 0
        current = -1
        // The timeline's events, as posting each item in order would queue them.
        events.reset(to: initialEvents)
        clear(&tasks)
        outstanding = 0
        periodStart = nil
        periodExpired = false
        periodGeneration = 0
        round = 0
        pendingHandlers = 0
        inDidEnterBackground = false
        didEnterBackgroundDeadline = .infinity
        suspendPending = false
        backgroundGeneration = 0
        clear(&locks)
        locks.append(contentsOf: repeatElement(-1, count: scenario.locks.count))
        clear(&registrations)
        clear(&requests)
        clear(&pendingRequests)
        clear(&bgTasks)
        runningBGTasks = 0
        clear(&pushes)
        pendingPushes = 0
        clear(&activities)
        activeActivities = 0
        objects.reset()
        clear(&trace)
        warnings = 0
        outcome = nil
        suspendedAt = 0
        steps = 0
        progressInstant = 0
        stepsAtProgress = 0
        clear(&decisions)
        clear(&preemptible)
        traceDigest = TraceDigest()
        clear(&instants)
        choiceCursor = 0
        refusalRead = false
        budgetMatters = false
        budgetFloor = -.infinity
        forcedPeriodStart = nil
        otherPeriodsFloor = -.infinity
        handlingForcedExpiry = false
        clear(&quietIntervals)
        pendingDecision = nil
        inheritedEvents = 0
        if let forced = schedule.forcedExpiry { post(at: forced, .forcedExpiry) }
    }

    /// Makes this machine's run state that of `other` (a machine of the same scenario, constants
    /// and options, typically paused by `proceed(pausingAt:)`), copying into the arrays this one
    /// already has, so a copy allocates nothing once capacities have grown. Every stored `var`
    /// of the run is copied here; `MachineCopyTests` checks none is missed. `other` is inout only
    /// so that it is not copied to be passed; it is not changed.
    mutating func copyState(from other: inout Machine) {
        didEnterBackgroundDeadline = other.didEnterBackgroundDeadline
        schedule = other.schedule
        generator = other.generator
        now = other.now
        state = other.state
        launchPhaseOver = other.launchPhaseOver
        launchedByUser = other.launchedByUser
        backgroundAfterLaunch = other.backgroundAfterLaunch
        copy(&deliverAfterLaunch, &other.deliverAfterLaunch)
        copy(&cells, &other.cells)
        while threads.count > other.threads.count, let thread = threads.popLast() { spareThreads.append(thread) }
        while threads.count < other.threads.count { threads.append(makeThread(lane: 0)) }
        // Field by field, reading `other`'s threads in place rather than copying each `Thread`.
        for index in threads.indices {
            threads[index].lane = other.threads[index].lane
            copy(&threads[index].pending, &other.threads[index].pending)
            threads[index].pendingHead = other.threads[index].pendingHead
            copy(&threads[index].frames, &other.threads[index].frames)
            copy(&threads[index].env, &other.threads[index].env)
            threads[index].wake = other.threads[index].wake
            threads[index].blocked = other.threads[index].blocked
            threads[index].accumulator = other.threads[index].accumulator
            threads[index].finished = other.threads[index].finished
        }
        copy(&capturePool, &other.capturePool)
        copy(&namedQueueThread, &other.namedQueueThread)
        workerCount = other.workerCount
        copy(&laneNames, &other.laneNames)
        current = other.current
        events.replace(with: &other.events)
        copy(&tasks, &other.tasks)
        outstanding = other.outstanding
        periodStart = other.periodStart
        periodExpired = other.periodExpired
        periodGeneration = other.periodGeneration
        round = other.round
        pendingHandlers = other.pendingHandlers
        inDidEnterBackground = other.inDidEnterBackground
        suspendPending = other.suspendPending
        backgroundGeneration = other.backgroundGeneration
        copy(&locks, &other.locks)
        copy(&registrations, &other.registrations)
        copy(&requests, &other.requests)
        copy(&pendingRequests, &other.pendingRequests)
        copy(&bgTasks, &other.bgTasks)
        runningBGTasks = other.runningBGTasks
        copy(&pushes, &other.pushes)
        pendingPushes = other.pendingPushes
        copy(&activities, &other.activities)
        activeActivities = other.activeActivities
        copy(&trace, &other.trace)
        warnings = other.warnings
        outcome = other.outcome
        suspendedAt = other.suspendedAt
        steps = other.steps
        progressInstant = other.progressInstant
        stepsAtProgress = other.stepsAtProgress
        copy(&decisions, &other.decisions)
        copy(&preemptible, &other.preemptible)
        traceDigest = other.traceDigest
        copy(&instants, &other.instants)
        refusalRead = other.refusalRead
        budgetMatters = other.budgetMatters
        budgetFloor = other.budgetFloor
        forcedPeriodStart = other.forcedPeriodStart
        otherPeriodsFloor = other.otherPeriodsFloor
        handlingForcedExpiry = other.handlingForcedExpiry
        copy(&quietIntervals, &other.quietIntervals)
        choiceCursor = other.choiceCursor
        pendingDecision = other.pendingDecision
        inheritedEvents = other.trace.count
        objects.copy(from: &other.objects)
    }

    mutating func run(_ schedule: Schedule) {
        reset(schedule)
        _ = proceed(pausingAt: -1)
    }

    /// Runs on from where the machine stands (just reset, or paused) until the run ends, or until
    /// the loop is about to make decision `pause` (counting from 0): then it stops before making
    /// it, with `pendingDecision` set, and returns true. The explorer pauses a parent's run at a
    /// decision, copies the machine (`copyState(from:)`) once per child schedule that deviates
    /// there, and goes on with each child's choices: the run up to that decision is the parent's,
    /// so it is not simulated again for every child.
    mutating func proceed(pausingAt pause: Int) -> Bool {
        if let pending = pendingDecision {
            pendingDecision = nil
            take(Int(decide(alternatives: pending.total, currentRunnable: pending.currentRunnable)), currentRunnable: pending.currentRunnable,
                 firstOther: pending.firstOther, systemDue: pending.systemDue)
        }
        while outcome == nil {
            if let limit = reachedStepLimit() {
                giveUp(limit)
                break
            }
            // A dead event would do nothing when handled; dropped here, it neither moves the clock
            // nor stands as a scheduling alternative that changes nothing.
            while let first = events.first, isDead(first.kind) { _ = events.removeFirst() }
            let next = events.first
            let systemDue = next.map { $0.time <= now } ?? false
            if systemDue, case .budgetExpiry? = next?.kind { budgetMatters = true }
            var runnableCount = 0
            var currentRunnable = false
            // The first runnable thread other than the current one: the default pick when the
            // current thread cannot run, found in the same pass.
            var firstOther: Int32 = -2
            var systemWaits = systemDue && takesHiddenStepsFirst
            if stateLetsThreadsRun {
                for index in threads.indices where isRunnable(Int32(index)) {
                    // Only the current thread's: offered, its exit would be the default step and
                    // leave it current. Another thread's exit taken at once would leave `current`
                    // where it was, and a later default would go elsewhere than it did offered:
                    // a run would be lost.
                    if takesSilentExitsAtOnce && Int32(index) == current && exitsSilently(index) {
                        exitSilently(index)
                        guard isRunnable(Int32(index)) else { continue }
                    }
                    runnableCount += 1
                    if Int32(index) == current { currentRunnable = true } else if firstOther == -2 { firstOther = Int32(index) }
                    if systemWaits && !nextStepHidesFromSystem(index) { systemWaits = false }
                }
            }
            // A due system event is offered only where some thread's next step could tell it
            // went first, and a current thread whose next step is hidden takes it without a
            // decision (see `systemHiding`).
            let offersSystem = systemDue && !(systemWaits && runnableCount > 0)
            let total = runnableCount + (offersSystem ? 1 : 0)
            if total == 0 {
                let from = now
                guard advanceClock() else { break }
                if state != .background {
                    quietIntervals.append(from)
                    quietIntervals.append(now)
                }
                continue
            }
            var pick = 0
            if total > 1 && !(takesHiddenStepsFirst && currentRunnable && nextStepHidesFromSystem(Int(current))) {
                if decisions.count == pause {
                    pendingDecision = PendingDecision(total: total, currentRunnable: currentRunnable, firstOther: firstOther, systemDue: offersSystem)
                    return true
                }
                pick = Int(decide(alternatives: total, currentRunnable: currentRunnable))
            }
            take(pick, currentRunnable: currentRunnable, firstOther: firstOther, systemDue: offersSystem)
        }
        finishRun()
        return false
    }

    /// Takes alternative `pick` of a decision: the current thread, other threads by lane, then
    /// the system. Threads first makes the default run the kind one ("shortly after"); the
    /// explorer tries the system earlier.
    @inline(__always)
    mutating func take(_ pick: Int, currentRunnable: Bool, firstOther: Int32, systemDue: Bool) {
        var chosen: Int32 = -2
        var position = 0
        if currentRunnable {
            if pick == position { chosen = current }
            position += 1
        } else if pick == 0 && firstOther != -2 {
            chosen = firstOther
        }
        if chosen == -2 {
            for index in threads.indices where Int32(index) != current && isRunnable(Int32(index)) {
                if pick == position { chosen = Int32(index); break }
                position += 1
            }
        }
        if chosen == -2 && systemDue && pick == position { chosen = -1 }
        if chosen == -1 {
            handle(events.removeFirst().kind)
        } else {
            current = chosen
            step(chosen)
        }
    }

    /// The end of a run: its outcome, and the quiet time after it.
    mutating func finishRun() {
        noteBudgetStopsMattering()
        if outcome == nil {
            switch state {
            case .suspended: outcome = .suspended(suspendedAt)
            // Reclaimed by the system after a clean suspension: as clean as suspended.
            case .notRunning where !trace.isEmpty: outcome = .suspended(suspendedAt)
            default: outcome = .running(now)
            }
        }
        // Nothing happens after a run that ended suspended, killed or crashed; one still running
        // reports the clock, which a later forced expiry would move.
        switch outcome {
        case .suspended?, .terminated?, .crashed?:
            quietIntervals.append(now)
            quietIntervals.append(.infinity)
        default: break
        }
    }

    /// An event that can no longer do anything, whatever happens next: its period, round or trip
    /// to the background is over, and those only ever move on.
    ///
    /// A round's check that finds no leak now never will: a round expires its tasks when it starts
    /// (`expireAll`, a refusal that calls the handler) and no task starts expiring during it, and
    /// an ended task stays ended. Handled at any later instant of its round it would still do
    /// nothing, so it is not a scheduling alternative either; and it falls due at the instant it
    /// is posted, so dropping it moves no clock. (The round's deadline does move the clock, and a
    /// run that ends still running reports the time: it stays.)
    func isDead(_ kind: SystemEvent.Kind) -> Bool {
        switch kind {
        case let .budgetExpiry(generation): return generation != periodGeneration || periodExpired
        case let .roundDeadline(r): return r != round
        case let .roundCheck(r): return r != round || (dropsSettledRoundChecks && leakedTask == nil)
        case let .didEnterBackgroundDeadline(generation): return generation != backgroundGeneration || !inDidEnterBackground
        case let .activityDeadline(activity): return !activities[Int(activity)].active
        default: return false
        }
    }

    mutating func decide(alternatives: Int, currentRunnable: Bool) -> UInt8 {
        let index = Int32(decisions.count)
        decisions.append(UInt8(min(alternatives, 255)))
        preemptible.append(currentRunnable)
        while choiceCursor < schedule.choices.count && schedule.choices[choiceCursor].index < index { choiceCursor += 1 }
        if choiceCursor < schedule.choices.count && schedule.choices[choiceCursor].index == index {
            return UInt8(min(Int(schedule.choices[choiceCursor].choice), alternatives - 1))
        }
        if schedule.seed != nil {
            let value = UInt8(generator.next() % UInt64(alternatives))
            if value != 0 { schedule.choices.append(.init(index: index, choice: value)); choiceCursor = schedule.choices.count }
            return value
        }
        return 0
    }

    mutating func advanceClock() -> Bool {
        var next = Double.infinity
        if let first = events.first { next = first.time }
        if state != .suspended && state != .terminated && state != .notRunning {
            for index in threads.indices where threads[index].wake > now && threads[index].blocked == .none && hasWork(index) {
                next = min(next, threads[index].wake)
            }
            next = min(next, nextWaitTimeout())
        }
        guard next.isFinite else { return false }
        now = next
        return true
    }

    /// The first task the system has called in (its round began) that the app has not ended:
    /// S6's leak, which a round's check and deadline terminate for.
    var leakedTask: Int? {
        tasks.firstIndex { $0.expiring && !$0.ended }
    }

    /// Whether all a thread would do next is leave its blocks, and leaving them is seen by
    /// nothing: no loop turns again, no one waits on them, nothing is recorded. Such a step
    /// commutes with every other; offered as a scheduling alternative it only gave the same run
    /// twice, so the run loop takes it at once (`exitSilently`) instead.
    ///
    /// Inlined, as `isRunnable` is, so the run loop does not hand it a copy of the machine.
    @inline(__always)
    func exitsSilently(_ t: Int) -> Bool {
        var index = threads[t].frames.count - 1
        guard index >= 0 else { return false }
        // The top frame is past its last statement; each frame below it will be once the frame
        // above hands control back (its pc moves past the statement that entered that frame).
        var past: Int32 = 0
        while index >= 0 {
            let frame = threads[t].frames[index]
            guard frame.pc + past >= blockLengths[Int(frame.block)], frame.loopsLeft == 0 else { return false }
            switch frame.context {
            case .plain, .call, .branch, .willEnterForeground, .push, .bgLaunch, .bgExpiration, .sessionEvents: break
            case .didEnterBackground where quietDidEnterBackgroundExits && didEnterBackgroundExitIsSilent: break
            default: return false
            }
            past = 1
            index -= 1
        }
        return true
    }

    /// Leaving `applicationDidEnterBackground` clears `inDidEnterBackground` and asks for a
    /// suspension. That is seen by nothing when something else still holds the app up (a task,
    /// a handler, a BGTask, a push, an activity: the suspension check then does nothing, and
    /// whatever releases that hold checks again), the handler's 5 s deadline is not due yet (the
    /// clock cannot move while the exit is pending, so no order puts the deadline first), and no
    /// timeline event is due at this instant (a new trip to the background would set the flag
    /// the exit clears).
    var didEnterBackgroundExitIsSilent: Bool {
        let heldOtherwise = state != .background || !launchPhaseOver || outstanding > 0 || pendingHandlers > 0
            || runningBGTasks > 0 || pendingPushes > 0 || activeActivities > 0
        guard heldOtherwise, !suspendPending, didEnterBackgroundDeadline > now else { return false }
        return !events.hasTimelineEvent(dueBy: now)
    }

    /// A worker that exits this way is marked finished sooner, so a later spawn may reuse its
    /// slot: that changes thread indices, never lanes (numbered in spawn order), so the runs drawn
    /// are the same (`SilentExitTests`).
    mutating func exitSilently(_ t: Int) {
        while !threads[t].frames.isEmpty {
            steps += 1
            popFrame(t)
        }
    }

    /// How far a step of this kind, in this phase, is hidden from the system: 2 when on any thread,
    /// 1 only on the main thread, 0 not at all. A hidden step touches nothing a system event reads
    /// or changes, or that code the system may start on another thread could touch (see
    /// `MainConfinement`), it cannot crash, and its effect does not depend on when it runs: it
    /// enters a function or a loop, starts `work` (work under way when the app is suspended is
    /// thawed by the time spent suspended), or reads, tests and writes globals only main-thread
    /// code mentions (on main; one kept across launches is not written, as a reclaim keeps it).
    /// Everything that touches tasks, requests, queues, locks, objects, the app's state or the
    /// clock, that prints, a closure's variables, and every block's exit is not.
    ///
    /// Such a step is independent of whatever the system, the threads it may start and the other
    /// threads can do before it (other threads' code never mentions those globals either), so a
    /// schedule that lets anything else go first reaches the same end with the step taken first,
    /// through no more preemptions: the step alone is a persistent set, in the terms of
    /// partial-order reduction. So the current thread takes a hidden next step without a
    /// decision, and where every runnable thread's next step is hidden a due system event is not
    /// offered; it is offered at the next decision where a step could tell the difference (the
    /// clock does not move before then). The one thing taking hidden steps first can change is
    /// how many steps run before an event that ends the run, so a run near the engine's step
    /// limit can become undecided: that fails the example for either intent, never passes it.
    static func systemHiding(_ kind: StatementKind, phase: UInt8, globals: [Scenario.Global], confinement: MainConfinement) -> UInt8 {
        func read(_ expression: Expression) -> UInt8 {
            switch expression {
            case .literal: return 2
            case .read(.global(let index)): return confinement.isConfined(index) ? 1 : 0
            default: return 0
            }
        }
        func test(_ condition: Condition) -> UInt8 {
            switch condition {
            case let .compare(left, _, right): return min(read(left), read(right))
            case let .truthy(expression): return read(expression)
            case let .not(inner): return test(inner)
            case let .and(left, right), let .or(left, right): return min(test(left), test(right))
            }
        }
        func write(_ ref: VariableRef) -> UInt8 {
            guard case let .global(index) = ref, Int(index) < globals.count, !globals[Int(index)].persistent else { return 0 }
            return confinement.isConfined(index) ? 1 : 0
        }
        switch kind {
        case .call, .loop, .work: return 2
        case let .declare(_, initial): return phase == 1 ? 2 : initial.map(read) ?? 2
        case let .assign(ref, expression): return phase == 1 ? write(ref) : min(write(ref), read(expression))
        case let .add(ref, _): return write(ref)
        case let .evaluate(expression): return read(expression)
        case let .branch(condition, _, _): return test(condition)
        default: return 0
        }
    }

    /// Whether thread `t`'s next step is hidden from the system (`systemHiding`): a statement, or
    /// the start of a block dispatched to it.
    @inline(__always)
    func nextStepHidesFromSystem(_ t: Int) -> Bool {
        guard let frame = threads[t].frames.last else {
            let item = threads[t].pending[threads[t].pendingHead]
            if case .plain = item.context { return item.block >= 0 }
            return false
        }
        guard frame.pc < blockLengths[Int(frame.block)] else { return false }
        let statement = Int(scenario.blocks[Int(frame.block)].statements[Int(frame.pc)])
        let level = frame.phase == 0 ? statementTable.hiding[statement] & 3 : statementTable.hiding[statement] >> 2
        return level == 2 || (level == 1 && t == 0)
    }

    @inline(__always)
    func hasWork(_ index: Int) -> Bool {
        !threads[index].frames.isEmpty || threads[index].pendingHead < threads[index].pending.count
    }

    /// Threads run only while the app is launching, in the foreground or in the background.
    var stateLetsThreadsRun: Bool {
        switch state {
        case .launching, .foreground, .background: return true
        default: return false
        }
    }

    @inline(__always)
    func isRunnable(_ index: Int32) -> Bool {
        guard stateLetsThreadsRun else { return false }
        // Fields read in place rather than through a copy of the Thread.
        let t = Int(index)
        guard hasWork(t), threads[t].wake <= now else { return false }
        switch threads[t].blocked {
        case .none: return true
        case let .lock(lock): return locks[Int(lock)] < 0
        case .sync, .forever: return false
        case let .semaphore(semaphore, until): return objects.semaphores[Int(semaphore)] > 0 || until <= now
        case let .group(group, until): return objects.groups[Int(group)].count == 0 || until <= now
        }
    }
}
