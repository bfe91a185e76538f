import BGKBModel

/// Runs a scenario across the schedules the system could choose: systematic first, then seeded
/// random ones. The systematic schedules are a stated space, covered whole unless `maxRuns` runs
/// out first (`Result.exhausted`): every budget in a small set (or the pinned one), every refusal
/// mode (or the pinned ones), no early expiry and an early expiry forced at every instant where
/// something happens in the background in the default run, and just before and after it; and
/// under each of those, every thread interleaving with at most `preemptionBound` preemptions.
/// Deterministic: the same scenario and options give the same runs in the same order.
public struct Explorer {
    public struct Options: Hashable, Sendable {
        /// Most preemptions in one systematic schedule, counted as CHESS counts them. At each
        /// decision the alternatives are the current thread, the other runnable threads and the
        /// system (a due event); the default is the current thread when it can go on. Picking
        /// another alternative while the current thread could go on (another thread, or the
        /// system handling an event first) is a preemption and counts one. When the current
        /// thread cannot go on (it finished, sleeps or waits), every pick is a switch it forced
        /// itself and counts nothing, so such switches are tried in every order.
        public var preemptionBound = 3
        public var randomSchedules = 48
        /// Budgets to try when the scenario does not pin one (the constants' own is added first).
        public var budgets: [Double] = [0, 1, 5, 30]
        /// Stop after this many schedules, so a pathological scenario cannot stall `bgkb check`:
        /// an exploration stopped so is not exhausted, and its verdict says so and fails.
        public var maxRuns = 20_000
        /// A run that reaches a state explored already with as many preemptions left or more is
        /// not explored further (`StateCache`): its futures were. False explores every schedule
        /// whole; tests compare the two (the same verdicts, the same outcomes).
        public var cachesStates = true
        /// With the cache on, `explore` first tries this many schedules without it: most spaces
        /// are covered in fewer, and hashing every paused state costs more than it saves there.
        /// A space it cannot cover is explored again from the start with the cache. The verdict is
        /// the same either way; the schedules it counts are those of the pass that decided.
        public var uncachedAttempt = 2_000
        /// A thread whose next step only leaves blocks that nothing observes takes that step at
        /// once instead of standing as a scheduling alternative (see `Machine.exitsSilently`).
        /// False restores the alternative: more schedules, the same runs; tests compare the two.
        public var takesSilentExitsAtOnce = true
        /// Partial-order reduction: a step hidden from the system and from other threads (see
        /// `Machine.systemHiding`) is taken before anything that could go first: the current
        /// thread takes it without a decision, and a due system event is not offered while every
        /// runnable thread's next step is hidden. False offers every alternative at every step:
        /// more schedules, the same ends; tests compare the two.
        public var takesHiddenStepsFirst = true
        /// A round's leak check that finds no leak is dropped instead of standing as a scheduling
        /// alternative at every step of its instant (see `Machine.isDead`): it would find none
        /// whenever it ran. False restores the alternative; tests compare the two.
        public var dropsSettledRoundChecks = true
        /// Leaving `applicationDidEnterBackground` counts as a silent exit while something else
        /// holds the app up and the handler's deadline is not due (see
        /// `Machine.didEnterBackgroundExitIsSilent`). False offers it as an alternative.
        public var takesQuietDidEnterBackgroundExitsAtOnce = true
        /// A schedule that deviates from its parent's at decision k runs the parent's run up to
        /// k exactly, so that part is simulated once per parent and copied into each such child
        /// (see `Machine.proceed(pausingAt:)`) instead of simulated again for every child. False
        /// runs every child from the start; tests compare the two.
        public var resumesChildrenFromTheirParent = true
        public init() {}
    }

    public struct Result: Sendable {
        /// How many schedules ran (systematic and random).
        public var runs: Int
        /// Events this exploration simulated (for the benchmark): the part of a resumed child's
        /// run copied from its parent's (`Options.resumesChildrenFromTheirParent`) counts once.
        public var events: Int
        /// The first failing schedule, in exploration order (fewest deviations first), and why.
        public var failure: (schedule: Schedule, reason: String)?
        /// True when `maxRuns` cut the exploration short.
        public var capped: Bool
        /// The systematic schedules explored (the rest of `runs` were random), not counting
        /// those left at an explored state (`equivalent`).
        public var systematicRuns = 0
        /// The systematic schedules were all visited and the random ones began.
        var reachedRandom = false
        /// Schedules left where their run reached a state explored already (`StateCache`).
        public var equivalent = 0
        /// The preemption bound of the stated space.
        public var bound = 0
        /// The stated space was covered whole, or the exploration stopped at a failure it was
        /// asked to stop at (a counterexample settles the question): not cut short by `maxRuns`.
        public var exhausted: Bool { !capped }
        /// Schedules among `runs` that repeat a run already made exactly (same refusal read, budget
        /// that could not matter), counted without being simulated again.
        public var covered = 0
        /// Events simulated again, not counted in `events`: a parent's run replayed to reach the
        /// decisions where its children deviate (breadth first, or a parent that was covered).
        public var replayedEvents = 0
        /// True when the depth-first pass (`explore(stopAtFirstFailure:likelyToPass:)`) gave this
        /// result; false when it was explored breadth first (asked so, or started over).
        public var depthFirst = false
        /// The nominal schedule's run (the first one explored) and the first failing run, kept as
        /// they ran, so a verdict draws them without running them again.
        public var nominalTrace: SimulationTrace?
        public var failureTrace: SimulationTrace?
    }

