import BGKBModel

/// The trace, the system event queue, and threads: work items, frames and leaving blocks.
extension Machine {
    /// `thread` is a thread index (or -1 for the system); the event keeps the thread's lane.
    @inline(__always)
    mutating func record(_ thread: Int32, _ note: Note) {
        let lane = thread >= 0 && Int(thread) < threads.count ? threads[Int(thread)].lane : -1
        trace.append(RawEvent(time: now, lane: lane, note: note))
        // Folded away at the many call sites whose note is known not to be a warning.
        if note.isWarning { warnings += 1 }
        if state == .background && instants.last != now { instants.append(now) }
    }

    mutating func post(at time: Double, _ kind: SystemEvent.Kind) {
        events.post(SystemEvent(time: time, kind: kind))
    }

    mutating func terminate(_ reason: Reason) {
        guard outcome == nil else { return }
        record(-1, .terminated(reason))
        state = .terminated
        outcome = .terminated(reason, now)
    }

    mutating func crash(_ reason: Reason) {
        guard outcome == nil else { return }
        record(current, .crashed(reason))
        state = .terminated
        outcome = .crashed(reason, now)
    }

    /// The simulator's own limit this run has reached, if any (see `Machine.standardStepsWithoutTimePassingLimit`).
    /// Steps count toward the first limit only since the clock last moved, so the mark moves
    /// here whenever the clock has moved since it was taken.
    @inline(__always)
    mutating func reachedStepLimit() -> EngineLimit? {
        if now != progressInstant {
            progressInstant = now
            stepsAtProgress = steps
        }
        if steps - stepsAtProgress >= stepsWithoutTimePassingLimit {
            return .stepsWithoutTimePassing(steps: stepsWithoutTimePassingLimit)
        }
        if steps >= stepsInOneRunLimit { return .stepsInOneRun(steps: stepsInOneRunLimit) }
        return nil
    }

    /// Stops the run at one of the simulator's own limits: the run is undecided, neither a
    /// crash nor a termination, since the app did nothing wrong that the simulator knows of.
    mutating func giveUp(_ limit: EngineLimit) {
        guard outcome == nil else { return }
        record(current, .undecided(limit))
        outcome = .undecided(limit, now)
    }

    mutating func setState(_ new: AppState) {
        guard state != new else { return }
        let old = state
        state = new
        record(-1, .state(new))
        if new == .suspended { suspendedAt = now }
        if old == .suspended && new != .terminated && new != .notRunning { thawThreads() }
    }

    /// S7: suspension freezes every thread. Work under way when the app was suspended goes on
    /// now, for as long as it still had to run then: the time spent suspended does not count.
    private mutating func thawThreads() {
        let frozen = now - suspendedAt
        guard frozen > 0 else { return }
        for index in threads.indices where threads[index].wake > suspendedAt {
            threads[index].wake += frozen
        }
        thawWaitTimeouts(by: frozen)
    }

    // MARK: Threads

    mutating func enqueue(on queue: QueueRef, _ item: WorkItem) {
        switch queue {
        case .main: threads[0].pending.append(item)
        case let .named(index): threads[Int(namedQueueThread[Int(index)])].pending.append(item)
        case .global: spawnWorker(item, name: .global)
        }
    }

    mutating func spawnWorker(_ item: WorkItem, name: WorkerKind) {
        workerCount += 1
        // Reuse a finished worker's slot so long runs do not grow the thread list.
        for index in threads.indices where threads[index].finished {
            threads[index].finished = false
            threads[index].pending.removeAll(keepingCapacity: true)
            threads[index].pendingHead = 0
            threads[index].pending.append(item)
            threads[index].wake = now
            threads[index].blocked = .none
            threads[index].lane = Int32(laneNames.count)
            laneNames.append(.worker(name, workerCount))
            return
        }
        var thread = makeThread(lane: Int32(laneNames.count))
        thread.pending.append(item)
        thread.wake = now
        // Moved in, not copied: the list takes over its arrays.
        threads.append(consume thread)
        laneNames.append(.worker(name, workerCount))
    }

    /// A thread as `Thread(lane:)` would make it, reusing a spare one's storage when there is one.
    mutating func makeThread(lane: Int32) -> Thread {
        guard var thread = spareThreads.popLast() else { return Thread(lane: lane) }
        thread.lane = lane
        clear(&thread.pending)
        thread.pendingHead = 0
        clear(&thread.frames)
        clear(&thread.env)
        thread.wake = 0
        thread.blocked = .none
        thread.accumulator = .none
        thread.finished = false
        return thread
    }

    mutating func capture(_ thread: Int32, block: Int32) -> Captures {
        let count = Int(scenario.blocks[Int(block)].captured)
        guard count > 0, let frame = threads[Int(thread)].frames.last else { return .none }
        let origin = Int(frame.origin)
        let end = min(threads[Int(thread)].env.count, origin + count)
        let start = capturePool.count
        capturePool.append(contentsOf: threads[Int(thread)].env[origin..<end])
        return Captures(start: Int32(start), count: Int32(capturePool.count - start))
    }

