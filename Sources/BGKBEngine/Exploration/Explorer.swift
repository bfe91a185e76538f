import BGKBModel

/// Runs a scenario across the schedules the system could choose: systematic first (every
/// budget in a small set, with and without refusal, expiry forced at every instant where
/// something happens in the background and just before and after it, and thread interleavings
/// with at most `preemptionBound` non-default choices, CHESS-style), then seeded random ones.
/// Deterministic: the same scenario and options give the same runs in the same order.
public struct Explorer {
    public struct Options: Hashable, Sendable {
        /// Most non-default scheduling choices in one systematic schedule (1–2 finds most races).
        public var preemptionBound = 2
        public var randomSchedules = 48
        /// Budgets to try when the scenario does not pin one (the constants' own is added first).
        public var budgets: [Double] = [0, 1, 5, 30]
        /// Stop after this many runs, so a pathological scenario cannot stall `bgkb check`.
        public var maxRuns = 4000
        public init() {}
    }

    public struct Result: Sendable {
        /// How many schedules ran.
        public var runs: Int
        /// Simulated events across all runs (for the benchmark).
        public var events: Int
        /// The first failing schedule, in exploration order (fewest deviations first), and why.
        public var failure: (schedule: Schedule, reason: String)?
        /// True when `maxRuns` cut the exploration short.
        public var capped: Bool
    }

    let scenario: Scenario
    let constants: SystemConstants
    let options: Options

    public init(scenario: Scenario, constants: SystemConstants = .standard, options: Options = Options()) {
        self.scenario = scenario
        self.constants = constants
        self.options = options
    }

    /// A fresh machine per call: a local value, so its mutations need no runtime exclusivity checks.
    private func makeMachine() -> Machine {
        Machine(scenario: scenario, constants: constants)
    }

    /// The run nobody interferes with: the scenario's own (or the standard) budget, no refusal,
    /// no early expiry, default interleaving.
    public var nominalSchedule: Schedule {
        Schedule(budget: scenario.conditions.budget ?? constants.backgroundTaskBudget,
                 refusal: scenario.conditions.refusal?.first ?? .none)
    }

    /// Runs one schedule and returns its trace (replays a printed schedule exactly).
    public func trace(_ schedule: Schedule) -> SimulationTrace {
        var machine = makeMachine()
        machine.run(schedule)
        return machine.materializedTrace
    }

    /// Why this schedule fails the scenario's expectations, or nil when it does not.
    public func failure(_ schedule: Schedule) -> String? {
        var machine = makeMachine()
        machine.run(schedule)
        return machine.failedExpectation()
    }

    /// Explores until the first failure (`stopAtFirstFailure`) or the whole space.
    public func explore(stopAtFirstFailure: Bool) -> Result {
        var result = Result(runs: 0, events: 0, failure: nil, capped: false)
        var stop = false
        func run(_ machine: inout Machine, _ schedule: Schedule) -> Bool {
            if result.runs >= options.maxRuns { result.capped = true; stop = true; return false }
            machine.run(schedule)
            result.runs += 1
            result.events += machine.trace.count
            if result.failure == nil, let reason = machine.failedExpectation() {
                result.failure = (machine.schedule, reason)
                if stopAtFirstFailure { stop = true }
            }
            return true
        }
        var machine = makeMachine()
        forEachSchedule(&machine, run: run, stop: { stop })
        return result
    }

    /// The first explored schedule whose trace satisfies `predicate` (tests use it to show that
    /// the explorer finds a specific failure on its own).
    public func firstTrace(where predicate: (SimulationTrace) -> Bool) -> SimulationTrace? {
        var found: SimulationTrace?
        var runs = 0
        var machine = makeMachine()
        forEachSchedule(&machine, run: { machine, schedule in
            guard runs < options.maxRuns else { return false }
            runs += 1
            machine.run(schedule)
            let trace = machine.materializedTrace
            if predicate(trace) { found = trace }
            return true
        }, stop: { found != nil || runs >= options.maxRuns })
        return found
    }

    private var budgets: [Double] {
        if let pinned = scenario.conditions.budget { return [pinned] }
        var list = [constants.backgroundTaskBudget]
        for budget in options.budgets where !list.contains(budget) { list.append(budget) }
        return list
    }

    private var refusals: [Conditions.Refusal] {
        scenario.conditions.refusal ?? [.none, .returnsInvalid, .callsExpirationHandler]
    }

    /// Calls `run` on every schedule in exploration order; `run` returns false to stop at once.
    /// The decisions each run met (read from `machine`) are copied into a pool per level, so the
    /// machine keeps its own buffer rather than allocating a new one for every run.
    private func forEachSchedule(_ machine: inout Machine, run: (inout Machine, Schedule) -> Bool, stop: () -> Bool) {
        // Level 0: every system configuration with the default interleaving.
        var frontier: [(Schedule, Range<Int>)] = []
        var pool: [UInt8] = []
        func keep(_ decisions: [UInt8], in pool: inout [UInt8]) -> Range<Int> {
            let start = pool.count
            pool.append(contentsOf: decisions)
            return start..<pool.count
        }
        for refusal in refusals {
            for budget in budgets {
                let base = Schedule(budget: budget, refusal: refusal)
                guard run(&machine, base) else { return }
                if stop() { return }
                frontier.append((base, keep(machine.decisions, in: &pool)))
                guard !scenario.conditions.expiryOnlyAtEnd else { continue }
                var candidates: [Double] = []
                for instant in machine.instants {
                    for t in [instant - 0.001, instant, instant + 0.001] where t >= 0 && !candidates.contains(t) {
                        candidates.append(t)
                    }
                }
                for t in candidates {
                    var schedule = base
                    schedule.forcedExpiry = t
                    guard run(&machine, schedule) else { return }
                    if stop() { return }
                    frontier.append((schedule, keep(machine.decisions, in: &pool)))
                }
            }
        }
        // Levels 1...bound: one more non-default choice, after the last one already made.
        if options.preemptionBound > 0 {
            for _ in 1...options.preemptionBound {
                var next: [(Schedule, Range<Int>)] = []
                var nextPool: [UInt8] = []
                for (schedule, range) in frontier {
                    let start = Int(schedule.choices.last?.index ?? -1) + 1
                    guard start < range.count else { continue }
                    for index in start..<range.count where pool[range.lowerBound + index] > 1 {
                        for alternative in 1..<pool[range.lowerBound + index] {
                            var child = schedule
                            child.choices.append(.init(index: Int32(index), choice: alternative))
                            guard run(&machine, child) else { return }
                            if stop() { return }
                            next.append((child, keep(machine.decisions, in: &nextPool)))
                        }
                    }
                }
                frontier = next
                pool = nextPool
                if frontier.isEmpty { break }
            }
        }
        // Seeded random schedules on top.
        var generator = SeededGenerator(seed: stableHash(scenario.lines.joined(separator: "\n")))
        let horizon = (machine.instants.last ?? 30) + 1
        for _ in 0..<options.randomSchedules {
            let seed = generator.next()
            let budgetList = budgets
            var schedule = Schedule(budget: budgetList[Int(generator.next() % UInt64(budgetList.count))],
                                    refusal: refusals[Int(generator.next() % UInt64(refusals.count))], seed: seed)
            if !scenario.conditions.expiryOnlyAtEnd && generator.next() % 2 == 0 {
                schedule.forcedExpiry = Double(generator.next() % 1_000_000) / 1_000_000 * horizon
            }
            guard run(&machine, schedule) else { return }
            if stop() { return }
        }
    }
}
