import BGKBModel

/// One simulated run. A struct with mutating methods, so the compiler proves exclusive access
/// statically (a class paid a runtime check on every stored-property access); `reset` keeps the
/// arrays' capacity, so the explorer's thousands of runs allocate almost nothing.
struct Machine {
    // MARK: Types

    enum Context: Equatable {
        case plain
        case didFinishLaunching, didEnterBackground, willEnterForeground
        case expiryHandler(task: Int32)
        case push(Int32)
        case bgLaunch(Int32)
        case bgExpiration(Int32)
        case activity(Int32, expired: Bool)
        case sync(waiter: Int32)
        case lock(Int32)
        case call
        case branch
    }

    /// Variables a block captured: a range of `capturePool`, so work items, tasks and
    /// registrations hold no arrays of their own (no allocation or reference counting per item).
    struct Captures {
        var start: Int32
        var count: Int32
        static let none = Captures(start: 0, count: 0)
    }

    struct WorkItem {
        var block: Int32
        var captured: Captures
        var parameter: Value
        var context: Context
    }

    struct Frame {
        var block: Int32
        var pc: Int32 = 0
        var phase: UInt8 = 0
        var origin: Int32
        var loopsLeft: Int32 = 0
        var context: Context
        /// A function or closure body: `return` stops here.
        var boundary: Bool
    }

    enum Blocked: Equatable {
        case none, sync, lock(Int32), forever
    }

    struct Thread {
        var lane: Int32
        var pending: [WorkItem] = []
        var pendingHead = 0
        var frames: [Frame] = []
        var env: [Int32] = []
        var wake: Double = 0
        var blocked: Blocked = .none
        /// Holds the result of the first half of a two-step statement (read, then write).
        var accumulator: Value = .none
        var finished = false
    }

    struct Task {
        var name: Int32?
        var handler: Int32?
        var captured: Captures
        var ended = false
        var expiring = false
        var handlerRunning = false
    }

    struct SystemEvent {
        var time: Double
        var sequence: Int
        var kind: Kind
        enum Kind {
            case timeline(Int32)
            case budgetExpiry(generation: Int32)
            case forcedExpiry
            case handlerDeadline(task: Int32)
            case roundDeadline(round: Int32)
            case roundCheck(round: Int32)
            case suspendCheck
            case didEnterBackgroundDeadline(generation: Int32)
            case bgTaskExpiry(Int32)
            case bgTaskDeadline(Int32)
            case pushDeadline(Int32)
        }
    }

    struct Request {
        var identifier: Int32
        var processing: Bool
        var earliest: Double = 0
        var power = false
        var network = false
    }

    struct BGTaskState {
        var identifier: Int32
        var processing: Bool
        var expirationHandler: Int32?
        var captured: Captures = .none
        var queue: QueueRef?
        var completed = false
        var success = false
        var expiring = false
        /// The launch handler has begun: only from then on does the app hold the task.
        var launched = false
    }

    struct Registration {
        var identifier: Int32
        var queue: QueueRef?
        var block: Int32
        var captured: Captures
    }

    struct Activity {
        var block: Int32
        var captured: Captures
        var active = true
        var expiredCalled = false
    }

    // MARK: State

    // The fields from here to `blockLengths` come from the scenario and constants alone (`init`
    // derives them); `adopt(_:)` sets them all when a pooled machine takes on another scenario.
    private(set) var scenario: Scenario
    private(set) var constants: SystemConstants
    /// Looked up once per scenario rather than once per run (dictionary and string lookups).
    private(set) var didFinishLaunchingHandler: Int32?
    private(set) var didEnterBackgroundHandler: Int32?
    private(set) var willEnterForegroundHandler: Int32?
    private(set) var remoteNotificationHandler: Int32?
    /// For each timeline item that names a BGTask identifier, its index in `scenario.strings` (-1: none).
    private(set) var timelineIdentifiers: [Int32]
    /// The system events every run starts with (the timeline, in `post` order) and the cells of
    /// the globals plus the scratch cell, as `reset` would build them.
    private(set) var initialEvents: [SystemEvent]
    private(set) var initialCells: [Value]
    /// The statements' kinds behind an immutable reference: `execute` switches on them in place,
    /// where reading `scenario.statements` from a mutating method copied each statement.
    final class StatementTable: Sendable {
        let kinds: [StatementKind]
        init(_ kinds: [StatementKind]) { self.kinds = kinds }
    }
    private(set) var statementTable: StatementTable
    /// Each block's statement count, read by `exitsSilently` without copying the block.
    private(set) var blockLengths: [Int32]
    var takesSilentExitsAtOnce = true
    /// See `isDead`: a round's check that can find no leak is dropped rather than offered.
    var dropsSettledRoundChecks = true
    /// See `didEnterBackgroundExitIsSilent`: such an exit is taken at once, as silent exits are.
    var quietDidEnterBackgroundExits = true
    /// When the current trip's `applicationDidEnterBackground` deadline falls due.
    var didEnterBackgroundDeadline = Double.infinity
    var schedule: Schedule
    var generator = SeededGenerator(seed: 0)

    var now: Double = 0
    var state: AppState = .notRunning
    var launchPhaseOver = false
    var launchedByUser = true
    var backgroundAfterLaunch = false
    var deliverAfterLaunch: [SystemEvent.Kind] = []
    var cells: [Value] = []
    var threads: [Thread] = []
    /// Every run's captured variables, appended as blocks capture them (see `Captures`).
    var capturePool: [Int32] = []
    /// Threads of earlier runs, emptied but keeping their arrays' capacity: a run takes its
    /// threads from here rather than allocating (destroying and rebuilding them cost a tenth).
    var spareThreads: [Thread] = []
    var namedQueueThread: [Int32] = []
    var workerCount: Int32 = 0
    /// Lane of each thread spawn, named only when a trace is materialized.
    var laneNames: [LaneName] = []
    var current: Int32 = -1
    /// Pending system events in time order, from `eventsHead` on: taking the first moves the
    /// head instead of shifting the array down (`removeFirst` cost a call and a copy each time).
    var events: [SystemEvent] = []
    var eventsHead = 0
    var sequence = 0
    var tasks: [Task] = []
    var outstanding = 0
    var periodStart: Double?
    var periodExpired = false
    var periodGeneration: Int32 = 0
    var round: Int32 = 0
    var pendingHandlers = 0
    var inDidEnterBackground = false
    var suspendPending = false
    var backgroundGeneration: Int32 = 0
    var locks: [Int32] = []
    var registrations: [Registration] = []
    var requests: [Request] = []
    var pendingRequests: [Int32] = []
    var bgTasks: [BGTaskState] = []
    var runningBGTasks = 0
    var pushes: [Bool] = []
    var pendingPushes = 0
    var activities: [Activity] = []
    var activeActivities = 0

