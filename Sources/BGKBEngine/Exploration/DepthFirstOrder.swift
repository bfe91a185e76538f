import BGKBModel

/// The systematic schedules depth first (`Explorer.explore(stopAtFirstFailure:likelyToPass:)`):
/// each run that is simulated pauses at every decision where a child of it deviates, and that
/// child runs there and then, copied from it (and its own children the same way), so no parent's
/// run is replayed to reach its children. A covered run's children still resume from a replay
/// (`ParentCursor`).
///
/// The schedules, their runs, the memo's coverage and every count are the breadth-first ones (a
/// schedule's covering run is one of the same choices, and those come in the same order either
/// way); only the order of the runs differs. Within a level it is the breadth-first order, so
/// `maxRuns` is applied level by level as breadth first applies it (`visits`); a failure stops
/// it, and the caller starts over breadth first.
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
    private let maxRuns: Int
    private let expiryOnlyAtEnd: Bool
    /// Schedules visited at each level.
    private var visits: [Int]
    /// Every visit, in order (within a level, the breadth-first order): its level in the low
    /// byte, above it the events it simulated plus one (0: covered).
    private var log: [Int] = []
    /// A schedule was not visited because breadth first stops (`maxRuns`) before it.
    private var pruned = false
    /// One machine per depth: a run's children are copied from its machine, paused, into the
    /// next one. Each in a slot of its own, so a child's machine is copied from its parent's
    /// with both in place.
    private let slots: [MachineSlot]
    private var cursor: ParentCursor
    /// The choices of the schedule being visited, deepest last.
    private var choices: [Schedule.Choice] = []

    init(_ explorer: Explorer) {
        self.explorer = explorer
        bound = explorer.options.preemptionBound
        maxRuns = explorer.options.maxRuns
        expiryOnlyAtEnd = explorer.scenario.conditions.expiryOnlyAtEnd
        slots = (0...bound).map { _ in MachineSlot(explorer.makeMachine()) }
        cursor = ParentCursor(machine: explorer.makeMachine())
        visits = Array(repeating: 0, count: bound + 1)
    }

    /// The schedule of `configuration` with the current choices.
    private func withChoices(_ configuration: Schedule) -> Schedule {
        var schedule = configuration
        schedule.choices = choices
        return schedule
    }

    /// Visits every systematic schedule; false when it stopped (a failure, or the counts
    /// settled at `maxRuns`).
    mutating func visit<Visitor>(_ exploration: inout Exploration<Visitor>) -> Bool {
        defer { finish(&exploration) }
        // The walk applies `maxRuns` itself, in breadth-first terms (see `node`).
        exploration.visitor.maxRuns = .max
        for refusal in exploration.refusals {
            for budget in exploration.budgets {
                let base = Schedule(budget: budget, refusal: refusal)
                guard let (_, instants) = node(base, key: 0, level: 0, deviation: -1, instants: true, start: .reset,
                                               &exploration) else { return false }
                guard !expiryOnlyAtEnd else { continue }
                for t in exploration.expiryCandidates(instants) {
                    var schedule = base
                    schedule.forcedExpiry = t
                    guard node(schedule, key: exploration.memo.key(forced: t), level: 0, deviation: -1, instants: false,
                               start: .reset, &exploration) != nil else { return false }
                }
            }
        }
        // Visited level by level, a schedule could pass the check in `node` and still lie past
        // `maxRuns` once later schedules of lower levels were counted.
        if pruned || visits.reduce(0, +) > maxRuns {
            settleCapped(&exploration.visitor)
            return false
        }
        exploration.visitor.maxRuns = maxRuns
        return true
    }

    /// Hands the machines back to the pool.
    private mutating func finish<Visitor>(_ exploration: inout Exploration<Visitor>) {
        exploration.visitor.noteReplayed(cursor.replayed)
        for slot in slots { explorer.giveBack(slot.machine) }
        explorer.giveBack(cursor.machine)
    }

    /// Breadth first would have stopped after `maxRuns` schedules: the whole levels it reached,
    /// then the start of the next, in order. Those are the counts.
    private func settleCapped<Visitor: ScheduleVisitor>(_ visitor: inout Visitor) {
        var remaining = maxRuns
        var taken = Array(repeating: 0, count: visits.count)
        for level in visits.indices {
            taken[level] = min(visits[level], remaining)
            remaining -= taken[level]
        }
        var covered = 0
        var events = 0
        for entry in log {
            let level = entry & 0xFF
            guard taken[level] > 0 else { continue }
            taken[level] -= 1
            if entry >> 8 == 0 { covered += 1 } else { events += (entry >> 8) - 1 }
        }
        visitor.settleCapped(runs: maxRuns, covered: covered, events: events)
    }

    /// Visits `configuration` with `choices` (the last made at decision `deviation`; -1 for
    /// none) and then, below the bound, its children. Returns the run's decisions and instants;
    /// nil when the exploration stops.
    private mutating func node<Visitor>(_ configuration: Schedule, key: Int32, level: Int, deviation: Int, instants: Bool,
                                        start: Start, _ exploration: inout Exploration<Visitor>) -> (Range<Int>, Range<Int>)? {
        // Breadth first visits a whole level before the next and stops after `maxRuns`
        // schedules: one it would not reach is not visited (nor are its children), since every
        // schedule of this level that comes later would not be reached either.
        let earlier = visits[0..<level].reduce(0, +)
        guard earlier + visits[level] < maxRuns else {
            pruned = true
            return (0..<0, 0..<0)
        }
        visits[level] += 1
        // Its place in the log names it for the cursor: no two visits share one.
        let visit = log.count
        log.append(level)
        let identity = ParentCursor.Parent(level: level, position: visit)
        if let entry = exploration.coveringEntry(configuration, key: key) {
            guard let result = exploration.cover(entry, make: { withChoices(configuration) }) else { return nil }
            guard visitChildrenOfCovered(configuration, key: key, level: level, deviation: deviation, decisions: entry.decisions,
                                         identity: identity, &exploration) else { return nil }
            return result
        }
        let schedule = withChoices(configuration)
        let slot = slots[level]
        startRun(slot, level: level, schedule: schedule, configuration: configuration, deviation: deviation, start: start)
        if level < bound {
            var next = deviation + 1
            while slot.machine.proceed(pausingAt: next) {
                let alternatives = UInt8(min(slot.machine.pendingDecision?.total ?? 1, 255))
                for alternative in 1..<max(alternatives, 1) {
                    choices.append(Schedule.Choice(index: Int32(next), choice: alternative))
                    guard node(configuration, key: exploration.memo.key(parent: key, index: Int32(next), choice: alternative),
                               level: level + 1, deviation: next, instants: false, start: .parentRun, &exploration) != nil else { return nil }
                    choices.removeLast()
                }
                next += 1
            }
        } else {
            _ = slot.machine.proceed(pausingAt: -1)
        }
        guard exploration.visitor.run(&slot.machine, schedule, start: { _ in }), !exploration.visitor.stop else { return nil }
        log[visit] = (slot.machine.trace.count - slot.machine.inheritedEvents + 1) << 8 | level
        return exploration.record(&slot.machine, schedule, key: key, instants: instants)
    }

    /// Brings this level's machine to the start of `schedule`'s run (or, when resumed, to the
    /// point where it deviates from its parent's).
    private mutating func startRun(_ slot: MachineSlot, level: Int, schedule: Schedule, configuration: Schedule, deviation: Int,
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
    private mutating func visitChildrenOfCovered<Visitor>(_ configuration: Schedule, key: Int32, level: Int, deviation: Int,
                                                          decisions range: Range<Int>, identity: ParentCursor.Parent,
                                                          _ exploration: inout Exploration<Visitor>) -> Bool {
        guard level < bound, deviation + 1 < range.count else { return true }
        let lastBranching = exploration.lastBranchingDecision(range, from: deviation + 1)
        for index in deviation + 1..<range.count where exploration.decisionPool[range.lowerBound + index] > 1 {
            let alternatives = exploration.decisionPool[range.lowerBound + index]
            for alternative in 1..<alternatives {
                choices.append(Schedule.Choice(index: Int32(index), choice: alternative))
                let last = index == lastBranching && alternative == alternatives - 1
                guard node(configuration, key: exploration.memo.key(parent: key, index: Int32(index), choice: alternative),
                           level: level + 1, deviation: index, instants: false, start: .replay(parent: identity, last: last),
                           &exploration) != nil else { return false }
                choices.removeLast()
            }
        }
        return true
    }
}

/// A machine held by reference: two elements of one array cannot be accessed at once, two slots
/// can, so a child's machine is copied from its parent's where both stand.
private final class MachineSlot {
    var machine: Machine

    init(_ machine: Machine) {
        self.machine = machine
    }
}
