import BGKBModel

/// One exploration of a scenario's schedules, reporting each to `visitor`, in exploration order:
/// the systematic schedules in one of two orders (`BreadthFirstOrder`, `DepthFirstOrder`), then
/// seeded random ones. This holds what both orders share: the memo of the runs made so far and
/// the pools their decisions, instants and quiet intervals are kept in.
///
/// A schedule that differs from one already run only in a refusal the run never read, or in a
/// budget that could not have mattered (see `Machine.budgetFloor`), gives the very same run: it
/// is not run again but handed to the visitor's `covered`, which counts it, and its decisions
/// and instants are taken from the run it repeats. A schedule is built (its choices array
/// allocated) only when it runs or a visitor asks for it.
///
/// Only what the visiting orders read on every schedule is kept here, so the struct stays small.
struct Exploration<Visitor: ScheduleVisitor> {
    var visitor: Visitor
    /// How many alternatives each run met at each decision, one range per run.
    var decisionPool: [UInt8] = []
    /// Whether a non-default pick at that decision preempts the current thread (parallel to
    /// `decisionPool`, the same ranges).
    var preemptiblePool: [Bool] = []
    /// The states explored so far, when the visitor lets equivalent runs go (`StateCache`).
    var stateCache = StateCache()
    let cachesStates: Bool
    /// Level 0's unforced runs' instants (candidate forced-expiry times), one range per run.
    var instantPool: [Double] = []
    /// Unforced runs' quiet intervals, as flat pairs, one range per run.
    var quietPool: [Double] = []
    var memo = Memo(reservingKeys: 512)
    /// The simulated schedules, for the visitor's `covered`.
    var ran: [Schedule] = []
    let budgets: [Double]
    let refusals: [Conditions.Refusal]
    let preemptionBound: Int
    let randomSchedules: Int
    let expiryOnlyAtEnd: Bool
    /// Seeds the random schedules: the same scenario draws the same ones.
    let randomSeed: UInt64

    init(_ explorer: Explorer, visitor: Visitor) {
        self.visitor = visitor
        budgets = explorer.budgets
        refusals = explorer.refusals
        preemptionBound = explorer.options.preemptionBound
        cachesStates = explorer.options.cachesStates && Visitor.skipsEquivalentRuns
        randomSchedules = explorer.options.randomSchedules
        expiryOnlyAtEnd = explorer.scenario.conditions.expiryOnlyAtEnd
        randomSeed = StableHash.fnv1a(explorer.scenario.text)
    }

    /// Visits every schedule: systematic ones depth first or breadth first, then random ones,
    /// until the visitor stops.
    mutating func run(_ explorer: Explorer, on machine: inout Machine, depthFirst: Bool) {
        if depthFirst {
            var order = DepthFirstOrder(explorer)
            guard order.visit(&self) else { return }
        } else {
            var order = BreadthFirstOrder(explorer)
            guard order.visit(&self, on: &machine) else { return }
        }
        visitor.systematicDone()
        visitRandomSchedules(on: &machine)
    }

    /// Whether an early expiry at `forced` falls strictly inside one of the quiet intervals of
    /// `entry`'s run (an unforced one), where it would change nothing.
    @inline(__always)
    func isQuiet(_ forced: Double, in entry: Memo.Entry) -> Bool {
        stride(from: entry.quiet.lowerBound, to: entry.quiet.upperBound, by: 2).contains {
            quietPool[$0] < forced && forced < quietPool[$0 + 1]
        }
    }

    /// The run already made that `configuration` with these choices (`key`) would repeat
    /// exactly, if any.
    @inline(__always)
    func coveringEntry(_ configuration: Schedule, key: Int32) -> Memo.Entry? {
        if let entry = memo.match(key, refusal: configuration.refusal, budget: configuration.budget, forced: configuration.forcedExpiry) {
            return entry
        }
        if let forced = configuration.forcedExpiry,
           let twin = memo.match(memo.unforced[Int(key)], refusal: configuration.refusal, budget: configuration.budget, forced: nil),
           isQuiet(forced, in: twin) {
            return twin
        }
        return nil
    }