    var trace: [RawEvent] = []
    /// How many of `trace`'s events are warnings (most runs log none, and need not look).
    var warnings = 0
    var outcome: Outcome?
    var suspendedAt: Double = 0
    var steps = 0
    /// For the explorer: at each decision, how many alternatives there were.
    var decisions: [UInt8] = []
    /// Distinct instants at which something happened (candidate forced-expiry times).
    var instants: [Double] = []
    /// What the run read of its schedule, for the explorer's memo: a run that never read the
    /// refusal is the same run under every refusal; one whose budget never mattered (no live
    /// budget event came due, `backgroundTimeRemaining` never read in the background) is the
    /// same run under every budget above `budgetFloor`, the longest a period stayed live.
    var refusalRead = false
    var budgetMatters = false
    /// Starts at -infinity: a run that never began a period is the same under every budget.
    var budgetFloor: Double = -.infinity
    /// The start of the period a forced expiry ended while it was live, and the longest any
    /// other period stayed live. A budget whose event would fall due at the very instant of the
    /// forced expiry queues behind it (the forced expiry is posted first, in `reset`) and finds
    /// the period already over: that budget gives this very run too, though it is not above
    /// `budgetFloor`.
    var forcedPeriodStart: Double?
    var otherPeriodsFloor: Double = -.infinity
    /// Set while a forced expiry is being handled, for `noteBudgetStopsMattering`.
    var handlingForcedExpiry = false
    /// Open intervals of time (flat pairs) in which nothing could run (the clock jumped over
    /// them) and the app was not in the background, and the time after a run ended. An early
    /// expiry forced strictly inside one is handled alone, finds no background period to end and
    /// does nothing, so the explorer counts that schedule as this very run.
    var quietIntervals: [Double] = []
    var choiceCursor = 0
    /// Set when `proceed(pausingAt:)` stopped just before a decision: what that decision was to
    /// choose among, so the run can go on from there (see `proceed`).
    var pendingDecision: PendingDecision?
    /// How many of `trace`'s events came from the machine this run was copied from
    /// (`copyState(from:)`), not simulated by this run.
    var inheritedEvents = 0

    /// A decision the run loop reached and did not make yet: its alternatives as the loop had
    /// counted them (counting again could take a silent exit twice).
    struct PendingDecision {
        var total: Int
        var currentRunnable: Bool
        var firstOther: Int32
        var systemDue: Bool
    }

    enum Outcome {
        case suspended(Double)
        case running(Double)
        case terminated(Reason, Double)
        case crashed(Reason, Double)
    }

    enum LaneName {
        case main
        case queue(Int32)
        case worker(WorkerKind, Int32)
    }

    enum WorkerKind: String {
        case global, activity
        case bgTaskScheduler = "BGTaskScheduler"
    }

    static let stepLimit = 200_000
    static let mainLane: Int32 = 0

    init(scenario: Scenario, constants: SystemConstants) {
        self.scenario = scenario
        self.constants = constants
        self.schedule = Schedule(budget: constants.backgroundTaskBudget)
        didFinishLaunchingHandler = scenario.handlers[.didFinishLaunching]
        didEnterBackgroundHandler = scenario.handlers[.didEnterBackground]
        willEnterForegroundHandler = scenario.handlers[.willEnterForeground]
        remoteNotificationHandler = scenario.handlers[.didReceiveRemoteNotification]
        timelineIdentifiers = scenario.timeline.map { item in
            guard case let .systemLaunches(name) = item.event else { return -1 }
            return scenario.strings.firstIndex(of: name).map(Int32.init) ?? -1
        }
        var events: [SystemEvent] = []
        var sequence = 0
        for (index, item) in scenario.timeline.enumerated() {
            Machine.insert(SystemEvent(time: item.time, sequence: 0, kind: .timeline(Int32(index))), into: &events, sequence: &sequence)
        }
        initialEvents = events
        initialCells = scenario.globals.map(\.initial) + [.none]
        statementTable = StatementTable(scenario.statements.map(\.kind))
        blockLengths = scenario.blocks.map { Int32($0.statements.count) }
    }

    /// Makes this machine (one `MachinePool` kept from another exploration, perhaps of another
    /// scenario) one of `template`'s scenario, constants and options, keeping the capacity of its
    /// arrays: what `init` derives from the scenario is taken from `template`, not derived again,
    /// and the run state is left for `reset` or `copyState(from:)`, one of which starts every run.
    mutating func adopt(_ template: borrowing Machine) {
        scenario = template.scenario
        constants = template.constants
        didFinishLaunchingHandler = template.didFinishLaunchingHandler
        didEnterBackgroundHandler = template.didEnterBackgroundHandler
        willEnterForegroundHandler = template.willEnterForegroundHandler
        remoteNotificationHandler = template.remoteNotificationHandler
        timelineIdentifiers = template.timelineIdentifiers
        initialEvents = template.initialEvents
        initialCells = template.initialCells
        statementTable = template.statementTable
        blockLengths = template.blockLengths
        takesSilentExitsAtOnce = template.takesSilentExitsAtOnce
        dropsSettledRoundChecks = template.dropsSettledRoundChecks
        quietDidEnterBackgroundExits = template.quietDidEnterBackgroundExits
    }

    /// The most elements any of the run's growing arrays has room for (`MachinePool` drops a
    /// machine above its limit).
    var largestCapacity: Int {
        var largest = max(trace.capacity, events.capacity, capturePool.capacity, decisions.capacity, instants.capacity,
                          quietIntervals.capacity, cells.capacity, tasks.capacity, threads.capacity + spareThreads.capacity)
        for index in threads.indices {
            largest = max(largest, threads[index].pending.capacity, threads[index].frames.capacity, threads[index].env.capacity)
        }
        return largest
    }

    // MARK: Run