    mutating func startItem(_ t: Int) {
        let item = threads[t].pending[threads[t].pendingHead]
        threads[t].pendingHead += 1
        if threads[t].pendingHead == threads[t].pending.count {
            clear(&threads[t].pending)
            threads[t].pendingHead = 0
        }
        // A suspended task's rest, queued back on main (see `resumeTask`).
        if item.block < 0 { resumeContinuation(-Int(item.block) - 1, thread: t); return }
        clear(&threads[t].env)
        // One by one: a block captures a handful of variables.
        for index in Int(item.captured.start)..<Int(item.captured.start + item.captured.count) {
            threads[t].env.append(capturePool[index])
        }
        let block = scenario.blocks[Int(item.block)]
        if block.parameters > 0 {
            cells.append(item.parameter)
            threads[t].env.append(Int32(cells.count - 1))
            for _ in 1..<Int(block.parameters) {
                cells.append(.none)
                threads[t].env.append(Int32(cells.count - 1))
            }
        }
        threads[t].frames.append(Frame(block: item.block, origin: 0, context: item.context, boundary: true))
        switch item.context {
        case let .expiryHandler(task):
            tasks[Int(task)].handlerRunning = true
            record(Int32(t), .handlerStarted(task: task))
            post(at: now + constants.expiryHandlerLimit, .handlerDeadline(task: task))
        case let .bgLaunch(index):
            bgTasks[Int(index)].launched = true
        case let .sessionEvents(delivery):
            objects.deliveries[Int(delivery)].eventsDelivered = true
        default: break
        }
    }

    /// Runs one statement of thread `t` (frame entries and exits are free).
    mutating func step(_ tIndex: Int32) {
        let t = Int(tIndex)
        var budget = 10_000
        while outcome == nil && budget > 0 {
            budget -= 1
            if threads[t].frames.isEmpty {
                guard threads[t].pendingHead < threads[t].pending.count else { return }
                startItem(t)
            }
            let frameIndex = threads[t].frames.count - 1
            let frame = threads[t].frames[frameIndex]
            let block = scenario.blocks[Int(frame.block)]
            if Int(frame.pc) >= block.statements.count {
                // Leaving a block is free in time but counts toward the step limits, so an empty
                // loop of a billion turns still stops.
                steps += 1
                popFrame(t)
                if reachedStepLimit() != nil { return }
                continue
            }
            steps += 1
            let statementIndex = block.statements[Int(frame.pc)]
            execute(statementIndex, thread: t, frameIndex: frameIndex)
            return
        }
    }

    mutating func popFrame(_ t: Int) {
        guard var frame = threads[t].frames.popLast() else { return }
        let block = scenario.blocks[Int(frame.block)]
        if frame.loopsLeft > 0 {
            frame.loopsLeft -= 1
            frame.pc = 0
            truncateEnv(t, to: Int(frame.origin + block.localsAtEntry))
            threads[t].frames.append(frame)
            return
        }
        truncateEnv(t, to: Int(frame.origin + block.localsAtEntry))
        // A frame pushed by a statement (call, branch, loop, lock) hands control back to it.
        if let parent = threads[t].frames.indices.last {
            threads[t].frames[parent].pc += 1
            threads[t].frames[parent].phase = 0
        }
        finish(frame.context, thread: t)
    }

    mutating func truncateEnv(_ t: Int, to length: Int) {
        if threads[t].env.count > length && length >= 0 {
            threads[t].env.removeLast(threads[t].env.count - length)
        }
    }

    /// A work item (or inline block) has finished: tell whoever was waiting for it.
    mutating func finish(_ context: Context, thread t: Int) {
        switch context {
        case .plain, .call, .branch, .willEnterForeground: break
        case .didFinishLaunching: finishLaunch()
        case .didEnterBackground:
            inDidEnterBackground = false
            checkSuspend()
        case let .expiryHandler(task):
            tasks[Int(task)].handlerRunning = false
            pendingHandlers -= 1
            if pendingHandlers == 0 { post(at: now, .roundCheck(round: round)) }
            checkSuspend()
        case .push, .bgLaunch, .bgExpiration, .sessionEvents: break
        case let .handleEvents(delivery):
            objects.deliveries[Int(delivery)].handleEventsReturned = true
            deliverSessionEvents(objects.deliveries[Int(delivery)].identifier)
        case .whileBody:
            // `popFrame` moved past the loop; the loop tests its condition again instead.
            if let parent = threads[t].frames.indices.last { threads[t].frames[parent].pc -= 1 }
        case let .activity(index, expired):
            if activities[Int(index)].active && (!expired || activities[Int(index)].expiredCalled) {
                activities[Int(index)].active = false
                activeActivities -= 1
                record(Int32(t), .activityEnded(activity: index))
                checkSuspend()
            }
        case let .sync(waiter):
            threads[Int(waiter)].blocked = .none
            threads[Int(waiter)].frames[threads[Int(waiter)].frames.count - 1].pc += 1
        case let .lock(lock):
            locks[Int(lock)] = -1
        }
        if threads[t].frames.isEmpty && threads[t].pendingHead >= threads[t].pending.count && t > scenario.queues.count {
            threads[t].finished = true
        }
    }
}
