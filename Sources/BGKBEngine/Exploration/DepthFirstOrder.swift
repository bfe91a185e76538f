import BGKBModel

/// The systematic schedules depth first (`Explorer.explore(stopAtFirstFailure:likelyToPass:)`):
/// each run that is simulated pauses at every decision where a child of it deviates, and that
/// child runs there and then, copied from it (and its own children the same way), so no parent's
/// run is replayed to reach its children. A covered run's children still resume from a replay
/// (`ParentCursor`).
///
/// The schedules are the breadth-first ones; only the order of the runs differs (and so, with the
/// state cache, which of two runs that meet in one state goes on). `maxRuns` stops it as it
/// stops breadth first, and a failure stops it: the caller starts over breadth first.
struct DepthFirstOrder {
    /// Where a run's machine comes from.
    private enum Start {
        /// A level-0 schedule: from the start.
        case reset
        /// Copied from its parent's machine (one level up), paused just before the deviation.
        case parentRun
        /// Resumed from a replay of its parent (`ParentCursor`), which was covered, not run;
        /// `last`: no later sibling needs the replay. (The parent's choices are the child's but
        /// its last: read from `choices` when the cursor needs them.)
        case replay(parent: ParentCursor.Parent, last: Bool)
    }

    private let explorer: Explorer
    private let bound: Int
    private let expiryOnlyAtEnd: Bool
    /// One machine per depth (the number of choices made): a run's children are copied from its
    /// machine, paused, into the next one. Each in a box of its own, so a child's machine is
    /// copied from its parent's with both in place. Grown as deeper schedules come.
    private var slots: [MachineBox] = []
    private var cursor: ParentCursor
    /// The choices of the schedule being visited, deepest last.
    private var choices: [Schedule.Choice] = []
    /// Visits so far: names each visit for the cursor.
    private var visits = 0

    init(_ explorer: Explorer) {
        self.explorer = explorer
        bound = explorer.options.preemptionBound
        expiryOnlyAtEnd = explorer.scenario.conditions.expiryOnlyAtEnd
        cursor = ParentCursor(box: explorer.makeMachine())
    }

    /// The schedule of `configuration` with the current choices.
    private func withChoices(_ configuration: Schedule) -> Schedule {
        var schedule = configuration
        schedule.choices = choices
        return schedule
    }

    private mutating func slot(_ level: Int) -> MachineBox {
        while slots.count <= level { slots.append(explorer.makeMachine()) }
        return slots[level]
    }

    /// Visits every systematic schedule; false when it stopped (a failure, or `maxRuns`).
    mutating func visit<Visitor>(_ exploration: inout Exploration<Visitor>) -> Bool {
        defer { finish(&exploration) }
        for refusal in exploration.refusals {
            for budget in exploration.budgets {
                let base = Schedule(budget: budget, refusal: refusal)
                guard let (_, instants) = node(base, key: 0, level: 0, used: 0, deviation: -1, instants: true, start: .reset,
                                               &exploration) else { return false }
                guard !expiryOnlyAtEnd else { continue }
                for t in exploration.expiryCandidates(instants) {
                    var schedule = base
                    schedule.forcedExpiry = t
                    guard node(schedule, key: exploration.memo.key(forced: t), level: 0, used: 0, deviation: -1, instants: false,
                               start: .reset, &exploration) != nil else { return false }
                }
            }
        }
        return true
    }

    /// Hands the machines back to the pool.
    private mutating func finish<Visitor>(_ exploration: inout Exploration<Visitor>) {
        exploration.visitor.noteReplayed(cursor.replayed)
        for slot in slots { explorer.giveBack(slot) }
        explorer.giveBack(cursor.box)
    }