    mutating func reset(_ schedule: Schedule) {
        self.schedule = schedule
        generator = SeededGenerator(seed: schedule.seed ?? 0)
        now = 0
        state = .notRunning
        launchPhaseOver = false
        launchedByUser = true
        backgroundAfterLaunch = false
        clear(&deliverAfterLaunch)
        clear(&cells)
        clear(&capturePool)
        // The globals, then a scratch cell, so a reference that resolves to nothing can never
        // index out of range.
        cells.append(contentsOf: initialCells)
        while let thread = threads.popLast() { spareThreads.append(thread) }
        clear(&laneNames)
        threads.append(makeThread(lane: 0))
        laneNames.append(.main)
        clear(&namedQueueThread)
        for _ in scenario.queues {
            namedQueueThread.append(Int32(threads.count))
            threads.append(makeThread(lane: Int32(threads.count)))
            laneNames.append(.queue(Int32(laneNames.count - 1)))
        }
        workerCount = 0
        current = -1
        clear(&events)
        eventsHead = 0
        // The timeline's events, as posting each item in order would queue them.
        events.append(contentsOf: initialEvents)
        sequence = initialEvents.count
        clear(&tasks)
        outstanding = 0
        periodStart = nil
        periodExpired = false
        periodGeneration = 0
        round = 0
        pendingHandlers = 0
        inDidEnterBackground = false
        didEnterBackgroundDeadline = .infinity
        suspendPending = false
        backgroundGeneration = 0
        clear(&locks)
        locks.append(contentsOf: repeatElement(-1, count: scenario.locks.count))
        clear(&registrations)
        clear(&requests)
        clear(&pendingRequests)
        clear(&bgTasks)
        runningBGTasks = 0
        clear(&pushes)
        pendingPushes = 0
        clear(&activities)
        activeActivities = 0
        clear(&trace)
        warnings = 0
        outcome = nil
        suspendedAt = 0
        steps = 0
        clear(&decisions)
        clear(&instants)
        choiceCursor = 0
        refusalRead = false
        budgetMatters = false
        budgetFloor = -.infinity
        forcedPeriodStart = nil
        otherPeriodsFloor = -.infinity
        handlingForcedExpiry = false
        clear(&quietIntervals)
        pendingDecision = nil
        inheritedEvents = 0
        if let forced = schedule.forcedExpiry { post(at: forced, .forcedExpiry) }
    }

    /// Makes this machine's run state that of `other` (a machine of the same scenario, constants
    /// and options, typically paused by `proceed(pausingAt:)`), copying into the arrays this one
    /// already has, so a copy allocates nothing once capacities have grown (assigning the whole
    /// struct shared the buffers, and the run's first writes then copied each one afresh).
    /// Every stored `var` of the run is copied here; `MachineCopyTests` checks none is missed.
    /// `other` is inout only so that it is not copied to be passed (a copy of the whole machine
    /// retained and released every array of it); it is not changed.
    mutating func copyState(from other: inout Machine) {
        didEnterBackgroundDeadline = other.didEnterBackgroundDeadline
        schedule = other.schedule
        generator = other.generator
        now = other.now
        state = other.state
        launchPhaseOver = other.launchPhaseOver
        launchedByUser = other.launchedByUser
        backgroundAfterLaunch = other.backgroundAfterLaunch
        copy(&deliverAfterLaunch, &other.deliverAfterLaunch)
        copy(&cells, &other.cells)
        while threads.count > other.threads.count, let thread = threads.popLast() { spareThreads.append(thread) }
        while threads.count < other.threads.count { threads.append(makeThread(lane: 0)) }
        // Field by field, reading `other`'s threads in place: a `Thread` copy retained its arrays.
        for index in threads.indices {
            threads[index].lane = other.threads[index].lane
            copy(&threads[index].pending, &other.threads[index].pending)
            threads[index].pendingHead = other.threads[index].pendingHead
            copy(&threads[index].frames, &other.threads[index].frames)
            copy(&threads[index].env, &other.threads[index].env)
            threads[index].wake = other.threads[index].wake
            threads[index].blocked = other.threads[index].blocked
            threads[index].accumulator = other.threads[index].accumulator
            threads[index].finished = other.threads[index].finished
        }
        copy(&capturePool, &other.capturePool)
        copy(&namedQueueThread, &other.namedQueueThread)
        workerCount = other.workerCount
        copy(&laneNames, &other.laneNames)
        current = other.current
        copy(&events, &other.events)
        eventsHead = other.eventsHead
        sequence = other.sequence
        copy(&tasks, &other.tasks)
        outstanding = other.outstanding
        periodStart = other.periodStart
        periodExpired = other.periodExpired
        periodGeneration = other.periodGeneration
        round = other.round
        pendingHandlers = other.pendingHandlers
        inDidEnterBackground = other.inDidEnterBackground
        suspendPending = other.suspendPending
        backgroundGeneration = other.backgroundGeneration
        copy(&locks, &other.locks)
        copy(&registrations, &other.registrations)
        copy(&requests, &other.requests)
        copy(&pendingRequests, &other.pendingRequests)
        copy(&bgTasks, &other.bgTasks)
        runningBGTasks = other.runningBGTasks
        copy(&pushes, &other.pushes)
        pendingPushes = other.pendingPushes
        copy(&activities, &other.activities)
        activeActivities = other.activeActivities
        copy(&trace, &other.trace)
        warnings = other.warnings
        outcome = other.outcome
        suspendedAt = other.suspendedAt
        steps = other.steps
        copy(&decisions, &other.decisions)
        copy(&instants, &other.instants)
        refusalRead = other.refusalRead
        budgetMatters = other.budgetMatters
        budgetFloor = other.budgetFloor
        forcedPeriodStart = other.forcedPeriodStart
        otherPeriodsFloor = other.otherPeriodsFloor
        handlingForcedExpiry = other.handlingForcedExpiry
        copy(&quietIntervals, &other.quietIntervals)
        choiceCursor = other.choiceCursor
        pendingDecision = other.pendingDecision
        inheritedEvents = other.trace.count
    }

    mutating func run(_ schedule: Schedule) {
        reset(schedule)
        _ = proceed(pausingAt: -1)
    }

