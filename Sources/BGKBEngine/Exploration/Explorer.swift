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
        /// A thread whose next step only leaves blocks that nothing observes takes that step at
        /// once instead of standing as a scheduling alternative (see `Machine.exitsSilently`).
        /// False restores the alternative: more schedules, the same runs; tests compare the two.
        public var takesSilentExitsAtOnce = true
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
        /// How many schedules ran.
        public var runs: Int
        /// Events this exploration simulated (for the benchmark): the part of a resumed child's
        /// run copied from its parent's (`Options.resumesChildrenFromTheirParent`) counts once.
        public var events: Int
        /// The first failing schedule, in exploration order (fewest deviations first), and why.
        public var failure: (schedule: Schedule, reason: String)?
        /// True when `maxRuns` cut the exploration short.
        public var capped: Bool
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

    let scenario: Scenario
    let constants: SystemConstants
    let options: Options
    /// A machine of this scenario, constants and options that never runs: the others are made
    /// like it (`makeMachine`), so the scenario's tables are derived once per explorer.
    private let template: Machine
    /// Where machines come from and go back to; nil makes every machine afresh (tests compare).
    var pool: MachinePool? = .shared

    public init(scenario: Scenario, constants: SystemConstants = .standard, options: Options = Options()) {
        self.scenario = scenario
        self.constants = constants
        self.options = options
        var template = Machine(scenario: scenario, constants: constants)
        template.takesSilentExitsAtOnce = options.takesSilentExitsAtOnce
        template.dropsSettledRoundChecks = options.dropsSettledRoundChecks
        template.quietDidEnterBackgroundExits = options.takesQuietDidEnterBackgroundExitsAtOnce
        self.template = template
    }

    /// A machine per call, from the pool when it has one: a local value, so its mutations need
    /// no runtime exclusivity checks. `giveBack` returns it when the caller is done with it.
    private func makeMachine() -> Machine {
        pool?.take(like: template) ?? template
    }

    private func giveBack(_ machine: consuming Machine) {
        pool?.give(machine)
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
        defer { giveBack(machine) }
        return machine.materializedTrace
    }

    /// The exploration that checks an example of `intent`: to its first failure, depth first
    /// for an example that follows its rule (it should hold in every schedule). `check` and the
    /// benchmark's accounting explore this way.
    public func explore(checking intent: Example.Intent) -> Result {
        explore(stopAtFirstFailure: true, likelyToPass: intent == .follows)
    }

    /// How one schedule's run ends: `trace(schedule).outcome` without the trace's words, which
    /// cost more than the run (the quiz asks this of every example under several conditions).
    public func outcome(_ schedule: Schedule) -> SimulationOutcome {
        var machine = makeMachine()
        machine.run(schedule)
        defer { giveBack(machine) }
        return machine.modelOutcome
    }

    /// Why this schedule fails the scenario's expectations, or nil when it does not.
    public func failure(_ schedule: Schedule) -> String? {
        var machine = makeMachine()
        machine.run(schedule)
        defer { giveBack(machine) }
        return machine.failedExpectation()
    }

    /// Explores until the first failure (`stopAtFirstFailure`) or the whole space.
    ///
    /// `likelyToPass` is a hint, not a question: say so when no failure is expected (an example
    /// that follows its rule). The schedules are then visited depth first, which runs each
    /// child from its parent's run as that run goes by, instead of replaying the parent to
    /// reach it (a third of what a passing exploration simulated). The result is the same
    /// either way: schedules breadth first would not reach before `maxRuns` are left out and the
    /// counts settled as breadth first makes them, and when the depth-first pass meets a failure,
    /// where the order of the runs decides which is reported, it is dropped and the exploration
    /// starts over breadth first.
    public func explore(stopAtFirstFailure: Bool, likelyToPass: Bool = false) -> Result {
        // (The walk's log keeps a visit's level in a byte.)
        if likelyToPass && options.resumesChildrenFromTheirParent && options.preemptionBound < 255 {
            var visitor = ExploreVisitor(maxRuns: options.maxRuns, stopAtFirstFailure: true, nominal: nominalSchedule)
            var machine = makeMachine()
            forEachSchedule(&machine, &visitor, depthFirst: true)
            giveBack(machine)
            if visitor.result.failure == nil {
                visitor.result.depthFirst = true
                return visitor.result
            }
        }
        var visitor = ExploreVisitor(maxRuns: options.maxRuns, stopAtFirstFailure: stopAtFirstFailure, nominal: nominalSchedule)
        var machine = makeMachine()
        forEachSchedule(&machine, &visitor)
        giveBack(machine)
        return visitor.result
    }

    /// The first explored schedule whose trace satisfies `predicate` (tests use it to show that
    /// the explorer finds a specific failure on its own).
    public func firstTrace(where predicate: (SimulationTrace) -> Bool) -> SimulationTrace? {
        withoutActuallyEscaping(predicate) { predicate in
            var visitor = FirstTraceVisitor(maxRuns: options.maxRuns, predicate: predicate)
            var machine = makeMachine()
            forEachSchedule(&machine, &visitor)
            return visitor.found
        }
    }

    /// For tests of the memo: explores the whole space, also runs every schedule it covered, and
    /// describes each one whose run differs (events, outcome or decisions) from the run it was
    /// counted as. Empty when the memo is exact.
    public func reuseMismatches() -> [String] {
        var visitor = MismatchVisitor(maxRuns: options.maxRuns, other: makeMachine())
        var machine = makeMachine()
        forEachSchedule(&machine, &visitor)
        return visitor.mismatches
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

    /// What the explorer remembers of a run, to cover the schedules that would repeat it. Keys
    /// name the rest of a schedule (forced expiry and choices) as a dense number, so entries hang
    /// off arrays indexed by key rather than a dictionary of arrays, and carry no `Schedule`
    /// (whose choices array would be retained and released on every copy).
    private struct Memo {
        struct Entry {
            var refusal: Conditions.Refusal
            var budget: Double
            var refusalRead: Bool
            /// nil: the budget mattered, so only this budget gives this run.
            var budgetFloor: Double?
            /// See `Machine.forcedPeriodStart` (nil: no forced expiry ended a live period).
            var forcedPeriodStart: Double?
            var otherPeriodsFloor: Double
            var decisions: Range<Int>
            var instants: Range<Int>
            /// Unforced runs only: their quiet intervals (`Machine.quietIntervals`) in `quietPool`.
            var quiet: Range<Int>
            /// The schedule that ran, in `ran` (for `reuseMismatches`).
            var ran: Int32
            /// The next entry of the same key, in insertion order (-1: none).
            var next: Int32 = -1
        }
        /// Every level's entries (kept: the random schedules walk them, see `randomRepeat`);
        /// `heads` and `tails` give each key's first and last (-1: none).
        var entries: [Entry] = []
        var heads: [Int32] = [-1]
        var tails: [Int32] = [-1]
        var forcedKeys = ForcedKeyTable()
        var childKeys = ChildKeyTable()
        /// For each key, the key of the same choices without the forced expiry (itself when
        /// there is none).
        var unforced: [Int32] = [0]

        /// An earlier run of the same rest that this refusal and budget would repeat exactly: it
        /// never read the refusal (or had the same one), and its budget never mattered and this
        /// one's event would come due only after every period was over (or it had the same one).
        ///
        /// `mutating` though it changes nothing: called on the memo the exploration's nested
        /// functions capture, a non-mutating call was handed a copy, retaining and releasing
        /// the memo's six buffers on every schedule; in place it reads them where they are.
        mutating func match(_ key: Int32, refusal: Conditions.Refusal, budget: Double, forced: Double?) -> Entry? {
            var index = heads[Int(key)]
            while index >= 0 {
                let entry = entries[Int(index)]
                if entry.refusal == refusal || !entry.refusalRead {
                    if entry.budget == budget { return entry }
                    // The margin keeps float rounding in `start + budget` from deciding a tie.
                    if let floor = entry.budgetFloor {
                        if budget > floor + 1e-9 { return entry }
                        // This budget's event would fall due exactly when the forced expiry ended
                        // the longest period, queued behind it: the same run.
                        if let start = entry.forcedPeriodStart, let forced, start + budget == forced,
                           budget > entry.otherPeriodsFloor + 1e-9 { return entry }
                    }
                }
                index = entry.next
            }
            return nil
        }

        mutating func add(_ entry: Entry, key: Int32) {
            let index = Int32(entries.count)
            entries.append(entry)
            let k = Int(key)
            if heads[k] < 0 {
                heads[k] = index
            } else {
                entries[Int(tails[k])].next = index
            }
            tails[k] = index
        }

        mutating func key(forced: Double?) -> Int32 {
            guard let forced else { return 0 }
            if let key = forcedKeys.find(forced) { return key }
            let key = newKey(unforced: 0)
            forcedKeys.insert(forced, key: key)
            return key
        }

        mutating func key(parent: Int32, index: Int32, choice: UInt8) -> Int32 {
            if let key = childKeys.find(parent: parent, index: index, choice: choice) { return key }
            let unforcedParent = unforced[Int(parent)]
            let key = unforcedParent == parent ? newKey(unforced: nil)
                : newKey(unforced: self.key(parent: unforcedParent, index: index, choice: choice))
            childKeys.insert(parent: parent, index: index, choice: choice, key: key)
            return key
        }

        /// Room for `count` keys in each per-key array, so they do not grow one doubling at a time.
        mutating func reserveKeys(_ count: Int) {
            heads.reserveCapacity(count)
            tails.reserveCapacity(count)
            unforced.reserveCapacity(count)
            // About one entry for every four keys (most schedules are covered, not run).
            entries.reserveCapacity(count / 4)
        }

        private mutating func newKey(unforced twin: Int32?) -> Int32 {
            let key = Int32(heads.count)
            heads.append(-1)
            tails.append(-1)
            unforced.append(twin ?? key)
            return key
        }
    }

    /// A forced expiry's time to its key, the same way as `ChildKeyTable` (on the time's bits):
    /// a `Dictionary` hashed every Double with SipHash, 140 instructions a lookup.
    struct ForcedKeyTable {
        struct Slot {
            var bits: UInt64 = 0
            var key: Int32 = -1
        }
        private var slots: [Slot]
        private var count = 0

        init(capacity: Int = 256) {
            precondition(capacity > 0 && capacity & (capacity - 1) == 0, "capacity must be a power of two")
            slots = [Slot](repeating: Slot(), count: capacity)
        }

        /// Equal times, equal bits (-0 is 0, as a Dictionary has it).
        private static func bits(_ time: Double) -> UInt64 { (time == 0 ? 0 : time).bitPattern }

        private func start(_ bits: UInt64) -> Int {
            Int(truncatingIfNeeded: ((bits ^ bits >> 29) &* 0x9E37_79B9_7F4A_7C15) >> 32) & (slots.count - 1)
        }

        func find(_ time: Double) -> Int32? {
            let bits = Self.bits(time)
            var position = start(bits)
            while true {
                let slot = slots[position]
                if slot.key < 0 { return nil }
                if slot.bits == bits { return slot.key }
                position = (position + 1) & (slots.count - 1)
            }
        }

        mutating func insert(_ time: Double, key: Int32) {
            precondition(key >= 0)
            if (count + 1) * 2 > slots.count {
                let old = slots
                slots = [Slot](repeating: Slot(), count: old.count * 2)
                count = 0
                for slot in old where slot.key >= 0 { insert(bits: slot.bits, key: slot.key) }
            }
            insert(bits: Self.bits(time), key: key)
        }

        private mutating func insert(bits: UInt64, key: Int32) {
            var position = start(bits)
            while slots[position].key >= 0 { position = (position + 1) & (slots.count - 1) }
            slots[position] = Slot(bits: bits, key: key)
            count += 1
        }
    }

    /// (parent key, decision index, choice) to child key: open addressing with linear probing
    /// and a multiplicative hash, a fraction of what `Dictionary`'s SipHash cost per lookup here.
    struct ChildKeyTable {
        struct Slot {
            var parent: Int32 = -1
            var index: Int32 = 0
            var choice: UInt8 = 0
            var key: Int32 = 0
        }
        private var slots: [Slot]
        private var count = 0

        /// 1,024 slots to start: an example that follows its rule makes a few hundred keys, and
        /// growing from 64 rehashed every key four times over. (A power of two: tests start small.)
        init(capacity: Int = 1024) {
            precondition(capacity > 0 && capacity & (capacity - 1) == 0, "capacity must be a power of two")
            slots = [Slot](repeating: Slot(), count: capacity)
        }

        private func start(_ parent: Int32, _ index: Int32, _ choice: UInt8) -> Int {
            let packed = UInt64(UInt32(bitPattern: parent)) << 32 | UInt64(UInt32(bitPattern: index))
            let mixed = (packed ^ UInt64(choice) &* 0xFF51_AFD7_ED55_8CCD) &* 0x9E37_79B9_7F4A_7C15
            return Int(truncatingIfNeeded: mixed >> 32) & (slots.count - 1)
        }

        @inline(__always)
        func find(parent: Int32, index: Int32, choice: UInt8) -> Int32? {
            var position = start(parent, index, choice)
            while true {
                let slot = slots[position]
                if slot.parent < 0 { return nil }
                if slot.parent == parent && slot.index == index && slot.choice == choice { return slot.key }
                position = (position + 1) & (slots.count - 1)
            }
        }

        mutating func insert(parent: Int32, index: Int32, choice: UInt8, key: Int32) {
            if (count + 1) * 2 > slots.count {
                let old = slots
                slots = [Slot](repeating: Slot(), count: old.count * 2)
                count = 0
                for slot in old where slot.parent >= 0 {
                    insert(parent: slot.parent, index: slot.index, choice: slot.choice, key: slot.key)
                }
            }
            var position = start(parent, index, choice)
            while slots[position].parent >= 0 { position = (position + 1) & (slots.count - 1) }
            slots[position] = Slot(parent: parent, index: index, choice: choice, key: key)
            count += 1
        }
    }

    /// A parent's run, replayed once and paused at each decision where a child deviates
    /// (`Options.resumesChildrenFromTheirParent`): children come in order of that decision, so
    /// the replay only moves forward, one parent after another.
    private struct ParentCursor {
        struct Parent: Equatable {
            var level: Int
            var position: Int
        }
        var machine: Machine
        var parent: Parent?
        /// Events simulated again to reach the decisions (`Result.replayedEvents`).
        var replayed = 0

        /// Leaves `machine` paused just before decision `index` of `parent`'s run (whose
        /// schedule `schedule` gives), replaying it from the start only when the machine is on
        /// another parent or already past that decision. False if the run ended first.
        mutating func pause(at index: Int, of parent: Parent, schedule: () -> Schedule) -> Bool {
            if self.parent != parent || machine.pendingDecision == nil || machine.decisions.count > index {
                machine.reset(schedule())
                self.parent = parent
            }
            if machine.pendingDecision != nil && machine.decisions.count == index { return true }
            let before = machine.trace.count
            defer { replayed += machine.trace.count - before }
            guard machine.proceed(pausingAt: index) else {
                self.parent = nil
                return false
            }
            return true
        }

        /// Brings `child` to the start of its run, `schedule`, which deviates from `parent`'s at
        /// decision `index`: the parent's run up to there (replayed, paused), copied, or taken
        /// whole when `last` (no later child needs it; the cursor keeps the child's old machine
        /// and is on no parent then).
        mutating func start(_ child: inout Machine, as schedule: Schedule, deviatingAt index: Int, from parent: Parent,
                            last: Bool, parentSchedule: () -> Schedule) {
            guard pause(at: index, of: parent, schedule: parentSchedule) else {
                // The parent's run never reached that decision: it cannot happen (runs are
                // deterministic), but a run from the start is always right.
                child.reset(schedule)
                return
            }
            if last {
                swap(&child, &machine)
                self.parent = nil
                child.inheritedEvents = child.trace.count
            } else {
                child.copyState(from: &machine)
            }
            child.schedule = schedule
        }
    }

    /// What the depth-first walk (`forEachSchedule`) carries down, passed `inout` rather than
    /// captured: a recursive local function's captures are boxed, and every access to them was
    /// checked at run time.
    private struct Walk {
        init(machines: [Machine], cursor: ParentCursor) {
            self.machines = machines
            self.cursor = cursor
            visits = Array(repeating: 0, count: machines.count)
        }

        /// Schedules visited at each level.
        var visits: [Int]
        /// Every visit, in order (within a level, the breadth-first order): its level in the low
        /// byte, above it the events it simulated plus one (0: covered). One flat array, as
        /// cheap to append to as a counter.
        var log: [Int] = []
        /// A schedule was not visited because breadth first stops (`maxRuns`) before it.
        var pruned = false

        /// One machine per depth: a run's children are copied from its machine, paused,
        /// into the next one.
        var machines: [Machine]
        var cursor: ParentCursor
        /// The choices of the schedule being visited, deepest last.
        var choices: [Schedule.Choice] = []

        /// The schedule gets a copy of `choices` of its own: sharing the walk's buffer, the
        /// walk's next change to it (a child's choice added or taken off) copied it instead,
        /// and once more for every parent.
        func schedule(_ configuration: Schedule) -> Schedule {
            var schedule = configuration
            schedule.choices = choices.withUnsafeBufferPointer { Array($0) }
            return schedule
        }

        // Reads of a machine in `machines` go through `inout`: read through the array's
        // getter, the whole machine was copied (its arrays retained, then released).
        static func pendingAlternatives(_ machine: inout Machine) -> Int { machine.pendingDecision?.total ?? 1 }
        static func simulatedEvents(_ machine: inout Machine) -> Int { machine.trace.count - machine.inheritedEvents }
    }
    /// Where a run's machine comes from in the depth-first walk.
    private enum Start {
        /// A level-0 schedule: from the start.
        case reset
        /// Copied from its parent's machine (one level up), paused just before `deviation`.
        case parentRun
        /// Resumed from a replay of its parent (`ParentCursor`), which was covered, not run;
        /// `last`: no later sibling needs the replay.
        /// (The parent's choices are the child's but its last: read from `Walk.choices` when the
        /// cursor needs them. Kept here, a copy of the array made each child's first choice copy
        /// the walk's choices afresh.)
        case replay(parent: ParentCursor.Parent, last: Bool)
    }
    /// A schedule waiting for its children: the system configuration it ran under (in
    /// `configurations`), its choices (the level's `choices` pool holds `level` per entry, in
    /// frontier order), the decisions its run met, and its memo key.
    private struct FrontierEntry {
        var configuration: Int32
        var decisions: Range<Int>
        var key: Int32
    }

    /// Calls the visitor's `run` on every schedule in exploration order; `run` returns false to
    /// stop at once. A schedule that differs from one already run only in a refusal the run never
    /// read, or in a budget that could not have mattered (see `Machine.budgetFloor`), gives the
    /// very same run: it is not run again but handed to `covered`, which counts it, and its
    /// decisions and instants are taken from the run it repeats. Random schedules always run.
    /// A schedule is built (its choices array allocated) only when it runs or a visitor asks for
    /// it. The decisions each run met (read from `machine`) are copied into a pool per level, so
    /// the machine keeps its own buffer rather than allocating a new one for every run.
    private func forEachSchedule<Visitor: ScheduleVisitor>(_ machine: inout Machine, _ visitor: inout Visitor, depthFirst: Bool = false) {
        var pool: [UInt8] = []
        var instantPool: [Double] = []
        var quietPool: [Double] = []
        var memo = Memo()
        memo.reserveKeys(512)
        // Made once: the property builds its array on every read.
        let budgets = self.budgets
        /// The simulated schedules, for `covered`'s `repeats`.
        var ran: [Schedule] = []
        /// Level 0's schedules (budget, refusal, forced expiry); deeper levels add only choices.
        var configurations: [Schedule] = []
        func keep<Element>(_ items: [Element], in pool: inout [Element]) -> Range<Int> {
            let start = pool.count
            pool.append(contentsOf: items)
            return start..<pool.count
        }
        /// Whether an early expiry at `forced` falls strictly inside one of the quiet intervals of
        /// `entry`'s run (an unforced one), where it would change nothing.
        func isQuiet(_ forced: Double, in entry: Memo.Entry) -> Bool {
            stride(from: entry.quiet.lowerBound, to: entry.quiet.upperBound, by: 2).contains {
                quietPool[$0] < forced && forced < quietPool[$0 + 1]
            }
        }
        /// The run already made that `configuration` with these choices (`key`) would repeat
        /// exactly, if any.
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
        /// Keeps what the memo needs of `run`, the finished run of `schedule`: its decisions (in
        /// `pool`), its instants when asked, and its quiet intervals.
        func record(_ run: inout Machine, _ schedule: Schedule, key: Int32, pool: inout [UInt8], instants: Bool) -> (Range<Int>, Range<Int>) {
            let decisions = keep(run.decisions, in: &pool)
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
        /// Runs or covers the schedule `make` builds (whose system configuration is
        /// `configuration`); its decisions (in `pool`) and, when asked, its instants.
        func visit(_ configuration: Schedule, key: Int32, pool: inout [UInt8], instants: Bool,
                   make: () -> Schedule, start: (inout Machine, Schedule) -> Void) -> (Range<Int>, Range<Int>)? {
            if let entry = coveringEntry(configuration, key: key) {
                guard visitor.covered(make, repeats: { ran[Int(entry.ran)] }), !visitor.stop else { return nil }
                return (entry.decisions, entry.instants)
            }
            let schedule = make()
            guard visitor.run(&machine, schedule, start: { start(&$0, schedule) }), !visitor.stop else { return nil }
            return record(&machine, schedule, key: key, pool: &pool, instants: instants)
        }
        /// The last decision from `start` on, of the run whose decisions `range` holds in `pool`,
        /// with more than one alternative (-1: none).
        /// (A loop: `last(where:) ?? -1` drew a spurious "non-optional" warning.)
        func lastBranchingDecision(_ range: Range<Int>, from start: Int) -> Int {
            for index in (start..<max(start, range.count)).reversed() where pool[range.lowerBound + index] > 1 { return index }
            return -1
        }
        /// Early expiries to try in a configuration: at every instant where something happened
        /// in its unforced run (`instants`, in `instantPool`), and just before and after it.
        func expiryCandidates(_ instants: Range<Int>) -> [Double] {
            var candidates: [Double] = []
            candidates.reserveCapacity(instants.count * 3)
            for instant in instantPool[instants] {
                // Three offsets in a loop, not an array literal: that allocated an array per instant.
                for offset in -1...1 {
                    let t = offset == 0 ? instant : instant + Double(offset) * 0.001
                    if t >= 0 && !candidates.contains(t) { candidates.append(t) }
                }
            }
            return candidates
        }
        /// Depth first (`explore(stopAtFirstFailure:likelyToPass:)`): each run that is simulated
        /// pauses at every decision where a child of it deviates, and that child runs there and
        /// then, copied from it (and its own children the same way), so no parent's run is ever
        /// replayed to reach its children. A covered run's children still resume from a replay
        /// (`ParentCursor`). The schedules, their runs, the memo's coverage and every count are
        /// the breadth-first ones (a schedule's covering run is one of the same choices, and
        /// those come in the same order either way); only the order of the runs differs. Within a
        /// level it is the breadth-first order, so `maxRuns` is applied level by level as breadth
        /// first applies it (`Walk.visits`); a failure stops it, and the caller starts over
        /// breadth first. False when it stopped (a failure, or the counts settled at `maxRuns`).
        func systematicDepthFirst() -> Bool {
            let bound = options.preemptionBound
            var walk = Walk(machines: (0...bound).map { _ in makeMachine() }, cursor: ParentCursor(machine: makeMachine()))
            defer {
                visitor.noteReplayed(walk.cursor.replayed)
                // Moved out, so the pool holds the only reference to each machine's arrays.
                var machines = walk.machines
                walk.machines = []
                while let machine = machines.popLast() { giveBack(machine) }
                giveBack(walk.cursor.machine)
            }
            // The walk applies `maxRuns` itself, in breadth-first terms (see `node`).
            visitor.maxRuns = .max
            /// Visits `configuration` with `walk.choices` (the last made at decision `deviation`;
            /// -1 for none) and then, below `bound`, its children.
            func node(_ configuration: Schedule, key: Int32, level: Int, deviation: Int, instants: Bool,
                      start: Start, walk: inout Walk) -> (Range<Int>, Range<Int>)? {
                // Breadth first visits a whole level before the next and stops after `maxRuns`
                // schedules: one it would not reach is not visited (nor are its children), since
                // every schedule of this level that comes later would not be reached either.
                var earlier = 0
                for lower in 0..<level { earlier += walk.visits[lower] }
                guard earlier + walk.visits[level] < options.maxRuns else {
                    walk.pruned = true
                    return (0..<0, 0..<0)
                }
                walk.visits[level] += 1
                // Its place in the log names it for the cursor: no two visits share one.
                let visit = walk.log.count
                walk.log.append(level)
                let identity = ParentCursor.Parent(level: level, position: visit)
                if let entry = coveringEntry(configuration, key: key) {
                    // Built only when asked: most schedules are covered, and building one
                    // allocates its choices.
                    guard visitor.covered({ walk.schedule(configuration) }, repeats: { ran[Int(entry.ran)] }), !visitor.stop else { return nil }
                    guard level < bound else { return (entry.decisions, entry.instants) }
                    let range = entry.decisions
                    guard deviation + 1 < range.count else { return (entry.decisions, entry.instants) }
                    let lastBranching = lastBranchingDecision(range, from: deviation + 1)
                    for index in deviation + 1..<range.count where pool[range.lowerBound + index] > 1 {
                        let alternatives = pool[range.lowerBound + index]
                        for alternative in 1..<alternatives {
                            walk.choices.append(Schedule.Choice(index: Int32(index), choice: alternative))
                            let last = index == lastBranching && alternative == alternatives - 1
                            guard node(configuration, key: memo.key(parent: key, index: Int32(index), choice: alternative),
                                       level: level + 1, deviation: index, instants: false,
                                       start: .replay(parent: identity, last: last),
                                       walk: &walk) != nil else { return nil }
                            walk.choices.removeLast()
                        }
                    }
                    return (entry.decisions, entry.instants)
                }
                let schedule = walk.schedule(configuration)
                // This run's machine is `walk.machines[level]`, used in place.
                switch start {
                case .reset:
                    walk.machines[level].reset(schedule)
                case .parentRun:
                    walk.machines.withUnsafeMutableBufferPointer { machines in
                        machines[level].copyState(from: &machines[level - 1])
                    }
                    walk.machines[level].schedule = schedule
                case let .replay(parentIdentity, last):
                    let choices = walk.choices
                    walk.cursor.start(&walk.machines[level], as: schedule, deviatingAt: deviation, from: parentIdentity,
                                      last: last, parentSchedule: {
                        var parentSchedule = configuration
                        parentSchedule.choices = Array(choices.dropLast())
                        return parentSchedule
                    })
                }
                if level < bound {
                    var next = deviation + 1
                    while walk.machines[level].proceed(pausingAt: next) {
                        let alternatives = UInt8(min(Walk.pendingAlternatives(&walk.machines[level]), 255))
                        for alternative in 1..<max(alternatives, 1) {
                            walk.choices.append(Schedule.Choice(index: Int32(next), choice: alternative))
                            guard node(configuration, key: memo.key(parent: key, index: Int32(next), choice: alternative),
                                       level: level + 1, deviation: next, instants: false, start: .parentRun,
                                       walk: &walk) != nil else { return nil }
                            walk.choices.removeLast()
                        }
                        next += 1
                    }
                } else {
                    _ = walk.machines[level].proceed(pausingAt: -1)
                }
                guard visitor.run(&walk.machines[level], schedule, start: { _ in }), !visitor.stop else { return nil }
                walk.log[visit] = (Walk.simulatedEvents(&walk.machines[level]) + 1) << 8 | level
                return record(&walk.machines[level], schedule, key: key, pool: &pool, instants: instants)
            }
            // Level 0 in the breadth-first order. (Written out here and there: shared through a
            // function taking a closure, the captured memo and pools were boxed and every access
            // checked at run time, 10 % more instructions.)
            for refusal in refusals {
                for budget in budgets {
                    let base = Schedule(budget: budget, refusal: refusal)
                    guard let (_, instants) = node(base, key: 0, level: 0, deviation: -1, instants: true, start: .reset,
                                                   walk: &walk) else { return false }
                    guard !scenario.conditions.expiryOnlyAtEnd else { continue }
                    for t in expiryCandidates(instants) {
                        var schedule = base
                        schedule.forcedExpiry = t
                        guard node(schedule, key: memo.key(forced: t), level: 0, deviation: -1, instants: false, start: .reset,
                                   walk: &walk) != nil else { return false }
                    }
                }
            }
            // Visited level by level, a schedule could pass the check in `node` and still lie
            // past `maxRuns` once later schedules of lower levels were counted.
            if walk.pruned || walk.visits.reduce(0, +) > options.maxRuns {
                // Breadth first would have stopped after `maxRuns` schedules: the whole levels it
                // reached, then the start of the next, in order. Those are the counts.
                var remaining = options.maxRuns
                var taken = Array(repeating: 0, count: walk.visits.count)
                for level in walk.visits.indices {
                    taken[level] = min(walk.visits[level], remaining)
                    remaining -= taken[level]
                }
                var covered = 0
                var events = 0
                for entry in walk.log {
                    let level = entry & 0xFF
                    guard taken[level] > 0 else { continue }
                    taken[level] -= 1
                    if entry >> 8 == 0 { covered += 1 } else { events += (entry >> 8) - 1 }
                }
                visitor.settleCapped(runs: options.maxRuns, covered: covered, events: events)
                return false
            }
            visitor.maxRuns = options.maxRuns
            return true
        }
        /// Level by level, each in the order of the one before (the order `explore` reports):
        /// every configuration with the default interleaving, then one more non-default choice
        /// at a time. False when the visitor stopped it.
        func systematicBreadthFirst() -> Bool {
            // Level 0: every system configuration with the default interleaving.
            var frontier: [FrontierEntry] = []
            for refusal in refusals {
                for budget in budgets {
                    let base = Schedule(budget: budget, refusal: refusal)
                    guard let (decisions, instants) = visit(base, key: 0, pool: &pool, instants: true, make: { base },
                                                            start: { $0.run($1) }) else { return false }
                    configurations.append(base)
                    frontier.append(FrontierEntry(configuration: Int32(configurations.count - 1), decisions: decisions, key: 0))
                    guard !scenario.conditions.expiryOnlyAtEnd else { continue }
                    for t in expiryCandidates(instants) {
                        var schedule = base
                        schedule.forcedExpiry = t
                        let key = memo.key(forced: t)
                        guard let (decisions, _) = visit(schedule, key: key, pool: &pool, instants: false, make: { schedule },
                                                         start: { $0.run($1) }) else { return false }
                        configurations.append(schedule)
                        frontier.append(FrontierEntry(configuration: Int32(configurations.count - 1), decisions: decisions, key: key))
                    }
                }
            }
            // Levels 1...bound: one more non-default choice, after the last one already made.
            if options.preemptionBound > 0 {
                var choices: [Schedule.Choice] = []
                var cursor = ParentCursor(machine: makeMachine())
                defer {
                    visitor.noteReplayed(cursor.replayed)
                    giveBack(cursor.machine)
                }
                for level in 1...options.preemptionBound {
                    var next: [FrontierEntry] = []
                    var nextChoices: [Schedule.Choice] = []
                    let inherited = level - 1
                    for (position, entry) in frontier.enumerated() {
                        let range = entry.decisions
                        let own = position * inherited..<(position + 1) * inherited
                        let start = inherited == 0 ? 0 : Int(choices[own.upperBound - 1].index) + 1
                        guard start < range.count else { continue }
                        let configuration = configurations[Int(entry.configuration)]
                        /// The parent's last branching decision: its last alternative is the last
                        /// child that could deviate, and takes the paused run itself, not a copy.
                        let lastBranching = lastBranchingDecision(range, from: start)
                        /// Runs a child that deviates at decision `index`: the parent's run up to
                        /// there (the cursor's, paused), copied, then on with the child's choices.
                        func resume(_ child: inout Machine, _ schedule: Schedule, at index: Int, last: Bool) {
                            cursor.start(&child, as: schedule, deviatingAt: index, from: ParentCursor.Parent(level: level, position: position),
                                         last: last, parentSchedule: {
                                var parentSchedule = configuration
                                parentSchedule.choices = Array(choices[own])
                                return parentSchedule
                            })
                            _ = child.proceed(pausingAt: -1)
                        }
                        for index in start..<range.count where pool[range.lowerBound + index] > 1 {
                            let alternatives = pool[range.lowerBound + index]
                            for alternative in 1..<alternatives {
                                let choice = Schedule.Choice(index: Int32(index), choice: alternative)
                                let key = memo.key(parent: entry.key, index: Int32(index), choice: alternative)
                                guard let (decisions, _) = visit(configuration, key: key, pool: &pool, instants: false, make: {
                                    var child = configuration
                                    child.choices.reserveCapacity(level)
                                    child.choices.append(contentsOf: choices[own])
                                    child.choices.append(choice)
                                    return child
                                }, start: { machine, schedule in
                                    if options.resumesChildrenFromTheirParent {
                                        resume(&machine, schedule, at: index,
                                               last: index == lastBranching && alternative == alternatives - 1)
                                    } else {
                                        machine.run(schedule)
                                    }
                                }) else { return false }
                                // Element by element: appending the slice `choices[own]` retained
                                // and released the whole pool for every child.
                                for inheritedChoice in own { nextChoices.append(choices[inheritedChoice]) }
                                nextChoices.append(choice)
                                next.append(FrontierEntry(configuration: entry.configuration, decisions: decisions, key: key))
                            }
                        }
                    }
                    frontier = next
                    choices = nextChoices
                    if frontier.isEmpty { break }
                }
            }
            return true
        }
        if depthFirst {
            guard systematicDepthFirst() else { return }
        } else {
            guard systematicBreadthFirst() else { return }
        }
        /// The systematic run a random schedule would repeat, found without simulating: its draws
        /// depend only on how many alternatives each decision offers, so they are replayed along
        /// the decisions of the runs already made, following a drawn choice into the child run
        /// that made it. nil (run it) when a draw leaves what was explored (more choices than the
        /// bound, a child never visited, a decision with more alternatives than its record
        /// holds), or when an early expiry does not fall where the run it would repeat is quiet.
        func randomRepeat(_ schedule: Schedule) -> Memo.Entry? {
            guard let seed = schedule.seed,
                  var entry = memo.match(0, refusal: schedule.refusal, budget: schedule.budget, forced: nil) else { return nil }
            var generator = SeededGenerator(seed: seed)
            var key: Int32 = 0
            var made = 0
            var index = 0
            while index < entry.decisions.count {
                let alternatives = pool[entry.decisions.lowerBound + index]
                guard alternatives < 255 else { return nil }
                let value = UInt8(generator.next() % UInt64(alternatives))
                if value != 0 {
                    made += 1
                    guard made <= options.preemptionBound,
                          let child = memo.childKeys.find(parent: key, index: Int32(index), choice: value),
                          let next = memo.match(child, refusal: schedule.refusal, budget: schedule.budget, forced: nil) else { return nil }
                    key = child
                    entry = next
                }
                index += 1
            }
            if let forced = schedule.forcedExpiry, !isQuiet(forced, in: entry) { return nil }
            return entry
        }
        // Seeded random schedules on top; those that provably repeat a systematic run are counted
        // as that run (see `randomRepeat`).
        var generator = SeededGenerator(seed: stableHash(scenario.text))
        // Random early expiries fall before the latest instant any default run reached, plus a
        // second: fixed by level 0 alone, so it does not depend on which runs the memo skipped.
        let horizon = (instantPool.max() ?? 30) + 1
        let budgetList = budgets
        let refusalList = refusals
        for _ in 0..<options.randomSchedules {
            let seed = generator.next()
            var schedule = Schedule(budget: budgetList[Int(generator.next() % UInt64(budgetList.count))],
                                    refusal: refusalList[Int(generator.next() % UInt64(refusalList.count))], seed: seed)
            if !scenario.conditions.expiryOnlyAtEnd && generator.next() % 2 == 0 {
                schedule.forcedExpiry = Double(generator.next() % 1_000_000) / 1_000_000 * horizon
            }
            if let entry = randomRepeat(schedule) {
                guard visitor.covered({ schedule }, repeats: { ran[Int(entry.ran)] }) else { return }
            } else {
                guard visitor.run(&machine, schedule, start: { $0.run(schedule) }) else { return }
            }
            if visitor.stop { return }
        }
    }
}

/// What `forEachSchedule` reports each schedule to: a generic parameter, so each caller's
/// counting is specialised in place instead of going through boxed closures.
private protocol ScheduleVisitor {
    /// Runs `schedule` on `machine` (`start` makes the run: from the start, or resumed from its
    /// parent's); false stops the exploration at once.
    mutating func run(_ machine: inout Machine, _ schedule: Schedule, start: (inout Machine) -> Void) -> Bool
    /// Counts a schedule (built by `schedule`) that repeats the run of the schedule `repeats`
    /// builds, without simulating it; false stops the exploration at once.
    mutating func covered(_ schedule: () -> Schedule, repeats: () -> Schedule) -> Bool
    var stop: Bool { get }
    /// Most schedules to count before stopping.
    var maxRuns: Int { get set }
    /// Events simulated again to reach children's decisions (`Result.replayedEvents`).
    mutating func noteReplayed(_ events: Int)
    /// The counts of an exploration cut short by `maxRuns` as breadth first would have made
    /// them, computed by the depth-first walk, which visits schedules in another order.
    mutating func settleCapped(runs: Int, covered: Int, events: Int)
}

extension ScheduleVisitor {
    mutating func noteReplayed(_ events: Int) {}
    mutating func settleCapped(runs: Int, covered: Int, events: Int) {}
}

private struct ExploreVisitor: ScheduleVisitor {
    var maxRuns: Int
    let stopAtFirstFailure: Bool
    /// Level 0 runs it first; its trace is kept (`Result.nominalTrace`).
    let nominal: Schedule
    var result = Explorer.Result(runs: 0, events: 0, failure: nil, capped: false, covered: 0)
    var stop = false
    /// `result.nominalTrace` and `result.failure` are set.
    var keptNominal = false
    var failed = false

    init(maxRuns: Int, stopAtFirstFailure: Bool, nominal: Schedule) {
        self.maxRuns = maxRuns
        self.stopAtFirstFailure = stopAtFirstFailure
        self.nominal = nominal
    }

    mutating func run(_ machine: inout Machine, _ schedule: Schedule, start: (inout Machine) -> Void) -> Bool {
        if result.runs >= maxRuns { result.capped = true; stop = true; return false }
        start(&machine)
        // The first run breadth first; depth first, it finishes after its children. (Flags rather
        // than testing the optionals for nil: each test copied the optional, a trace's arrays
        // retained and released, on every run.)
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

    mutating func settleCapped(runs: Int, covered: Int, events: Int) {
        result.runs = runs
        result.covered = covered
        result.events = events
        result.capped = true
        stop = true
    }

    mutating func covered(_ schedule: () -> Schedule, repeats: () -> Schedule) -> Bool {
        if result.runs >= maxRuns { result.capped = true; stop = true; return false }
        // The run it repeats passed, or the exploration would have stopped (or already holds
        // its failure): only the count changes.
        result.runs += 1
        result.covered += 1
        return true
    }
}

private struct FirstTraceVisitor: ScheduleVisitor {
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

    mutating func covered(_ schedule: () -> Schedule, repeats: () -> Schedule) -> Bool {
        // The run it repeats did not satisfy the predicate, or the search would have stopped.
        guard runs < maxRuns else { return false }
        runs += 1
        return true
    }
}

private struct MismatchVisitor: ScheduleVisitor {
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

    mutating func covered(_ schedule: () -> Schedule, repeats: () -> Schedule) -> Bool {
        guard runs < maxRuns else { return false }
        runs += 1
        let (schedule, repeats) = (schedule(), repeats())
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