    /// Visits `configuration` with `choices` (`level` of them, costing `used` preemptions, the
    /// last made at decision `deviation`; -1 for none) and then its children: one more choice at
    /// each later decision, where the bound allows it. Returns the run's decisions and instants
    /// (none when the run was left at an explored state); nil when the exploration stops.
    private mutating func node<Visitor>(_ configuration: Schedule, key: Int32, level: Int, used: Int, deviation: Int, instants: Bool,
                                        start: Start, _ exploration: inout Exploration<Visitor>) -> (Range<Int>, Range<Int>)? {
        let identity = ParentCursor.Parent(level: level, position: visits)
        visits += 1
        if let entry = exploration.coveringEntry(configuration, key: key) {
            guard let result = exploration.cover(entry, make: { withChoices(configuration) }) else { return nil }
            guard visitChildrenOfCovered(configuration, key: key, level: level, used: used, deviation: deviation,
                                         decisions: entry.decisions, identity: identity, &exploration) else { return nil }
            return result
        }
        let schedule = withChoices(configuration)
        let slot = slot(level)
        startRun(slot, level: level, schedule: schedule, configuration: configuration, deviation: deviation, start: start)
        var next = deviation + 1
        while slot.machine.proceed(pausingAt: next) {
            if exploration.reachesExploredState(&slot.machine, left: bound - used, level: level) {
                exploration.visitor.equivalent()
                return (0..<0, 0..<0)
            }
            let pending = slot.machine.pendingDecision
            let alternatives = UInt8(min(pending?.total ?? 1, 255))
            let cost = pending?.currentRunnable == true ? 1 : 0
            if used + cost <= bound {
                for alternative in 1..<max(alternatives, 1) {
                    choices.append(Schedule.Choice(index: Int32(next), choice: alternative))
                    guard node(configuration, key: exploration.memo.key(parent: key, index: Int32(next), choice: alternative),
                               level: level + 1, used: used + cost, deviation: next, instants: false, start: .parentRun,
                               &exploration) != nil else { return nil }
                    choices.removeLast()
                }
            }
            next += 1
        }
        guard exploration.visitor.run(&slot.machine, schedule, start: { _ in }), !exploration.visitor.stop else { return nil }
        return exploration.record(&slot.machine, schedule, key: key, instants: instants)
    }

    /// Brings this level's machine to the start of `schedule`'s run (or, when resumed, to the
    /// point where it deviates from its parent's).
    private mutating func startRun(_ slot: MachineBox, level: Int, schedule: Schedule, configuration: Schedule, deviation: Int,
                                   start: Start) {
        switch start {
        case .reset:
            slot.machine.reset(schedule)
        case .parentRun:
            slot.machine.copyState(from: &slots[level - 1].machine)
            slot.machine.schedule = schedule
        case let .replay(parent, last):
            let parentChoices = Array(choices.dropLast())
            cursor.start(&slot.machine, as: schedule, deviatingAt: deviation, from: parent, last: last, parentSchedule: {
                var parentSchedule = configuration
                parentSchedule.choices = parentChoices
                return parentSchedule
            })
        }
    }

    /// The children of a covered schedule, whose decisions are those of the run it repeats:
    /// each resumes from a replay of that run. False when the exploration stops.
    private mutating func visitChildrenOfCovered<Visitor>(_ configuration: Schedule, key: Int32, level: Int, used: Int, deviation: Int,
                                                          decisions range: Range<Int>, identity: ParentCursor.Parent,
                                                          _ exploration: inout Exploration<Visitor>) -> Bool {
        guard deviation + 1 < range.count else { return true }
        let lastBranching = exploration.lastBranchingDecision(range, from: deviation + 1, left: bound - used)
        for index in deviation + 1..<range.count where exploration.decisionPool[range.lowerBound + index] > 1 {
            let cost = exploration.cost(range, at: index)
            guard used + cost <= bound else { continue }
            let alternatives = exploration.decisionPool[range.lowerBound + index]
            for alternative in 1..<alternatives {
                choices.append(Schedule.Choice(index: Int32(index), choice: alternative))
                let last = index == lastBranching && alternative == alternatives - 1
                guard node(configuration, key: exploration.memo.key(parent: key, index: Int32(index), choice: alternative),
                           level: level + 1, used: used + cost, deviation: index, instants: false,
                           start: .replay(parent: identity, last: last), &exploration) != nil else { return false }
                choices.removeLast()
            }
        }
        return true
    }
}