    /// Keeps what the memo needs of `run`, the finished run of `schedule`: its decisions, its
    /// instants when asked, and its quiet intervals.
    mutating func record(_ run: inout Machine, _ schedule: Schedule, key: Int32, instants: Bool) -> (Range<Int>, Range<Int>) {
        let decisions = keepDecisions(of: run)
        let instantRange = instants ? keep(run.instants, in: &instantPool) : 0..<0
        let quiet = schedule.forcedExpiry == nil ? keep(run.quietIntervals, in: &quietPool) : 0..<0
        memo.add(Memo.Entry(
            refusal: schedule.refusal, budget: schedule.budget, refusalRead: run.refusalRead,
            budgetFloor: run.budgetMatters ? nil : run.budgetFloor,
            forcedPeriodStart: run.forcedPeriodStart, otherPeriodsFloor: run.otherPeriodsFloor,
            decisions: decisions, instants: instantRange, quiet: quiet, ran: Int32(ran.count)), key: key)
        ran.append(schedule)
        return (decisions, instantRange)
    }

    /// Keeps `run`'s decisions and whether each was preemptible, at the same positions.
    mutating func keepDecisions(of run: Machine) -> Range<Int> {
        preemptiblePool.append(contentsOf: run.preemptible)
        return keep(run.decisions, in: &decisionPool)
    }

    /// Preemptions a non-default pick at decision `index` of the run kept at `range` costs.
    @inline(__always)
    func cost(_ range: Range<Int>, at index: Int) -> Int {
        preemptiblePool[range.lowerBound + index] ? 1 : 0
    }

    /// Runs `machine` (started: reset, or paused where its schedule deviates from its parent's)
    /// to its end. With the state cache it pauses before each decision from `first` on (past
    /// the schedule's own choices) and stops where the state was explored already with at least
    /// as many preemptions left (`left`): false then, the run repeats explored runs from there.
    mutating func advance(_ machine: inout Machine, checkingFrom first: Int, left: Int, level: Int) -> Bool {
        guard cachesStates else {
            _ = machine.proceed(pausingAt: -1)
            return true
        }
        var next = first
        while machine.proceed(pausingAt: next) {
            if reachesExploredState(&machine, left: left, level: level) { return false }
            next += 1
        }
        return true
    }

    /// Whether `machine`, paused before a decision with `left` preemptions to spare, is in a state
    /// explored already with as many left or more; if not, its state is recorded as explored.
    /// A level-0 run (no choices) is the first of its configuration, and the state holds the
    /// budget, refusal and forced expiry: it never meets an explored state, and is never left,
    /// so its instants (the forced expiries to try) are always whole.
    @inline(__always)
    mutating func reachesExploredState(_ machine: inout Machine, left: Int, level: Int) -> Bool {
        guard cachesStates else { return false }
        return stateCache.isExplored(machine.fingerprint(), left: left) && level > 0
    }

    private func keep<Element>(_ items: [Element], in pool: inout [Element]) -> Range<Int> {
        let start = pool.count
        pool.append(contentsOf: items)
        return start..<pool.count
    }

    /// Hands the visitor a schedule (built by `make`) that repeats `entry`'s run; nil when the
    /// visitor stops, else the decisions and instants of the run it repeats.
    mutating func cover(_ entry: Memo.Entry, make: () -> Schedule) -> (Range<Int>, Range<Int>)? {
        guard visitor.covered(make, repeats: ran[Int(entry.ran)]), !visitor.stop else { return nil }
        return (entry.decisions, entry.instants)
    }

    /// Runs or covers the schedule `make` builds (whose system configuration is
    /// `configuration`) on `machine`; `start` starts the machine on it (reset, or paused at the
    /// decision `deviation` where it leaves its parent's run), and the run goes on from there
    /// with `left` preemptions to spare. Returns its decisions (up to where it stopped, when it
    /// reached an explored state) and, when asked, its instants; nil when the visitor stops.
    mutating func visit(_ configuration: Schedule, key: Int32, instants: Bool, level: Int, deviation: Int, left: Int,
                        on machine: inout Machine,
                        make: () -> Schedule, start: (inout Machine, Schedule) -> Void) -> (Range<Int>, Range<Int>)? {
        if let entry = coveringEntry(configuration, key: key) { return cover(entry, make: make) }
        let schedule = make()
        start(&machine, schedule)
        guard advance(&machine, checkingFrom: deviation + 1, left: left, level: level) else {
            visitor.equivalent()
            return (keepDecisions(of: machine), 0..<0)
        }
        guard visitor.run(&machine, schedule, start: { _ in }), !visitor.stop else { return nil }
        return record(&machine, schedule, key: key, instants: instants)
    }