    /// Runs on from where the machine stands (just reset, or paused) until the run ends, or until
    /// the loop is about to make decision `pause` (counting from 0): then it stops before making
    /// it, with `pendingDecision` set, and returns true. The explorer pauses a parent's run at a
    /// decision, copies the machine (`copyState(from:)`) once per child schedule that deviates
    /// there, and goes on with each child's choices: the run up to that decision is the parent's,
    /// so it is not simulated again for every child.
    mutating func proceed(pausingAt pause: Int) -> Bool {
        if let pending = pendingDecision {
            pendingDecision = nil
            take(Int(decide(alternatives: pending.total)), currentRunnable: pending.currentRunnable,
                 firstOther: pending.firstOther, systemDue: pending.systemDue)
        }
        while outcome == nil {
            if steps >= Machine.stepLimit {
                crash(.stepLimit)
                break
            }
            // A dead event would do nothing when handled; dropped here, it neither moves the clock
            // nor stands as a scheduling alternative that changes nothing.
            while eventsHead < events.count && isDead(events[eventsHead].kind) { eventsHead += 1 }
            let systemDue = eventsHead < events.count && events[eventsHead].time <= now
            if systemDue, case .budgetExpiry = events[eventsHead].kind { budgetMatters = true }
            var runnableCount = 0
            var currentRunnable = false
            // The first runnable thread other than the current one: the default pick when the
            // current thread cannot run, found in the same pass.
            var firstOther: Int32 = -2
            if stateLetsThreadsRun {
                for index in threads.indices where isRunnable(Int32(index)) {
                    // Only the current thread's: offered, its exit would be the default step and
                    // leave it current. Another thread's exit taken at once would leave `current`
                    // where it was, and a later default would go elsewhere than it did offered
                    // (FuzzScenario found a run lost that way).
                    if takesSilentExitsAtOnce && Int32(index) == current && exitsSilently(index) {
                        exitSilently(index)
                        guard isRunnable(Int32(index)) else { continue }
                    }
                    runnableCount += 1
                    if Int32(index) == current { currentRunnable = true } else if firstOther == -2 { firstOther = Int32(index) }
                }
            }
            let total = runnableCount + (systemDue ? 1 : 0)
            if total == 0 {
                let from = now
                guard advanceClock() else { break }
                if state != .background {
                    quietIntervals.append(from)
                    quietIntervals.append(now)
                }
                continue
            }
            var pick = 0
            if total > 1 {
                if decisions.count == pause {
                    pendingDecision = PendingDecision(total: total, currentRunnable: currentRunnable, firstOther: firstOther, systemDue: systemDue)
                    return true
                }
                pick = Int(decide(alternatives: total))
            }
            take(pick, currentRunnable: currentRunnable, firstOther: firstOther, systemDue: systemDue)
        }
        finishRun()
        return false
    }

    /// Takes alternative `pick` of a decision: the current thread, other threads by lane, then
    /// the system. Threads first makes the default run the kind one ("shortly after"); the
    /// explorer tries the system earlier.
    @inline(__always)
    private mutating func take(_ pick: Int, currentRunnable: Bool, firstOther: Int32, systemDue: Bool) {
        var chosen: Int32 = -2
        var position = 0
        if currentRunnable {
            if pick == position { chosen = current }
            position += 1
        } else if pick == 0 && firstOther != -2 {
            chosen = firstOther
        }
        if chosen == -2 {
            for index in threads.indices where Int32(index) != current && isRunnable(Int32(index)) {
                if pick == position { chosen = Int32(index); break }
                position += 1
            }
        }
        if chosen == -2 && systemDue && pick == position { chosen = -1 }
        if chosen == -1 {
            let event = events[eventsHead]
            eventsHead += 1
            handle(event.kind)
        } else {
            current = chosen
            step(chosen)
        }
    }

    /// The end of a run: its outcome, and the quiet time after it.
    private mutating func finishRun() {
        noteBudgetStopsMattering()
        if outcome == nil {
            switch state {
            case .suspended: outcome = .suspended(suspendedAt)
            // Reclaimed by the system after a clean suspension: as clean as suspended.
            case .notRunning where !trace.isEmpty: outcome = .suspended(suspendedAt)
            default: outcome = .running(now)
            }
        }
        // Nothing happens after a run that ended suspended, killed or crashed; one still running
        // reports the clock, which a later forced expiry would move.
        switch outcome {
        case .suspended?, .terminated?, .crashed?:
            quietIntervals.append(now)
            quietIntervals.append(.infinity)
        default: break
        }
    }

    /// An event that can no longer do anything, whatever happens next: its period, round or trip
    /// to the background is over, and those only ever move on.
    ///
    /// A round's check that finds no leak now never will: a round expires its tasks when it starts
    /// (`expireAll`, a refusal that calls the handler) and no task starts expiring during it, and
    /// an ended task stays ended. Handled at any later instant of its round it would still do
    /// nothing, so it is not a scheduling alternative either; and it falls due at the instant it
    /// is posted, so dropping it moves no clock. (The round's deadline does move the clock, and a
    /// run that ends still running reports the time: it stays.)
    private func isDead(_ kind: SystemEvent.Kind) -> Bool {
        switch kind {
        case let .budgetExpiry(generation): return generation != periodGeneration || periodExpired
        case let .roundDeadline(r): return r != round
        case let .roundCheck(r): return r != round || (dropsSettledRoundChecks && leakedTask == nil)
        case let .didEnterBackgroundDeadline(generation): return generation != backgroundGeneration || !inDidEnterBackground
        default: return false
        }
    }

    private mutating func decide(alternatives: Int) -> UInt8 {
        let index = Int32(decisions.count)
        decisions.append(UInt8(min(alternatives, 255)))
        while choiceCursor < schedule.choices.count && schedule.choices[choiceCursor].index < index { choiceCursor += 1 }
        if choiceCursor < schedule.choices.count && schedule.choices[choiceCursor].index == index {
            return UInt8(min(Int(schedule.choices[choiceCursor].choice), alternatives - 1))
        }
        if schedule.seed != nil {
            let value = UInt8(generator.next() % UInt64(alternatives))
            if value != 0 { schedule.choices.append(.init(index: index, choice: value)); choiceCursor = schedule.choices.count }
            return value
        }
        return 0
    }

    private mutating func advanceClock() -> Bool {
        var next = Double.infinity
        if eventsHead < events.count { next = events[eventsHead].time }
        if state != .suspended && state != .terminated && state != .notRunning {
            for index in threads.indices where threads[index].wake > now && threads[index].blocked == .none && hasWork(index) {
                next = min(next, threads[index].wake)
            }
        }
        guard next.isFinite else { return false }
        now = next
        return true
    }

