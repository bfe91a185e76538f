import BGKBModel

/// The systematic schedules level by level, each in the order of the one before (the order
/// `explore` reports): every system configuration with the default interleaving (level 0), then
/// one more non-default choice at a time, after the last one already made, while the choices'
/// preemptions stay within the bound (a choice where the current thread cannot go on is free).
struct BreadthFirstOrder {
    /// A schedule waiting for its children: the system configuration it ran under (in
    /// `configurations`), its choices (the level's `choices` pool holds `level` per entry, in
    /// frontier order), the decisions its run met, and its memo key.
    private struct FrontierEntry {
        var configuration: Int32
        var decisions: Range<Int>
        var key: Int32
        /// Preemptions its choices make.
        var used: Int
    }

    private let explorer: Explorer
    private let bound: Int
    private let resumes: Bool
    private let expiryOnlyAtEnd: Bool
    /// Level 0's schedules (budget, refusal, forced expiry); deeper levels add only choices.
    private var configurations: [Schedule] = []
    private var frontier: [FrontierEntry] = []
    /// The frontier's choices, `level` per entry.
    private var choices: [Schedule.Choice] = []

    init(_ explorer: Explorer) {
        self.explorer = explorer
        bound = explorer.options.preemptionBound
        resumes = explorer.options.resumesChildrenFromTheirParent
        expiryOnlyAtEnd = explorer.scenario.conditions.expiryOnlyAtEnd
    }

    /// Visits every systematic schedule; false when the visitor stopped it.
    mutating func visit<Visitor>(_ exploration: inout Exploration<Visitor>, on machine: inout Machine) -> Bool {
        guard visitLevelZero(&exploration, on: &machine) else { return false }
        var cursor = ParentCursor(box: explorer.makeMachine())
        defer {
            exploration.visitor.noteReplayed(cursor.replayed)
            explorer.giveBack(cursor.box)
        }
        var level = 1
        while !frontier.isEmpty {
            guard visitLevel(level, &exploration, on: &machine, cursor: &cursor) else { return false }
            level += 1
        }
        return true
    }

    /// Every system configuration with the default interleaving: each refusal and budget, and
    /// each with an early expiry at every candidate instant of its run.
    private mutating func visitLevelZero<Visitor>(_ exploration: inout Exploration<Visitor>, on machine: inout Machine) -> Bool {
        for refusal in exploration.refusals {
            for budget in exploration.budgets {
                let base = Schedule(budget: budget, refusal: refusal)
                guard let (decisions, instants) = exploration.visit(base, key: 0, instants: true, level: 0, deviation: -1, left: bound,
                                                                    on: &machine, make: { base }, start: { $0.reset($1) }) else { return false }
                configurations.append(base)
                frontier.append(FrontierEntry(configuration: Int32(configurations.count - 1), decisions: decisions, key: 0, used: 0))
                guard !expiryOnlyAtEnd else { continue }
                for t in exploration.expiryCandidates(instants) {
                    var schedule = base
                    schedule.forcedExpiry = t
                    let key = exploration.memo.key(forced: t)
                    guard let (decisions, _) = exploration.visit(schedule, key: key, instants: false, level: 0, deviation: -1, left: bound,
                                                                 on: &machine, make: { schedule }, start: { $0.reset($1) }) else { return false }
                    configurations.append(schedule)
                    frontier.append(FrontierEntry(configuration: Int32(configurations.count - 1), decisions: decisions, key: key, used: 0))
                }
            }
        }
        return true
    }

    /// Every child of the frontier's schedules: one more non-default choice, after the last one
    /// its parent made, within the bound. The children become the frontier.
    private mutating func visitLevel<Visitor>(_ level: Int, _ exploration: inout Exploration<Visitor>, on machine: inout Machine,
                                              cursor: inout ParentCursor) -> Bool {
        var next: [FrontierEntry] = []
        var nextChoices: [Schedule.Choice] = []
        let inherited = level - 1
        for (position, entry) in frontier.enumerated() {
            let range = entry.decisions
            let own = position * inherited..<(position + 1) * inherited
            let start = inherited == 0 ? 0 : Int(choices[own.upperBound - 1].index) + 1
            guard start < range.count else { continue }
            let configuration = configurations[Int(entry.configuration)]
            let parentChoices = Array(choices[own])
            // The parent's last branching decision: its last alternative is the last child that
            // could deviate, and takes the paused run itself, not a copy.
            let left = bound - entry.used
            let lastBranching = exploration.lastBranchingDecision(range, from: start, left: left)
            let parent = ParentCursor.Parent(level: level, position: position)
            for index in start..<range.count where exploration.decisionPool[range.lowerBound + index] > 1 {
                let used = entry.used + exploration.cost(range, at: index)
                guard used <= bound else { continue }
                let alternatives = exploration.decisionPool[range.lowerBound + index]
                for alternative in 1..<alternatives {
                    let choice = Schedule.Choice(index: Int32(index), choice: alternative)
                    let key = exploration.memo.key(parent: entry.key, index: Int32(index), choice: alternative)
                    let last = index == lastBranching && alternative == alternatives - 1
                    guard let (decisions, _) = exploration.visit(configuration, key: key, instants: false, level: level, deviation: index,
                                                                 left: bound - used, on: &machine, make: {
                        var child = configuration
                        child.choices.reserveCapacity(level)
                        child.choices.append(contentsOf: parentChoices)
                        child.choices.append(choice)
                        return child
                    }, start: { machine, schedule in
                        guard resumes else { return machine.reset(schedule) }
                        // The parent's run up to the deviation (the cursor's, paused), copied;
                        // the exploration goes on with the child's choices.
                        cursor.start(&machine, as: schedule, deviatingAt: index, from: parent, last: last, parentSchedule: {
                            var parentSchedule = configuration
                            parentSchedule.choices = parentChoices
                            return parentSchedule
                        })
                    }) else { return false }
                    nextChoices.append(contentsOf: parentChoices)
                    nextChoices.append(choice)
                    next.append(FrontierEntry(configuration: entry.configuration, decisions: decisions, key: key, used: used))
                }
            }
        }
        frontier = next
        choices = nextChoices
        return true
    }
}
