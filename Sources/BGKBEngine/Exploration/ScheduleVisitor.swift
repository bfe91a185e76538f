import BGKBModel

/// What an exploration reports each schedule to: a generic parameter of `Exploration`, so each
/// caller's counting is specialised in place.
protocol ScheduleVisitor {
    /// Runs `schedule` on `machine` (`start` makes the run: from the start, or resumed from its
    /// parent's); false stops the exploration at once.
    mutating func run(_ machine: inout Machine, _ schedule: Schedule, start: (inout Machine) -> Void) -> Bool
    /// Counts a schedule (built by `schedule`) that repeats the run of `repeats` without
    /// simulating it; false stops the exploration at once.
    mutating func covered(_ schedule: () -> Schedule, repeats: Schedule) -> Bool
    var stop: Bool { get }
    /// Most schedules to count before stopping.
    var maxRuns: Int { get set }
    /// Events simulated again to reach children's decisions (`Result.replayedEvents`).
    mutating func noteReplayed(_ events: Int)
    /// Whether a schedule whose run reaches an explored state (`StateCache`) may go unreported:
    /// true for a visitor that asks what the runs can end in; false for one that wants every
    /// schedule's own run.
    static var skipsEquivalentRuns: Bool { get }
    /// A schedule was left at an explored state: its outcomes are among those explored from it.
    mutating func equivalent()
    /// The systematic schedules are done; random ones follow.
    mutating func systematicDone()
}

extension ScheduleVisitor {
    static var skipsEquivalentRuns: Bool { false }
    mutating func noteReplayed(_ events: Int) {}
    mutating func equivalent() {}
    mutating func systematicDone() {}
}

struct ExploreVisitor: ScheduleVisitor {
    var maxRuns: Int
    let stopAtFirstFailure: Bool
    /// Level 0 runs it first; its trace is kept (`Result.nominalTrace`). Nil keeps none.
    let nominal: Schedule?
    var result = Explorer.Result(runs: 0, events: 0, failure: nil, capped: false, covered: 0)
    var stop = false
    /// `result.nominalTrace` and `result.failure` are set.
    var keptNominal = false
    var failed = false

    init(maxRuns: Int, stopAtFirstFailure: Bool, nominal: Schedule?) {
        self.maxRuns = maxRuns
        self.stopAtFirstFailure = stopAtFirstFailure
        self.nominal = nominal
    }

    mutating func run(_ machine: inout Machine, _ schedule: Schedule, start: (inout Machine) -> Void) -> Bool {
        if result.runs >= maxRuns { result.capped = true; stop = true; return false }
        start(&machine)
        // The first run breadth first; depth first, it finishes after its children.
        if !keptNominal && schedule == nominal {
            keptNominal = true
            result.nominalTrace = machine.materializedTrace
        }
        result.runs += 1
        // What this run simulated: not the part copied from its parent's.
        result.events += machine.trace.count - machine.inheritedEvents
        if !failed, let reason = machine.failedExpectation() {
            failed = true
            result.failure = (machine.schedule, reason)
            result.failureTrace = machine.materializedTrace
            if stopAtFirstFailure { stop = true }
        }
        return true
    }

    mutating func noteReplayed(_ events: Int) {
        result.replayedEvents += events
    }

    static var skipsEquivalentRuns: Bool { true }

    mutating func equivalent() {
        result.equivalent += 1
    }

    mutating func systematicDone() {
        result.systematicRuns = result.runs
        result.reachedRandom = true
    }

    mutating func covered(_ schedule: () -> Schedule, repeats: Schedule) -> Bool {
        if result.runs >= maxRuns { result.capped = true; stop = true; return false }
        // The run it repeats passed, or the exploration would have stopped (or already holds
        // its failure): only the count changes.
        result.runs += 1
        result.covered += 1
        return true
    }
}

struct FirstTraceVisitor: ScheduleVisitor {
    var maxRuns: Int
    let predicate: (SimulationTrace) -> Bool
    var found: SimulationTrace?
    var runs = 0
    var stop: Bool { found != nil || runs >= maxRuns }