    /// The first task the system has called in (its round began) that the app has not ended:
    /// S6's leak, which a round's check and deadline terminate for.
    var leakedTask: Int? {
        tasks.firstIndex { $0.expiring && !$0.ended }
    }

    /// Whether all a thread would do next is leave its blocks, and leaving them is seen by
    /// nothing: no loop turns again, no one waits on them, nothing is recorded. Such a step
    /// commutes with every other; offered as a scheduling alternative it only gave the same run
    /// twice, so the run loop takes it at once (`exitSilently`) instead.
    ///
    /// Inlined, as `isRunnable` is: called from the mutating run loop, a non-mutating method of
    /// this large struct is handed a 752-byte copy of the machine (a `memcpy` per call, 2.5 % of
    /// an exploration's instructions).
    @inline(__always)
    private func exitsSilently(_ t: Int) -> Bool {
        var index = threads[t].frames.count - 1
        guard index >= 0 else { return false }
        // The top frame is past its last statement; each frame below it will be once the frame
        // above hands control back (its pc moves past the statement that entered that frame).
        var past: Int32 = 0
        while index >= 0 {
            let frame = threads[t].frames[index]
            guard frame.pc + past >= blockLengths[Int(frame.block)], frame.loopsLeft == 0 else { return false }
            switch frame.context {
            case .plain, .call, .branch, .willEnterForeground, .push, .bgLaunch, .bgExpiration: break
            case .didEnterBackground where quietDidEnterBackgroundExits && didEnterBackgroundExitIsSilent: break
            default: return false
            }
            past = 1
            index -= 1
        }
        return true
    }

    /// Leaving `applicationDidEnterBackground` clears `inDidEnterBackground` and asks for a
    /// suspension. That is seen by nothing when something else still holds the app up (a task,
    /// a handler, a BGTask, a push, an activity: the suspension check then does nothing, and
    /// whatever releases that hold checks again), the handler's 5 s deadline is not due yet (the
    /// clock cannot move while the exit is pending, so no order puts the deadline first), and no
    /// timeline event is due at this instant (a new trip to the background would set the flag
    /// the exit clears).
    private var didEnterBackgroundExitIsSilent: Bool {
        let heldOtherwise = state != .background || !launchPhaseOver || outstanding > 0 || pendingHandlers > 0
            || runningBGTasks > 0 || pendingPushes > 0 || activeActivities > 0
        guard heldOtherwise, !suspendPending, didEnterBackgroundDeadline > now else { return false }
        var index = eventsHead
        while index < events.count && events[index].time <= now {
            if case .timeline = events[index].kind { return false }
            index += 1
        }
        return true
    }

    /// A worker that exits this way is marked finished sooner, so a later spawn may reuse its
    /// slot: that changes thread indices, never lanes (numbered in spawn order), so the runs drawn
    /// are the same (`SilentExitTests`).
    private mutating func exitSilently(_ t: Int) {
        while !threads[t].frames.isEmpty {
            steps += 1
            popFrame(t)
        }
    }

    @inline(__always)
    private func hasWork(_ index: Int) -> Bool {
        !threads[index].frames.isEmpty || threads[index].pendingHead < threads[index].pending.count
    }

    /// Threads run only while the app is launching, in the foreground or in the background.
    private var stateLetsThreadsRun: Bool {
        switch state {
        case .launching, .foreground, .background: return true
        default: return false
        }
    }

    @inline(__always)
    private func isRunnable(_ index: Int32) -> Bool {
        guard stateLetsThreadsRun else { return false }
        // Fields read in place: copying the Thread would retain its three arrays.
        let t = Int(index)
        guard hasWork(t), threads[t].wake <= now else { return false }
        switch threads[t].blocked {
        case .none: return true
        case let .lock(lock): return locks[Int(lock)] < 0
        case .sync, .forever: return false
        }
    }

    // MARK: Recording

    /// `thread` is a thread index (or -1 for the system); the event keeps the thread's lane.
    @inline(__always)
    mutating func record(_ thread: Int32, _ note: Note) {
        let lane = thread >= 0 && Int(thread) < threads.count ? threads[Int(thread)].lane : -1
        trace.append(RawEvent(time: now, lane: lane, note: note))
        // Folded away at the many call sites whose note is known not to be a warning.
        if note.isWarning { warnings += 1 }
        if state == .background && instants.last != now { instants.append(now) }
    }

    mutating func post(at time: Double, _ kind: SystemEvent.Kind) {
        // Handled events are dropped once they are most of the array, so a long run's queue
        // stays short.
        if eventsHead >= 32 && eventsHead * 2 >= events.count {
            events.removeFirst(eventsHead)
            eventsHead = 0
        }
        Machine.insert(SystemEvent(time: time, sequence: 0, kind: kind), into: &events, from: eventsHead, sequence: &sequence)
    }

    /// Queues an event after every event due at the same time or earlier (numbered in order),
    /// among the pending events from `head` on.
    static func insert(_ event: SystemEvent, into events: inout [SystemEvent], from head: Int = 0, sequence: inout Int) {
        sequence += 1
        var event = event
        event.sequence = sequence
        var index = events.count
        while index > head && (events[index - 1].time > event.time) { index -= 1 }
        events.append(event)
        guard index < events.count - 1 else { return }
        // The later events move up one place in the buffer (usually one or two of them):
        // `insert(_:at:)` went through the generic `replaceSubrange`, 100 instructions a call.
        events.withUnsafeMutableBufferPointer { buffer in
            var slot = buffer.count - 1
            while slot > index {
                buffer[slot] = buffer[slot - 1]
                slot -= 1
            }
            buffer[index] = event
        }
    }

    mutating func terminate(_ reason: Reason) {
        guard outcome == nil else { return }
        record(-1, .terminated(reason))
        state = .terminated
        outcome = .terminated(reason, now)
    }

    mutating func crash(_ reason: Reason) {
        guard outcome == nil else { return }
        record(current, .crashed(reason))
        state = .terminated
        outcome = .crashed(reason, now)
    }

    mutating func setState(_ new: AppState) {
        guard state != new else { return }
        state = new
        record(-1, .state(new))
        if new == .suspended { suspendedAt = now }
    }

    // MARK: Threads