    /// What an explorer never changes, held once: an explorer is copied into each exploration
    /// and each visiting order, and a copy of it is then a reference, not a machine field by field.
    private final class Fixed {
        /// A machine of the explorer's scenario, constants and options that never runs: the others
        /// are made like it (`makeMachine`), so the scenario's tables are derived once per explorer.
        let template: Machine

        init(template: Machine) {
            self.template = template
        }
    }

    private let fixed: Fixed
    // The template's, read in place.
    var scenario: Scenario { _read { yield fixed.template.scenario } }
    var constants: SystemConstants { _read { yield fixed.template.constants } }
    /// The options the template was made with are fixed; the others (`cachesStates`, `maxRuns`
    /// and the exploration's bounds) may differ between copies of one explorer.
    private(set) var options: Options
    /// Where machines come from and go back to; nil makes every machine afresh (tests compare).
    var pool: MachinePool? = .shared

    public init(scenario: Scenario, constants: SystemConstants = .standard, options: Options = Options()) {
        self.options = options
        var template = Machine(scenario: scenario, constants: constants)
        template.takesSilentExitsAtOnce = options.takesSilentExitsAtOnce
        template.takesHiddenStepsFirst = options.takesHiddenStepsFirst
        template.dropsSettledRoundChecks = options.dropsSettledRoundChecks
        template.quietDidEnterBackgroundExits = options.takesQuietDidEnterBackgroundExitsAtOnce
        fixed = Fixed(template: template)
    }

    /// A machine per call (in its box), from the pool when it has one. `giveBack` returns it
    /// when the caller is done with it.
    func makeMachine() -> MachineBox {
        pool?.take(like: fixed.template) ?? MachineBox(fixed.template)
    }

    func giveBack(_ box: MachineBox) {
        pool?.give(box)
    }

    /// The run nobody interferes with: the scenario's own (or the standard) budget, no refusal,
    /// no early expiry, default interleaving.
    public var nominalSchedule: Schedule {
        Schedule(budget: scenario.conditions.budget ?? constants.backgroundTaskBudget,
                 refusal: scenario.conditions.refusal?.first ?? .none)
    }

    /// Runs one schedule and returns its trace (replays a printed schedule exactly).
    public func trace(_ schedule: Schedule) -> SimulationTrace {
        let box = makeMachine()
        defer { giveBack(box) }
        box.machine.run(schedule)
        return box.machine.materializedTrace
    }

    /// The exploration that checks an example of `intent`: to its first failure, depth first
    /// for an example that follows its rule (it should hold in every schedule). `check` and the
    /// benchmark's accounting explore this way. The nominal run's trace is kept only for an
    /// example that follows its rule: one that breaks it shows its counterexample, and its
    /// nominal run is made again in the rare case that none is found.
    public func explore(checking intent: Example.Intent) -> Result {
        explore(stopAtFirstFailure: true, likelyToPass: intent == .follows, keepsNominalTrace: intent == .follows)
    }

    /// How one schedule's run ends: `trace(schedule).outcome` without building the trace's words
    /// (the quiz asks this of every example under several conditions).
    public func outcome(_ schedule: Schedule) -> SimulationOutcome {
        let box = makeMachine()
        defer { giveBack(box) }
        box.machine.run(schedule)
        return box.machine.modelOutcome
    }

    /// Why this schedule fails the scenario's expectations, or nil when it does not.
    public func failure(_ schedule: Schedule) -> String? {
        let box = makeMachine()
        defer { giveBack(box) }
        box.machine.run(schedule)
        return box.machine.failedExpectation()
    }

