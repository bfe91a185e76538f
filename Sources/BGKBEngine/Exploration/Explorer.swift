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
        /// Schedules among `runs` that repeat a run already made exactly (same refusal read, budget
        /// that could not matter), counted without being simulated again.
        public var covered = 0
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
        var result = Result(runs: 0, events: 0, failure: nil, capped: false, covered: 0)
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
        func covered(_ schedule: Schedule, repeats: Schedule) -> Bool {
            if result.runs >= options.maxRuns { result.capped = true; stop = true; return false }
            // The run it repeats passed, or the exploration would have stopped (or already holds
            // its failure): only the count changes.
            result.runs += 1
            result.covered += 1
            return true
        }
        var machine = makeMachine()
        forEachSchedule(&machine, run: run, covered: covered, stop: { stop })
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
        }, covered: { _, _ in
            // The run it repeats did not satisfy the predicate, or the search would have stopped.
            guard runs < options.maxRuns else { return false }
            runs += 1
            return true
        }, stop: { found != nil || runs >= options.maxRuns })
        return found
    }

    /// For tests of the memo: explores the whole space, also runs every schedule it covered, and
    /// describes each one whose run differs (events, outcome or decisions) from the run it was
    /// counted as. Empty when the memo is exact.
    public func reuseMismatches() -> [String] {
        var mismatches: [String] = []
        var runs = 0
        var other = makeMachine()
        var machine = makeMachine()
        forEachSchedule(&machine, run: { machine, schedule in
            guard runs < options.maxRuns else { return false }
            runs += 1
            machine.run(schedule)
            return true
        }, covered: { schedule, repeats in
            guard runs < options.maxRuns else { return false }
            runs += 1
            other.run(repeats)
            let expected = (other.materializedTrace, other.decisions)
            other.run(schedule)
            let actual = (other.materializedTrace, other.decisions)
            if expected.0.events != actual.0.events || expected.0.outcome != actual.0.outcome || expected.1 != actual.1 {
                mismatches.append("[\(schedule)] was counted as [\(repeats)] but runs differently")
            }
            return true
        }, stop: { runs >= options.maxRuns })
        return mismatches
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

    /// What the explorer remembers of a run, to cover the schedules that would repeat it.
    private struct Memo {
        struct Entry {
            var refusal: Conditions.Refusal
            var budget: Double
            var refusalRead: Bool
            /// nil: the budget mattered, so only this budget gives this run.
            var budgetFloor: Double?
            var decisions: Range<Int>
            var instants: Range<Int>
            /// Unforced runs only: their quiet intervals (`Machine.quietIntervals`) in `quietPool`.
            var quiet: Range<Int>
            /// The schedule that ran (for `reuseMismatches`).
            var schedule: Schedule
        }
        /// Entries by the rest of their schedule (forced expiry and choices), as a number: see
        /// `key(forced:)` and `key(parent:index:choice:)`.
        var byKey: [Int: [Entry]] = [:]
        var forcedKeys: [Double: Int] = [:]
        var childKeys: [ChildKey: Int] = [:]
        var nextKey = 1
        /// For each key, the key of the same choices without the forced expiry (itself when
        /// there is none).
        var unforced: [Int] = [0]

        struct ChildKey: Hashable {
            var parent: Int
            var index: Int32
            var choice: UInt8
        }

        /// An earlier run of the same rest that this refusal and budget would repeat exactly: it
        /// never read the refusal (or had the same one), and its budget never mattered and this
        /// one's event would come due only after every period was over (or it had the same one).
        func match(_ key: Int, refusal: Conditions.Refusal, budget: Double) -> Entry? {
            guard let entries = byKey[key] else { return nil }
            for entry in entries where entry.refusal == refusal || !entry.refusalRead {
                if entry.budget == budget { return entry }
                // The margin keeps float rounding in `start + budget` from deciding a tie.
                if let floor = entry.budgetFloor, budget > floor + 1e-9 { return entry }
            }
            return nil
        }

        mutating func key(forced: Double?) -> Int {
            guard let forced else { return 0 }
            if let key = forcedKeys[forced] { return key }
            let key = newKey(unforced: 0)
            forcedKeys[forced] = key
            return key
        }

        mutating func key(parent: Int, index: Int32, choice: UInt8) -> Int {
            let childKey = ChildKey(parent: parent, index: index, choice: choice)
            if let key = childKeys[childKey] { return key }
            let unforcedParent = unforced[parent]
            let key = unforcedParent == parent ? newKey(unforced: nil)
                : newKey(unforced: self.key(parent: unforcedParent, index: index, choice: choice))
            childKeys[childKey] = key
            return key
        }

        private mutating func newKey(unforced twin: Int?) -> Int {
            let key = nextKey
            nextKey += 1
            unforced.append(twin ?? key)
            return key
        }
    }

    private struct FrontierEntry {
        var schedule: Schedule
        var decisions: Range<Int>
        var key: Int
    }

    /// Calls `run` on every schedule in exploration order; `run` returns false to stop at once.
    /// A schedule that differs from one already run only in a refusal the run never read, or in a
    /// budget that could not have mattered (see `Machine.budgetFloor`), gives the very same run:
    /// it is not run again but handed to `covered`, which counts it, and its decisions and
    /// instants are taken from the run it repeats. Random schedules always run.
    /// The decisions each run met (read from `machine`) are copied into a pool per level, so the
    /// machine keeps its own buffer rather than allocating a new one for every run.
    private func forEachSchedule(_ machine: inout Machine, run: (inout Machine, Schedule) -> Bool,
                                 covered: (Schedule, _ repeats: Schedule) -> Bool, stop: () -> Bool) {
        var pool: [UInt8] = []
        var instantPool: [Double] = []
        var quietPool: [Double] = []
        var memo = Memo()
        func keep<Element>(_ items: [Element], in pool: inout [Element]) -> Range<Int> {
            let start = pool.count
            pool.append(contentsOf: items)
            return start..<pool.count
        }
        /// Runs or covers `schedule`; its decisions (in `pool`) and, when asked, its instants.
        func visit(_ schedule: Schedule, key: Int, pool: inout [UInt8], instants: Bool) -> (Range<Int>, Range<Int>)? {
            var repeated = memo.match(key, refusal: schedule.refusal, budget: schedule.budget)
            if repeated == nil, let forced = schedule.forcedExpiry,
               let twin = memo.match(memo.unforced[key], refusal: schedule.refusal, budget: schedule.budget),
               stride(from: twin.quiet.lowerBound, to: twin.quiet.upperBound, by: 2).contains(where: {
                   quietPool[$0] < forced && forced < quietPool[$0 + 1]
               }) {
                repeated = twin
            }
            if let entry = repeated {
                guard covered(schedule, entry.schedule), !stop() else { return nil }
                return (entry.decisions, entry.instants)
            }
            guard run(&machine, schedule), !stop() else { return nil }
            let decisions = keep(machine.decisions, in: &pool)
            let instantRange = instants ? keep(machine.instants, in: &instantPool) : 0..<0
            let quiet = schedule.forcedExpiry == nil ? keep(machine.quietIntervals, in: &quietPool) : 0..<0
            memo.byKey[key, default: []].append(Memo.Entry(
                refusal: schedule.refusal, budget: schedule.budget, refusalRead: machine.refusalRead,
                budgetFloor: machine.budgetMatters ? nil : machine.budgetFloor,
                decisions: decisions, instants: instantRange, quiet: quiet, schedule: schedule))
            return (decisions, instantRange)
        }
        // Level 0: every system configuration with the default interleaving.
        var frontier: [FrontierEntry] = []
        for refusal in refusals {
            for budget in budgets {
                let base = Schedule(budget: budget, refusal: refusal)
                guard let (decisions, instants) = visit(base, key: 0, pool: &pool, instants: true) else { return }
                frontier.append(FrontierEntry(schedule: base, decisions: decisions, key: 0))
                guard !scenario.conditions.expiryOnlyAtEnd else { continue }
                var candidates: [Double] = []
                for instant in instantPool[instants] {
                    for t in [instant - 0.001, instant, instant + 0.001] where t >= 0 && !candidates.contains(t) {
                        candidates.append(t)
                    }
                }
                for t in candidates {
                    var schedule = base
                    schedule.forcedExpiry = t
                    let key = memo.key(forced: t)
                    guard let (decisions, _) = visit(schedule, key: key, pool: &pool, instants: false) else { return }
                    frontier.append(FrontierEntry(schedule: schedule, decisions: decisions, key: key))
                }
            }
        }
        // Levels 1...bound: one more non-default choice, after the last one already made.
        if options.preemptionBound > 0 {
            for _ in 1...options.preemptionBound {
                var next: [FrontierEntry] = []
                var nextPool: [UInt8] = []
                memo.byKey.removeAll(keepingCapacity: true)
                quietPool.removeAll(keepingCapacity: true)
                for entry in frontier {
                    let range = entry.decisions
                    let start = Int(entry.schedule.choices.last?.index ?? -1) + 1
                    guard start < range.count else { continue }
                    for index in start..<range.count where pool[range.lowerBound + index] > 1 {
                        for alternative in 1..<pool[range.lowerBound + index] {
                            var child = entry.schedule
                            child.choices.append(.init(index: Int32(index), choice: alternative))
                            let key = memo.key(parent: entry.key, index: Int32(index), choice: alternative)
                            guard let (decisions, _) = visit(child, key: key, pool: &nextPool, instants: false) else { return }
                            next.append(FrontierEntry(schedule: child, decisions: decisions, key: key))
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