    mutating func enqueue(on queue: QueueRef, _ item: WorkItem) {
        switch queue {
        case .main: threads[0].pending.append(item)
        case let .named(index): threads[Int(namedQueueThread[Int(index)])].pending.append(item)
        case .global: spawnWorker(item, name: .global)
        }
    }

    mutating func spawnWorker(_ item: WorkItem, name: WorkerKind) {
        workerCount += 1
        // Reuse a finished worker's slot so long runs do not grow the thread list.
        for index in threads.indices where threads[index].finished {
            threads[index].finished = false
            threads[index].pending.removeAll(keepingCapacity: true)
            threads[index].pendingHead = 0
            threads[index].pending.append(item)
            threads[index].wake = now
            threads[index].blocked = .none
            threads[index].lane = Int32(laneNames.count)
            laneNames.append(.worker(name, workerCount))
            return
        }
        var thread = makeThread(lane: Int32(laneNames.count))
        thread.pending.append(item)
        thread.wake = now
        // Moved in: appended as a copy, its three arrays were retained, then released with it.
        threads.append(consume thread)
        laneNames.append(.worker(name, workerCount))
    }

    /// A thread as `Thread(lane:)` would make it, reusing a spare one's storage when there is one.
    private mutating func makeThread(lane: Int32) -> Thread {
        guard var thread = spareThreads.popLast() else { return Thread(lane: lane) }
        thread.lane = lane
        clear(&thread.pending)
        thread.pendingHead = 0
        clear(&thread.frames)
        clear(&thread.env)
        thread.wake = 0
        thread.blocked = .none
        thread.accumulator = .none
        thread.finished = false
        return thread
    }

    mutating func capture(_ thread: Int32, block: Int32) -> Captures {
        let count = Int(scenario.blocks[Int(block)].captured)
        guard count > 0, let frame = threads[Int(thread)].frames.last else { return .none }
        let origin = Int(frame.origin)
        let end = min(threads[Int(thread)].env.count, origin + count)
        let start = capturePool.count
        capturePool.append(contentsOf: threads[Int(thread)].env[origin..<end])
        return Captures(start: Int32(start), count: Int32(capturePool.count - start))
    }

    private mutating func startItem(_ t: Int) {
        let item = threads[t].pending[threads[t].pendingHead]
        threads[t].pendingHead += 1
        if threads[t].pendingHead == threads[t].pending.count {
            clear(&threads[t].pending)
            threads[t].pendingHead = 0
        }
        clear(&threads[t].env)
        // One by one: a block captures a handful of variables, and appending a slice of the
        // pool took the generic path (a tenth of starting an item).
        for index in Int(item.captured.start)..<Int(item.captured.start + item.captured.count) {
            threads[t].env.append(capturePool[index])
        }
        let block = scenario.blocks[Int(item.block)]
        if block.parameters > 0 {
            cells.append(item.parameter)
            threads[t].env.append(Int32(cells.count - 1))
            for _ in 1..<Int(block.parameters) {
                cells.append(.none)
                threads[t].env.append(Int32(cells.count - 1))
            }
        }
        threads[t].frames.append(Frame(block: item.block, origin: 0, context: item.context, boundary: true))
        switch item.context {
        case let .expiryHandler(task):
            tasks[Int(task)].handlerRunning = true
            record(Int32(t), .handlerStarted(task: task))
            post(at: now + constants.expiryHandlerLimit, .handlerDeadline(task: task))
        case let .bgLaunch(index):
            bgTasks[Int(index)].launched = true
        default: break
        }
    }

    /// Runs one statement of thread `t` (frame entries and exits are free).
    private mutating func step(_ tIndex: Int32) {
        let t = Int(tIndex)
        var budget = 10_000
        while outcome == nil && budget > 0 {
            budget -= 1
            if threads[t].frames.isEmpty {
                guard threads[t].pendingHead < threads[t].pending.count else { return }
                startItem(t)
            }
            let frameIndex = threads[t].frames.count - 1
            let frame = threads[t].frames[frameIndex]
            let block = scenario.blocks[Int(frame.block)]
            if Int(frame.pc) >= block.statements.count {
                // Leaving a block is free in time but counts toward the step limit, so an empty
                // loop of a billion turns still stops.
                steps += 1
                popFrame(t)
                if steps >= Machine.stepLimit { return }
                continue
            }
            steps += 1
            let statementIndex = block.statements[Int(frame.pc)]
            execute(statementIndex, thread: t, frameIndex: frameIndex)
            return
        }
    }

    private mutating func popFrame(_ t: Int) {
        guard var frame = threads[t].frames.popLast() else { return }
        let block = scenario.blocks[Int(frame.block)]
        if frame.loopsLeft > 0 {
            frame.loopsLeft -= 1
            frame.pc = 0
            truncateEnv(t, to: Int(frame.origin + block.localsAtEntry))
            threads[t].frames.append(frame)
            return
        }
        truncateEnv(t, to: Int(frame.origin + block.localsAtEntry))
        // A frame pushed by a statement (call, branch, loop, lock) hands control back to it.
        if let parent = threads[t].frames.indices.last {
            threads[t].frames[parent].pc += 1
            threads[t].frames[parent].phase = 0
        }
        finish(frame.context, thread: t)
    }

    private mutating func truncateEnv(_ t: Int, to length: Int) {
        if threads[t].env.count > length && length >= 0 {
            threads[t].env.removeLast(threads[t].env.count - length)
        }
    }

    /// A work item (or inline block) has finished: tell whoever was waiting for it.
    private mutating func finish(_ context: Context, thread t: Int) {
        switch context {
        case .plain, .call, .branch, .willEnterForeground: break
        case .didFinishLaunching: finishLaunch()
        case .didEnterBackground:
            inDidEnterBackground = false
            checkSuspend()
        case let .expiryHandler(task):
            tasks[Int(task)].handlerRunning = false
            pendingHandlers -= 1
            if pendingHandlers == 0 { post(at: now, .roundCheck(round: round)) }
            checkSuspend()
        case .push, .bgLaunch, .bgExpiration: break
        case let .activity(index, expired):
            if activities[Int(index)].active && (!expired || activities[Int(index)].expiredCalled) {
                activities[Int(index)].active = false
                activeActivities -= 1
                record(Int32(t), .activityEnded(activity: index))
                checkSuspend()
            }
        case let .sync(waiter):
            threads[Int(waiter)].blocked = .none
            threads[Int(waiter)].frames[threads[Int(waiter)].frames.count - 1].pc += 1
        case let .lock(lock):
            locks[Int(lock)] = -1
        }
        if threads[t].frames.isEmpty && threads[t].pendingHead >= threads[t].pending.count && t > scenario.queues.count {
            threads[t].finished = true
        }
    }