    mutating func run(_ machine: inout Machine, _ schedule: Schedule, start: (inout Machine) -> Void) -> Bool {
        guard runs < maxRuns else { return false }
        runs += 1
        start(&machine)
        let trace = machine.materializedTrace
        if predicate(trace) { found = trace }
        return true
    }

    mutating func covered(_ schedule: () -> Schedule, repeats: Schedule) -> Bool {
        // The run it repeats did not satisfy the predicate, or the search would have stopped.
        guard runs < maxRuns else { return false }
        runs += 1
        return true
    }
}

/// `FirstTraceVisitor` for failing runs only: a run that holds every expectation is not made
/// into a trace, which is most of the cost of a run.
struct FirstFailingTraceVisitor: ScheduleVisitor {
    var maxRuns: Int
    let predicate: (SimulationTrace) -> Bool
    var found: SimulationTrace?
    var runs = 0
    var stop: Bool { found != nil || runs >= maxRuns }

    mutating func run(_ machine: inout Machine, _ schedule: Schedule, start: (inout Machine) -> Void) -> Bool {
        guard runs < maxRuns else { return false }
        runs += 1
        start(&machine)
        guard machine.failedExpectation() != nil else { return true }
        let trace = machine.materializedTrace
        if predicate(trace) { found = trace }
        return true
    }

    mutating func covered(_ schedule: () -> Schedule, repeats: Schedule) -> Bool {
        guard runs < maxRuns else { return false }
        runs += 1
        return true
    }
}

struct MismatchVisitor: ScheduleVisitor {
    var maxRuns: Int
    var other: Machine
    var mismatches: [String] = []
    var runs = 0
    var stop: Bool { runs >= maxRuns }

    init(maxRuns: Int, other: Machine) {
        self.maxRuns = maxRuns
        self.other = other
    }

    mutating func run(_ machine: inout Machine, _ schedule: Schedule, start: (inout Machine) -> Void) -> Bool {
        guard runs < maxRuns else { return false }
        runs += 1
        start(&machine)
        return true
    }

    mutating func covered(_ schedule: () -> Schedule, repeats: Schedule) -> Bool {
        guard runs < maxRuns else { return false }
        runs += 1
        let schedule = schedule()
        other.run(repeats)
        let expected = (other.materializedTrace, other.decisions)
        other.run(schedule)
        let actual = (other.materializedTrace, other.decisions)
        if expected.0.events != actual.0.events || expected.0.outcome != actual.0.outcome || expected.1 != actual.1 {
            mismatches.append("[\(schedule)] was counted as [\(repeats)] but runs differently")
        }
        return true
    }
}

/// How one run ended: its outcome, and the expectation it failed (nil when it held).
public struct ReachedEnd: Hashable, Sendable {
    public var outcome: SimulationOutcome
    public var failure: String?
}

/// `ExploreVisitor` over the whole space, also keeping every distinct end (tests compare the
/// reductions by them). A run left at an explored state adds none: its outcomes are those of the
/// runs explored from that state.
struct OutcomeVisitor: ScheduleVisitor {
    var inner: ExploreVisitor
    var outcomes = Set<ReachedEnd>()
    static var skipsEquivalentRuns: Bool { true }
    var stop: Bool { inner.stop }
    var maxRuns: Int {
        get { inner.maxRuns }
        set { inner.maxRuns = newValue }
    }

    mutating func run(_ machine: inout Machine, _ schedule: Schedule, start: (inout Machine) -> Void) -> Bool {
        guard inner.run(&machine, schedule, start: start) else { return false }
        outcomes.insert(ReachedEnd(outcome: machine.modelOutcome, failure: machine.failedExpectation()))
        return true
    }

    mutating func covered(_ schedule: () -> Schedule, repeats: Schedule) -> Bool {
        inner.covered(schedule, repeats: repeats)
    }

    mutating func noteReplayed(_ events: Int) { inner.noteReplayed(events) }
    mutating func equivalent() { inner.equivalent() }
    mutating func systematicDone() { inner.systematicDone() }
}
