import BGKBModel

/// BGContinuedProcessingTask, iOS 26 (SIMULATION.md S19): submitted from the foreground, started
/// at once when the system can run it (else failed with `.fail`, queued with `.queue`), kept
/// running in the background, expected to report progress (one that reports none for
/// `continuedProgressLimit` is expired), and completed with `setTaskCompleted` as other BGTasks.
extension Machine {
    /// Whether `identifier` is `pattern`, or `pattern` ends in `.*` and `identifier` starts with
    /// what comes before the `*`.
    func identifier(_ identifier: Int32, matches pattern: Int32) -> Bool {
        if identifier == pattern { return true }
        let text = string(pattern)
        guard text.hasSuffix(".*") else { return false }
        let candidate = string(identifier)
        return candidate.count > text.count - 1 && candidate.hasPrefix(String(text.dropLast()))
    }

    /// A continued processing identifier: a wildcard pattern, or one Info.plist permits through one.
    func isContinuedIdentifier(_ identifier: Int32) -> Bool {
        if string(identifier).hasSuffix(".*") { return true }
        return scenario.permittedIdentifiers?.contains { $0 != identifier && self.identifier(identifier, matches: $0) } ?? false
    }

    mutating func submitContinued(_ index: Int32, thread t: Int) {
        let lane = Int32(t)
        let request = requests[Int(index)]
        if !permitted(request.identifier) {
            record(lane, .submitFailed(request: index, error: .notPermitted)); return
        }
        guard state == .foreground else {
            record(lane, .objects(.continuedFromBackground(request: index))); return
        }
        let runsNow: Bool
        if let pinned = scenario.conditions.continuedRunsNow {
            runsNow = pinned
        } else {
            // Whether the system can run it now is explored as the refusal is.
            refusalRead = true
            runsNow = schedule.refusal == .none
        }
        if runsNow {
            record(lane, .submitted(request: index))
            startContinued(index)
            return
        }
        let fail = objects.continuedRequests.first { $0.request == index }?.fail ?? false
        if fail {
            record(lane, .submitFailed(request: index, error: .immediateRunIneligible))
        } else {
            pendingRequests.removeAll { requests[Int($0)].identifier == request.identifier }
            pendingRequests.append(index)
            record(lane, .objects(.continuedQueued(request: index)))
        }
    }

    /// A queued continued request the timeline's `system launches "id"` starts. False: none.
    mutating func startQueuedContinued(_ identifier: Int32) -> Bool {
        guard identifier >= 0,
              let position = pendingRequests.firstIndex(where: { requests[Int($0)].identifier == identifier && objects.isContinued(request: $0) }) else {
            return false
        }
        guard state != .terminated, state != .notRunning else { return false }
        let request = pendingRequests.remove(at: position)
        _ = wakeForBackgroundWork(.timeline(-1))
        startContinued(request)
        return true
    }

    private mutating func startContinued(_ request: Int32) {
        let identifier = requests[Int(request)].identifier
        bgTasks.append(BGTaskState(identifier: identifier, processing: false))
        let index = Int32(bgTasks.count - 1)
        objects.continuedTasks.append(MachineObjects.ContinuedTask(task: index, lastProgress: now))
        runningBGTasks += 1
        record(-1, .bgLaunched(task: index))
        guard let registration = registrations.first(where: { self.identifier(identifier, matches: $0.identifier) }) else {
            crash(.noLaunchHandler(identifier: identifier))
            return
        }
        bgTasks[Int(index)].queue = registration.queue
        let item = WorkItem(block: registration.block, captured: registration.captured, parameter: .task(index), context: .bgLaunch(index))
        if let queue = registration.queue { enqueue(on: queue, item) } else { spawnWorker(item, name: .bgTaskScheduler) }
        post(at: now + constants.continuedProgressLimit, .continuedStallCheck(index))
    }

    /// A task that has reported no progress for `continuedProgressLimit` is expired.
    mutating func continuedStallCheck(_ task: Int32) {
        guard !bgTasks[Int(task)].completed, !bgTasks[Int(task)].expiring,
              let continued = objects.continuedTasks.first(where: { $0.task == task }) else { return }
        let due = continued.lastProgress + constants.continuedProgressLimit
        if due > now {
            post(at: due, .continuedStallCheck(task))
            return
        }
        record(-1, .objects(.continuedStalled(task: task)))
        expireBGTask(task)
    }
}