    // MARK: Values

    @inline(__always)
    mutating func cellIndex(_ ref: VariableRef, thread t: Int) -> Int {
        switch ref {
        case let .global(index): return Int(index)
        case let .local(slot):
            let scratch = scenario.globals.count
            guard let frame = threads[t].frames.last else { return scratch }
            let position = Int(frame.origin + slot)
            return position < threads[t].env.count ? Int(threads[t].env[position]) : scratch
        }
    }

    mutating func remaining() -> Double {
        switch state {
        case .foreground, .launching: return Double.greatestFiniteMagnitude
        default:
            budgetMatters = true
            guard let start = periodStart else { return schedule.budget }
            return max(0, start + schedule.budget - now)
        }
    }

    /// Evaluates an expression that reads state (one step). Returns nil when it crashed.
    mutating func evaluate(_ expression: Expression, thread t: Int) -> Value? {
        switch expression {
        case let .literal(value): return value
        case let .read(ref): return cells[cellIndex(ref, thread: t)]
        case let .unwrap(ref):
            let value = cells[cellIndex(ref, thread: t)]
            if case .none = value {
                if case let .global(index) = ref { crash(.forceUnwrapNil(variable: index)) } else { crash(.forceUnwrapNil(variable: -1)) }
                return nil
            }
            return value
        case .backgroundTimeRemaining:
            return .int(clampedInt(remaining()))
        case let .begin(name, handler):
            return begin(name: name, handler: handler, thread: t)
        case let .refreshRequest(identifier):
            requests.append(Request(identifier: identifier, processing: false))
            return .request(Int32(requests.count - 1))
        case let .processingRequest(identifier):
            requests.append(Request(identifier: identifier, processing: true))
            return .request(Int32(requests.count - 1))
        case let .dateFromNow(seconds):
            return .int(clampedInt(now + seconds))
        }
    }

    private mutating func compare(_ left: Value, _ op: Comparison, _ right: Value) -> Bool {
        func number(_ v: Value) -> Int? {
            switch v {
            case let .int(n): return n
            case let .identifier(n): return Int(n)
            default: return nil
            }
        }
        switch op {
        case .equal: return left == right
        case .notEqual: return left != right
        default:
            guard let l = number(left), let r = number(right) else { return false }
            switch op {
            case .less: return l < r
            case .greater: return l > r
            case .lessOrEqual: return l <= r
            case .greaterOrEqual: return l >= r
            default: return false
            }
        }
    }

    private mutating func test(_ condition: Condition, thread t: Int) -> Bool? {
        switch condition {
        case let .compare(l, op, r):
            guard let left = evaluate(l, thread: t), let right = evaluate(r, thread: t) else { return nil }
            return compare(left, op, right)
        case let .truthy(e):
            guard let value = evaluate(e, thread: t) else { return nil }
            if case let .bool(b) = value { return b }
            if case .none = value { return false }
            return true
        case let .not(inner):
            return test(inner, thread: t).map { !$0 }
        case let .and(l, r):
            guard let left = test(l, thread: t) else { return nil }
            return left ? test(r, thread: t) : false
        case let .or(l, r):
            guard let left = test(l, thread: t) else { return nil }
            return left ? true : test(r, thread: t)
        }
    }

    /// Whether evaluating this expression is a read that a later write may race with.
    private mutating func isTwoStep(_ expression: Expression) -> Bool {
        switch expression {
        case .read, .unwrap, .begin: return true
        default: return false
        }
    }

    // MARK: Statements

    private mutating func advance(_ t: Int, _ frameIndex: Int) {
        threads[t].frames[frameIndex].pc += 1
        threads[t].frames[frameIndex].phase = 0
    }

