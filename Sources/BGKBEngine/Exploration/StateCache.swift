/// The machine states an exploration has explored from, each with the most preemptions it still
/// had left there (state caching, as stateful model checkers do).
///
/// A run paused before a decision, in state `s` with `r` preemptions left, stands for every
/// schedule that goes on from `s` with at most `r` more preemptions: the run itself (its choices
/// from there on) and the children that deviate from it later. The explorer reaches such a
/// pause only after the run's last own choice, so all of them are explored from there (or the
/// exploration stops). Another run that reaches the same state with no more preemptions left has
/// no future the first did not have, so it is not explored further (`Result.equivalent`).
///
/// The state is everything the rest of a run and its verdict depend on (`Machine.fingerprint`):
/// the clock, the threads and their frames, the queues, the system's bookkeeping, the schedule's
/// budget, refusal and forced expiry, and the trace so far as an unordered collection of events
/// (expectations read which events happened and when, never their order in the log).
struct StateCache {
    private var remaining: [Machine.Fingerprint: Int] = [:]

    /// Whether `fingerprint` was explored already with at least `left` preemptions left; if not,
    /// it is recorded as explored with `left` (the caller explores it).
    mutating func isExplored(_ fingerprint: Machine.Fingerprint, left: Int) -> Bool {
        if let seen = remaining[fingerprint], seen >= left { return true }
        remaining[fingerprint] = left
        return false
    }

    var count: Int { remaining.count }
}

/// An unordered digest of trace events: the same events in any order give the same digest.
struct TraceDigest: Hashable {
    var count = 0
    var first: UInt64 = 0
    var second: UInt64 = 0

    mutating func add(_ event: RawEvent) {
        var a = Hasher()
        a.combine(event)
        var b = Hasher()
        b.combine(0x5bd1_e995 as UInt64)
        b.combine(event)
        first &+= UInt64(bitPattern: Int64(a.finalize()))
        second &+= UInt64(bitPattern: Int64(b.finalize()))
        count += 1
    }
}

extension Machine {
    /// A machine state as the state cache keys it, as stateful model checkers key theirs (SPIN's
    /// hash compaction, CHESS's fingerprints): a 64-bit hash of the whole state, with the clock,
    /// the step count and the number of events logged kept exactly, and a second, independent
    /// hash of the events. Two different states share a key only if both hashes collide at once
    /// (the hashes are of this process: the cache lives for one exploration).
    struct Fingerprint: Hashable {
        var now: Double
        var steps: Int
        var events: Int
        var state: Int
        var eventsAgain: UInt64
    }

    /// Stored properties `fingerprint` leaves out, and why: the scenario's own tables and the
    /// options (the same for every run of an exploration), the explorer's bookkeeping about the
    /// run (what it read, where it decided, its quiet times), which choices are still to come
    /// (the cached state stands for every one of them), and storage kept for reuse.
    /// `StateCacheTests` checks that every other stored property is one `fingerprint` hashes.
    static let notFingerprinted: Set<String> = [
        "scenario", "constants", "didFinishLaunchingHandler", "didEnterBackgroundHandler", "willEnterForegroundHandler",
        "remoteNotificationHandler", "timelineIdentifiers", "initialEvents", "initialCells", "statementTable", "blockLengths",
        "takesSilentExitsAtOnce", "takesHiddenStepsFirst", "dropsSettledRoundChecks", "quietDidEnterBackgroundExits",
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
        var hasher = Hasher()
        hashState(into: &hasher)
        return Fingerprint(now: now, steps: steps, events: trace.count, state: hasher.finalize(), eventsAgain: traceDigest.second)
    }

    private func hashState(into h: inout Hasher) {
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
        h.combine(workerCount)
        h.combine(laneNames)
        h.combine(current)
        h.combine(events.pending.count)
        for event in events.pending { h.combine(event) }
        h.combine(tasks)
        h.combine(outstanding)
        h.combine(periodStart)
        h.combine(periodExpired)
        h.combine(periodGeneration)
        h.combine(round)
        h.combine(pendingHandlers)
        h.combine(inDidEnterBackground)
        h.combine(suspendPending)
        h.combine(backgroundGeneration)
        h.combine(locks)
        h.combine(registrations)
        h.combine(requests)
        h.combine(pendingRequests)
        h.combine(bgTasks)
        h.combine(runningBGTasks)
        h.combine(pushes)
        h.combine(pendingPushes)
        h.combine(activities)
        h.combine(activeActivities)
        h.combine(objects)
        h.combine(traceDigest)
        h.combine(warnings)
        h.combine(outcome)
        h.combine(suspendedAt)
        h.combine(handlingForcedExpiry)
        h.combine(pendingDecision)
        // When the clock last moved, and at which step: how soon the no-progress limit comes.
        h.combine(progressInstant)
        h.combine(stepsAtProgress)
    }
}