    /// Explores until the first failure (`stopAtFirstFailure`) or the whole space.
    ///
    /// `likelyToPass` is a hint, not a question: say so when no failure is expected (an example
    /// that follows its rule). The schedules are then visited depth first, which runs each
    /// child from its parent's run as that run goes by, instead of replaying the parent to
    /// reach it. The verdict is the same either way; without the state cache the counts are too
    /// (with it, which of two runs that meet in one state goes on depends on the order). When the
    /// depth-first pass meets a failure, where the order of the runs decides which is reported,
    /// it is dropped and the exploration starts over breadth first (fewest choices first).
    /// `keepsNominalTrace`: whether `Result.nominalTrace` is made.
    public func explore(stopAtFirstFailure: Bool, likelyToPass: Bool = false, keepsNominalTrace: Bool = true) -> Result {
        let nominal = keepsNominalTrace ? nominalSchedule : nil
        if options.cachesStates && options.uncachedAttempt < options.maxRuns {
            var uncached = self
            uncached.options.cachesStates = false
            uncached.options.maxRuns = options.uncachedAttempt
            let attempt = uncached.exploreOnce(stopAtFirstFailure: stopAtFirstFailure, likelyToPass: likelyToPass, nominal: nominal)
            if attempt.exhausted { return attempt }
        }
        return exploreOnce(stopAtFirstFailure: stopAtFirstFailure, likelyToPass: likelyToPass, nominal: nominal)
    }

    /// One exploration with these options (see `explore`), keeping the trace of `nominal`.
    private func exploreOnce(stopAtFirstFailure: Bool, likelyToPass: Bool, nominal: Schedule?) -> Result {
        if likelyToPass && options.resumesChildrenFromTheirParent {
            var result = visitEverySchedule(ExploreVisitor(maxRuns: options.maxRuns, stopAtFirstFailure: true, nominal: nominal),
                                            depthFirst: true).result
            if result.failure == nil {
                result.depthFirst = true
                return settled(result)
            }
        }
        return settled(visitEverySchedule(ExploreVisitor(maxRuns: options.maxRuns, stopAtFirstFailure: stopAtFirstFailure,
                                                         nominal: nominal)).result)
    }

    /// `result` with its bound, and its systematic count when it stopped before the random
    /// schedules.
    private func settled(_ result: Result) -> Result {
        var result = result
        result.bound = options.preemptionBound
        if !result.reachedRandom { result.systematicRuns = result.runs }
        return result
    }

    /// Explores the whole space, past any failure, breadth first (or depth first when
    /// `depthFirst`), and says every distinct way its runs end (outcome and failed expectation):
    /// tests compare the state cache and the partial-order reductions with the exploration
    /// without them by these.
    public func reachableOutcomes(depthFirst: Bool = false) -> (outcomes: Set<ReachedEnd>, result: Result) {
        let visitor = OutcomeVisitor(inner: ExploreVisitor(maxRuns: options.maxRuns, stopAtFirstFailure: false, nominal: nominalSchedule))
        let visited = visitEverySchedule(visitor, depthFirst: depthFirst && options.resumesChildrenFromTheirParent)
        return (visited.outcomes, settled(visited.inner.result))
    }

    /// The first explored schedule whose trace satisfies `predicate` (tests use it to show that
    /// the explorer finds a specific failure on its own).
    public func firstTrace(where predicate: (SimulationTrace) -> Bool) -> SimulationTrace? {
        withoutActuallyEscaping(predicate) { predicate in
            visitEverySchedule(FirstTraceVisitor(maxRuns: options.maxRuns, predicate: predicate)).found
        }
    }

    /// The first explored schedule whose run fails the scenario's expectations and whose trace
    /// satisfies `predicate`; runs that hold are not made into traces (`bgkb scan` asks for every
    /// rule a scenario breaks this way).
    public func firstFailingTrace(where predicate: (SimulationTrace) -> Bool) -> SimulationTrace? {
        withoutActuallyEscaping(predicate) { predicate in
            visitEverySchedule(FirstFailingTraceVisitor(maxRuns: options.maxRuns, predicate: predicate)).found
        }
    }

    /// For tests of the memo: explores the whole space, also runs every schedule it covered, and
    /// describes each one whose run differs (events, outcome or decisions) from the run it was
    /// counted as. Empty when the memo is exact.
    public func reuseMismatches() -> [String] {
        visitEverySchedule(MismatchVisitor(maxRuns: options.maxRuns, other: makeMachine().machine)).mismatches
    }

    /// Reports every schedule, in exploration order, to `visitor` until it stops; returns it.
    private func visitEverySchedule<Visitor: ScheduleVisitor>(_ visitor: Visitor, depthFirst: Bool = false) -> Visitor {
        var exploration = Exploration(self, visitor: visitor)
        let box = makeMachine()
        exploration.run(self, on: &box.machine, depthFirst: depthFirst)
        giveBack(box)
        return exploration.visitor
    }

    /// The budgets to try: the pinned one, or the constants' own and then the options'.
    var budgets: [Double] {
        if let pinned = scenario.conditions.budget { return [pinned] }
        var list = [constants.backgroundTaskBudget]
        for budget in options.budgets where !list.contains(budget) { list.append(budget) }
        return list
    }

    /// The refusals to try: the pinned ones, or every mode.
    var refusals: [Conditions.Refusal] {
        scenario.conditions.refusal ?? [.none, .returnsInvalid, .callsExpirationHandler]
    }
}