    /// The last decision from `start` on, of the run whose decisions `range` holds, with more
    /// than one alternative and a child within `left` preemptions (-1: none).
    @inline(__always)
    func lastBranchingDecision(_ range: Range<Int>, from start: Int, left: Int) -> Int {
        for index in (start..<max(start, range.count)).reversed()
        where decisionPool[range.lowerBound + index] > 1 && cost(range, at: index) <= left { return index }
        return -1
    }

    /// Early expiries to try in a configuration: at every instant where something happened
    /// in its unforced run (`instants`, in `instantPool`), and just before and after it.
    @inline(__always)
    func expiryCandidates(_ instants: Range<Int>) -> [Double] {
        var candidates: [Double] = []
        candidates.reserveCapacity(instants.count * 3)
        for instant in instantPool[instants] {
            for offset in -1...1 {
                let t = offset == 0 ? instant : instant + Double(offset) * 0.001
                if t >= 0 && !candidates.contains(t) { candidates.append(t) }
            }
        }
        return candidates
    }

    /// The systematic run a random schedule would repeat, found without simulating: its draws
    /// depend only on how many alternatives each decision offers, so they are replayed along
    /// the decisions of the runs already made, following a drawn choice into the child run
    /// that made it. nil (run it) when a draw leaves what was explored (more preemptions than
    /// the bound, a child never visited or not run to its end, a decision with more alternatives
    /// than its record holds), or when an early expiry does not fall where the run it would repeat is quiet.
    @inline(__always)
    func randomRepeat(_ schedule: Schedule) -> Memo.Entry? {
        guard let seed = schedule.seed,
              var entry = memo.match(0, refusal: schedule.refusal, budget: schedule.budget, forced: nil) else { return nil }
        var generator = SeededGenerator(seed: seed)
        var key: Int32 = 0
        var preemptions = 0
        var index = 0
        while index < entry.decisions.count {
            let alternatives = decisionPool[entry.decisions.lowerBound + index]
            guard alternatives < 255 else { return nil }
            let value = UInt8(generator.next() % UInt64(alternatives))
            if value != 0 {
                preemptions += cost(entry.decisions, at: index)
                guard preemptions <= preemptionBound,
                      let child = memo.childKeys.find(ChildKey(parent: key, index: Int32(index), choice: value)),
                      let next = memo.match(child, refusal: schedule.refusal, budget: schedule.budget, forced: nil) else { return nil }
                key = child
                entry = next
            }
            index += 1
        }
        if let forced = schedule.forcedExpiry, !isQuiet(forced, in: entry) { return nil }
        return entry
    }

    /// Seeded random schedules on top of the systematic ones; those that provably repeat a
    /// systematic run are counted as that run (see `randomRepeat`).
    mutating func visitRandomSchedules(on machine: inout Machine) {
        var generator = SeededGenerator(seed: randomSeed)
        // Random early expiries fall before the latest instant any default run reached, plus a
        // second: fixed by level 0 alone, so it does not depend on which runs the memo skipped.
        let horizon = (instantPool.max() ?? 30) + 1
        for _ in 0..<randomSchedules {
            let seed = generator.next()
            var schedule = Schedule(budget: budgets[Int(generator.next() % UInt64(budgets.count))],
                                    refusal: refusals[Int(generator.next() % UInt64(refusals.count))], seed: seed)
            if !expiryOnlyAtEnd && generator.next() % 2 == 0 {
                schedule.forcedExpiry = Double(generator.next() % 1_000_000) / 1_000_000 * horizon
            }
            if let entry = randomRepeat(schedule) {
                guard visitor.covered({ schedule }, repeats: ran[Int(entry.ran)]) else { return }
            } else {
                guard visitor.run(&machine, schedule, start: { $0.run(schedule) }) else { return }
            }
            if visitor.stop { return }
        }
    }
}
