import BGKBModel

/// A machine state as the state cache (`StateCache`) keys it, as stateful model checkers key
/// theirs (SPIN's hash compaction, CHESS's fingerprints): a 64-bit hash of the whole state, with
/// the clock, the step count and the number of events logged kept exactly, and a second,
/// independent hash of the events. Two different states share a key only if both hashes collide
/// at once.
///
/// The hashes are the project's stable hash (`StableHash`), not Swift's `Hasher`, which is seeded
/// anew in every process: with it, two states that collided in one process and not in another
/// would give the same example different schedule counts from one run of `bgkb` to the next.
/// Every value is fed field by field, in a fixed order, each integer as its bytes.
extension Machine {
    struct Fingerprint: Hashable {
        var now: Double
        var steps: Int
        var events: Int
        var state: UInt64
        var eventsAgain: UInt64
    }

    /// Stored properties `fingerprint` leaves out, and why: the scenario's own tables and the
    /// options (the same for every run of an exploration), the explorer's bookkeeping about the
    /// run (what it read, where it decided, its quiet times), which choices are still to come
    /// (the cached state stands for every one of them), and storage kept for reuse.
    /// `StateCacheTests` checks that every other stored property is one `fingerprint` hashes.
    static let notFingerprinted: Set<String> = [
        "setup", "takesSilentExitsAtOnce", "takesHiddenStepsFirst", "dropsSettledRoundChecks", "quietDidEnterBackgroundExits",
        "generator", "choiceCursor", "spareThreads", "inheritedEvents", "decisions", "preemptible", "instants",
        "refusalRead", "budgetMatters", "budgetFloor", "forcedPeriodStart", "otherPeriodsFloor", "quietIntervals",
        "stepsWithoutTimePassingLimit", "stepsInOneRunLimit",
    ]

    /// The stored properties `fingerprint` hashes (`trace` through `traceDigest`, `schedule`
    /// through its budget, refusal and forced expiry).
    static let fingerprinted: Set<String> = [
        "didEnterBackgroundDeadline", "schedule", "now", "state", "launchPhaseOver", "launchedByUser", "backgroundAfterLaunch",
        "deliverAfterLaunch", "cells", "threads", "capturePool", "namedQueueThread", "workerCount", "laneNames", "current",
        "events", "tasks", "outstanding", "periodStart", "periodExpired", "periodGeneration", "round", "pendingHandlers",
        "inDidEnterBackground", "suspendPending", "backgroundGeneration", "locks", "registrations", "requests",
        "pendingRequests", "bgTasks", "runningBGTasks", "pushes", "pendingPushes", "activities", "activeActivities",
        "objects", "trace", "traceDigest", "warnings", "outcome", "suspendedAt", "steps", "handlingForcedExpiry",
        "pendingDecision", "progressInstant", "stepsAtProgress",
    ]

    /// The state the rest of the run depends on (see `StateCache`). Brings `traceDigest` up to
    /// date with the trace first.
    mutating func fingerprint() -> Fingerprint {
        while traceDigest.count < trace.count { traceDigest.add(trace[traceDigest.count]) }
        var h = StableHash()
        hashState(into: &h)
        return Fingerprint(now: now, steps: steps, events: trace.count, state: h.value, eventsAgain: traceDigest.second)
    }

    private func hashState(into h: inout StableHash) {
        h.combine(didEnterBackgroundDeadline)
        h.combine(schedule.budget)
        h.combine(schedule.refusal)
        h.combine(schedule.forcedExpiry)
        h.combine(state)
        h.combine(launchPhaseOver)
        h.combine(launchedByUser)
        h.combine(backgroundAfterLaunch)
        h.combine(deliverAfterLaunch)
        h.combine(cells)
        h.combine(threads)
        h.combine(capturePool)
        h.combine(namedQueueThread)
        h.combine(integer: workerCount)
        h.combine(laneNames)
        h.combine(integer: current)
        h.combine(integer: events.pending.count)
        for event in events.pending { h.combine(event) }
        h.combine(tasks)
        h.combine(integer: outstanding)
        h.combine(periodStart)
        h.combine(periodExpired)
        h.combine(integer: periodGeneration)
        h.combine(integer: round)
        h.combine(integer: pendingHandlers)
        h.combine(inDidEnterBackground)
        h.combine(suspendPending)
        h.combine(integer: backgroundGeneration)
        h.combine(locks)
        h.combine(registrations)
        h.combine(requests)
        h.combine(pendingRequests)
        h.combine(bgTasks)
        h.combine(integer: runningBGTasks)
        h.combine(pushes)
        h.combine(integer: pendingPushes)
        h.combine(activities)
        h.combine(integer: activeActivities)
        h.combine(objects)
        h.combine(integer: traceDigest.count)
        h.combine(integer: traceDigest.first)
        h.combine(integer: traceDigest.second)
        h.combine(integer: warnings)
        h.combine(outcome)
        h.combine(suspendedAt)
        h.combine(handlingForcedExpiry)
        h.combine(pendingDecision)
        // When the clock last moved, and at which step: how soon the no-progress limit comes.
        h.combine(progressInstant)
        h.combine(integer: stepsAtProgress)
    }
}

/// An unordered digest of trace events: the same events in any order give the same digest (the
/// sum of each event's hash, under two different starting states).
struct TraceDigest: Hashable {
    var count = 0
    var first: UInt64 = 0
    var second: UInt64 = 0

    mutating func add(_ event: RawEvent) {
        var a = StableHash()
        a.combine(event)
        var b = StableHash()
        b.combine(integer: 0x5bd1_e995 as UInt64)
        b.combine(event)
        first &+= a.value
        second &+= b.value
        count += 1
    }
}

/// A part of a machine's state, fed to a stable hash field by field.
protocol StateHashable {
    func hash(into h: inout StableHash)
}

extension StableHash {
    mutating func combine(_ value: some StateHashable) { value.hash(into: &self) }

    mutating func combine(_ value: Bool) { combine(integer: value ? 1 as UInt8 : 0) }

    /// Zero of either sign as one value, as `==` has it.
    mutating func combine(_ value: Double) { combine(integer: value == 0 ? 0 : value.bitPattern) }

    mutating func combine(_ value: Double?) {
        combine(value != nil)
        if let value { combine(value) }
    }

    mutating func combine(_ value: Int32?) {
        combine(value != nil)
        if let value { combine(integer: value) }
    }

    mutating func combine(_ value: (some StateHashable)?) {
        combine(value != nil)
        if let value { value.hash(into: &self) }
    }

    /// The count, then each element.
    mutating func combine(_ values: some Collection<some StateHashable>) {
        combine(integer: values.count)
        for value in values { value.hash(into: &self) }
    }

    mutating func combine(_ values: [Int32]) {
        combine(integer: values.count)
        for value in values { combine(integer: value) }
    }

    mutating func combine(_ values: [Int]) {
        combine(integer: values.count)
        for value in values { combine(integer: value) }
    }

    mutating func combine(_ values: [Bool]) {
        combine(integer: values.count)
        for value in values { combine(value) }
    }

    /// A case's number, for enums: fixed by the order of the `switch` that calls it.
    mutating func combine(tag: UInt8) { combine(integer: tag) }
}