    private mutating func execute(_ statementIndex: Int32, thread t: Int, frameIndex: Int) {
        let lane = Int32(t)
        record(lane, .step(statement: statementIndex, phase: threads[t].frames[frameIndex].phase))
        switch statementTable.kinds[Int(statementIndex)] {
        case let .declare(slot, initial):
            if let initial, isTwoStep(initial), threads[t].frames[frameIndex].phase == 0 {
                guard let value = evaluate(initial, thread: t) else { return }
                threads[t].accumulator = value
                threads[t].frames[frameIndex].phase = 1
                return
            }
            var value: Value = .none
            if let initial {
                if threads[t].frames[frameIndex].phase == 1 {
                    value = threads[t].accumulator
                } else {
                    guard let v = evaluate(initial, thread: t) else { return }
                    value = v
                }
            }
            cells.append(value)
            let frame = threads[t].frames[frameIndex]
            let position = Int(frame.origin + slot)
            if position < threads[t].env.count {
                threads[t].env[position] = Int32(cells.count - 1)
            } else {
                threads[t].env.append(Int32(cells.count - 1))
            }
            advance(t, frameIndex)
        case let .assign(ref, expression):
            if isTwoStep(expression) && threads[t].frames[frameIndex].phase == 0 {
                guard let value = evaluate(expression, thread: t) else { return }
                threads[t].accumulator = value
                threads[t].frames[frameIndex].phase = 1
                return
            }
            let value: Value
            if threads[t].frames[frameIndex].phase == 1 {
                value = threads[t].accumulator
            } else {
                guard let v = evaluate(expression, thread: t) else { return }
                value = v
            }
            cells[cellIndex(ref, thread: t)] = value
            advance(t, frameIndex)
        case let .add(ref, amount):
            let index = cellIndex(ref, thread: t)
            if threads[t].frames[frameIndex].phase == 0 {
                threads[t].accumulator = cells[index]
                threads[t].frames[frameIndex].phase = 1
                return
            }
            if case let .int(n) = threads[t].accumulator { cells[index] = .int(n &+ amount) }
            advance(t, frameIndex)
        case let .evaluate(expression):
            guard evaluate(expression, thread: t) != nil else { return }
            advance(t, frameIndex)
        case let .end(expression):
            guard let value = evaluate(expression, thread: t) else { return }
            end(value, thread: t)
            advance(t, frameIndex)
        case let .work(seconds):
            advance(t, frameIndex)
            threads[t].wake = now + seconds
        case .print:
            advance(t, frameIndex)
        case let .dispatch(queue, block, sync):
            if sync {
                switch queue {
                case .main where t == 0:
                    crash(.mainSyncOnMain)
                case .global:
                    threads[t].frames.append(Frame(block: block, origin: threads[t].frames[frameIndex].origin, context: .branch, boundary: true))
                case let .named(index) where Int(namedQueueThread[Int(index)]) == t:
                    crash(.mainSyncOnMain)
                default:
                    let captured = capture(lane, block: block)
                    enqueue(on: queue, WorkItem(block: block, captured: captured, parameter: .none, context: .sync(waiter: lane)))
                    threads[t].blocked = .sync
                    // The waiter's pc moves on when the block finishes (see `finish`).
                }
                return
            }
            let captured = capture(lane, block: block)
            enqueue(on: queue, WorkItem(block: block, captured: captured, parameter: .none, context: .plain))
            advance(t, frameIndex)
        case let .withLock(lock, block):
            let owner = locks[Int(lock)]
            if owner >= 0 {
                threads[t].blocked = owner == lane ? .forever : .lock(lock)
                return
            }
            threads[t].blocked = .none
            locks[Int(lock)] = lane
            threads[t].frames.append(Frame(block: block, origin: threads[t].frames[frameIndex].origin, context: .lock(lock), boundary: true))
        case let .call(function):
            let block = scenario.functions[Int(function)].block
            guard block >= 0 else { advance(t, frameIndex); return }
            threads[t].frames.append(Frame(block: block, origin: Int32(threads[t].env.count), context: .call, boundary: true))
        case let .branch(condition, thenBlock, elseBlock):
            guard let result = test(condition, thread: t) else { return }
            let origin = threads[t].frames[frameIndex].origin
            if result {
                threads[t].frames.append(Frame(block: thenBlock, origin: origin, context: .branch, boundary: false))
            } else if let elseBlock {
                threads[t].frames.append(Frame(block: elseBlock, origin: origin, context: .branch, boundary: false))
            } else {
                advance(t, frameIndex)
            }
        case let .loop(count, block):
            guard count > 0 else { advance(t, frameIndex); return }
            var frame = Frame(block: block, origin: threads[t].frames[frameIndex].origin, context: .branch, boundary: false)
            frame.loopsLeft = Int32(min(count - 1, Int(Int32.max)))
            threads[t].frames.append(frame)
        case .returnFromBlock:
            while let frame = threads[t].frames.last {
                if frame.boundary {
                    threads[t].frames[threads[t].frames.count - 1].pc = Int32(scenario.blocks[Int(frame.block)].statements.count)
                    threads[t].frames[threads[t].frames.count - 1].loopsLeft = 0
                    break
                }
                threads[t].frames.removeLast()
            }
        case let .register(identifier, queue, block):
            register(identifier: identifier, queue: queue, block: block, thread: t)
            if outcome == nil { advance(t, frameIndex) }
        case let .submit(expression):
            guard let value = evaluate(expression, thread: t) else { return }
            if case let .request(index) = value { submit(index, thread: t) }
            advance(t, frameIndex)
        case let .setRequest(ref, property, expression):
            guard let value = evaluate(expression, thread: t) else { return }
            if case let .request(index) = cells[cellIndex(ref, thread: t)] {
                switch (property, value) {
                case let (.earliestBeginDate, .int(time)): requests[Int(index)].earliest = Double(time)
                case let (.requiresExternalPower, .bool(b)): requests[Int(index)].power = b
                case let (.requiresNetworkConnectivity, .bool(b)): requests[Int(index)].network = b
                default: break
                }
            }
            advance(t, frameIndex)
        case let .setTaskCompleted(expression, success):
            guard let value = evaluate(expression, thread: t) else { return }
            if case let .task(index) = value { completeBGTask(index, success: success, thread: t) }
            advance(t, frameIndex)
        case let .setExpirationHandler(expression, block):
            guard let value = evaluate(expression, thread: t) else { return }
            if case let .task(index) = value {
                bgTasks[Int(index)].expirationHandler = block
                bgTasks[Int(index)].captured = block.map { capture(lane, block: $0) } ?? .none
            }
            advance(t, frameIndex)
        case let .completePush(expression):
            guard let value = evaluate(expression, thread: t) else { return }
            if case let .push(index) = value, !pushes[Int(index)] {
                pushes[Int(index)] = true
                pendingPushes -= 1
                record(lane, .pushCompleted(push: index))
                checkSuspend()
            }
            advance(t, frameIndex)
        case let .performExpiringActivity(_, block):
            let captured = capture(lane, block: block)
            activities.append(Activity(block: block, captured: captured))
            let index = Int32(activities.count - 1)
            refusalRead = true
            let refused = schedule.refusal != .none
            activeActivities += 1
            if state == .background && periodStart == nil { startPeriod() }
            record(lane, .activityStarted(activity: index, expired: refused))
            if refused { activities[Int(index)].expiredCalled = true }
            spawnWorker(WorkItem(block: block, captured: captured, parameter: .bool(refused), context: .activity(index, expired: refused)), name: .activity)
            advance(t, frameIndex)
        }
    }
}

/// Empties an array and keeps its storage. An empty array is left alone: removing nothing still
/// took the generic replace path, and most of a run's arrays are empty when the next run starts.
@inline(__always)
private func clear<Element>(_ array: inout [Element]) {
    if !array.isEmpty { array.removeAll(keepingCapacity: true) }
}

/// `array = source`, into `array`'s own storage (kept, and grown only when too small). `source`
/// is inout only so that passing it does not retain and release its buffer; it is not changed.
@inline(__always)
private func copy<Element>(_ array: inout [Element], _ source: inout [Element]) {
    let count = source.count
    guard array.count == count else {
        // From the source's buffer: handed the array itself, `replaceSubrange` retained and
        // released it (two atomic operations, 40 instructions, on most copies of a machine).
        source.withUnsafeBufferPointer { array.replaceSubrange(0..<array.count, with: $0) }
        return
    }
    // The same length (most of a run's arrays are empty on both sides): the elements are assigned
    // in place, a `memcpy` for the plain values all of them are.
    guard count > 0 else { return }
    array.withUnsafeMutableBufferPointer { target in
        source.withUnsafeMutableBufferPointer { from in target.baseAddress!.update(from: from.baseAddress!, count: count) }
    }
}
