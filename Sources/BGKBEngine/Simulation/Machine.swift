import BGKBModel

/// One simulated run. A struct with mutating methods, so the compiler proves exclusive access
/// statically; `reset` keeps the arrays' capacity, so the explorer's many runs allocate almost
/// nothing.
struct Machine {
    // MARK: Types

    enum Context: Hashable {
        case plain
        case didFinishLaunching, didEnterBackground, willEnterForeground
        case expiryHandler(task: Int32)
        case push(Int32)
        case bgLaunch(Int32)
        case bgExpiration(Int32)
        case activity(Int32, expired: Bool)
        /// The session delegate's `urlSessionDidFinishEvents` for a delivery: as it starts, the
        /// session's events have been delivered.
        case sessionEvents(Int32)
        /// The app delegate's `handleEventsForBackgroundURLSession` for a delivery: once it
        /// returns, the session delivers its events.
        case handleEvents(Int32)
        case sync(waiter: Int32)
        case lock(Int32)
        case call
        case branch
        /// The body of a `while` loop: leaving it tests the condition again.
        case whileBody
    }

    /// Variables a block captured: a range of `capturePool`, so work items, tasks and
    /// registrations hold no arrays of their own (no allocation or reference counting per item).
    struct Captures: Hashable {
        var start: Int32
        var count: Int32
        static let none = Captures(start: 0, count: 0)
    }

    struct WorkItem: Hashable {
        var block: Int32
        var captured: Captures
        var parameter: Value
        var context: Context
    }

    struct Frame: Hashable {
        var block: Int32
        var pc: Int32 = 0
        var phase: UInt8 = 0
        var origin: Int32
        var loopsLeft: Int32 = 0
        var context: Context
        /// A function or closure body: `return` stops here.
        var boundary: Bool
    }

    enum Blocked: Hashable {
        case none, sync, lock(Int32), forever
        /// Waiting on a semaphore or a group, until the given time (infinity: no timeout).
        case semaphore(Int32, until: Double)
        case group(Int32, until: Double)
    }

    struct Thread: Hashable {
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

    struct Task: Hashable {
        var name: Int32?
        var handler: Int32?
        var captured: Captures
        var ended = false
        var expiring = false
        var handlerRunning = false
    }

    struct SystemEvent: Hashable {
        var time: Double
        var kind: Kind
        enum Kind: Hashable {
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
            /// When the app must have called a background URLSession's completion handler.
            case urlSessionDeadline(Int32)
            /// When a continued processing task must have reported progress.
            case continuedStallCheck(Int32)
            /// When an expired expiring activity's `expired == true` call must have returned.
            case activityDeadline(Int32)
        }
    }

    struct Request: Hashable {
        var identifier: Int32
        var processing: Bool
        var earliest: Double = 0
        var power = false
        var network = false
    }

    struct BGTaskState: Hashable {
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

    struct Registration: Hashable {
        var identifier: Int32
        var queue: QueueRef?
        var block: Int32
        var captured: Captures
    }

    struct Activity: Hashable {
        var block: Int32
        var captured: Captures
        var active = true
        var expiredCalled = false
    }

    // MARK: State

    /// What comes from the scenario and constants alone, derived once (`init`) and shared by
    /// reference: a pooled machine that takes on another scenario (`adopt(_:)`) and a machine
    /// copied whole each take one reference, not a scenario and five tables field by field.
    final class Setup: Sendable {
        let scenario: Scenario
        let constants: SystemConstants
        /// Looked up once per scenario rather than once per run (dictionary and string lookups).
        let didFinishLaunchingHandler: Int32?
        let didEnterBackgroundHandler: Int32?
        let willEnterForegroundHandler: Int32?
        let remoteNotificationHandler: Int32?
        /// For each timeline item that names a BGTask identifier, its index in `scenario.strings` (-1: none).
        let timelineIdentifiers: [Int32]
        /// The system events every run starts with (the timeline, in `post` order) and the cells of
        /// the globals plus the scratch cell, as `reset` would build them.
        let initialEvents: [SystemEvent]
        let initialCells: [Value]
        let statementTable: StatementTable
        /// Each block's statement count, read by `exitsSilently` without copying the block.
        let blockLengths: [Int32]

        init(scenario: Scenario, constants: SystemConstants) {
            self.scenario = scenario
            self.constants = constants
            didFinishLaunchingHandler = scenario.handlers[.didFinishLaunching]
            didEnterBackgroundHandler = scenario.handlers[.didEnterBackground]
            willEnterForegroundHandler = scenario.handlers[.willEnterForeground]
            remoteNotificationHandler = scenario.handlers[.didReceiveRemoteNotification]
            timelineIdentifiers = scenario.timeline.map { item in
                guard case let .systemLaunches(name) = item.event else { return -1 }
                return scenario.strings.firstIndex(of: name).map(Int32.init) ?? -1
            }
            var events = EventQueue()
            for (index, item) in scenario.timeline.enumerated() {
                events.post(SystemEvent(time: item.time, kind: .timeline(Int32(index))))
            }
            initialEvents = Array(events.pending)
            initialCells = scenario.globals.map(\.initial) + [.none]
            statementTable = StatementTable(scenario.statements.map(\.kind), globals: scenario.globals,
                                            confinement: MainConfinement(scenario))
            blockLengths = scenario.blocks.map { Int32($0.statements.count) }
        }
    }
    private(set) var setup: Setup
    // The setup's fields, read in place (borrowed, not copied out).
    var scenario: Scenario { _read { yield setup.scenario } }
    var constants: SystemConstants { _read { yield setup.constants } }
    var didFinishLaunchingHandler: Int32? { setup.didFinishLaunchingHandler }
    var didEnterBackgroundHandler: Int32? { setup.didEnterBackgroundHandler }
    var willEnterForegroundHandler: Int32? { setup.willEnterForegroundHandler }
    var remoteNotificationHandler: Int32? { setup.remoteNotificationHandler }
    var timelineIdentifiers: [Int32] { _read { yield setup.timelineIdentifiers } }
    var initialEvents: [SystemEvent] { _read { yield setup.initialEvents } }
    var initialCells: [Value] { _read { yield setup.initialCells } }
    var statementTable: StatementTable { setup.statementTable }
    var blockLengths: [Int32] { _read { yield setup.blockLengths } }
    /// The statements' kinds behind an immutable reference, so `execute` switches on them in
    /// place without copying a statement.
    final class StatementTable: Sendable {
        let kinds: [StatementKind]
        /// Per statement, how far each phase is hidden from the system (`Machine.systemHiding`):
        /// phase 0 in the low two bits, phase 1 in the next two.
        let hiding: [UInt8]
        init(_ kinds: [StatementKind], globals: [Scenario.Global], confinement: MainConfinement) {
            self.kinds = kinds
            hiding = kinds.map { kind in
                Machine.systemHiding(kind, phase: 0, globals: globals, confinement: confinement)
                    | Machine.systemHiding(kind, phase: 1, globals: globals, confinement: confinement) << 2
            }
        }
    }
    var takesSilentExitsAtOnce = true
    /// See `systemHiding`: hidden steps go first (`Explorer.Options.takesHiddenStepsFirst`).
    var takesHiddenStepsFirst = true
    /// This machine's own limits: the standard ones, which tests lower to reach them quickly.
    var stepsWithoutTimePassingLimit = Machine.standardStepsWithoutTimePassingLimit
    var stepsInOneRunLimit = Machine.standardStepsInOneRunLimit
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
    /// threads from here rather than allocating new ones.
    var spareThreads: [Thread] = []
    var namedQueueThread: [Int32] = []
    var workerCount: Int32 = 0
    /// Lane of each thread spawn, named only when a trace is materialized.
    var laneNames: [LaneName] = []
    var current: Int32 = -1
    /// Pending system events in time order.
    var events = EventQueue()
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
    /// Semaphores, groups, suspended tasks, URLSessions and continued processing (Machine+Dispatch.swift).
    var objects = MachineObjects()

    var trace: [RawEvent] = []
    /// How many of `trace`'s events are warnings (most runs log none, and need not look).
    var warnings = 0
    var outcome: Outcome?
    var suspendedAt: Double = 0
    var steps = 0
    /// The instant the clock stood at when `stepsAtProgress` was taken: steps since then count
    /// toward `stepsWithoutTimePassingLimit`.
    var progressInstant: Double = 0
    var stepsAtProgress = 0
    /// For the explorer: at each decision, how many alternatives there were.
    var decisions: [UInt8] = []
    /// At each decision, whether the current thread could have gone on: a non-default pick there
    /// preempts it (the explorer's bound counts those, see `Explorer.Options.preemptionBound`).
    var preemptible: [Bool] = []
    /// An order-independent digest of `trace[0..<digestedEvents]` (see `fingerprint()`).
    var traceDigest = TraceDigest()
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
    struct PendingDecision: Hashable {
        var total: Int
        var currentRunnable: Bool
        var firstOther: Int32
        var systemDue: Bool
    }

    enum Outcome: Hashable {
        case suspended(Double)
        case running(Double)
        case terminated(Reason, Double)
        case crashed(Reason, Double)
        /// Stopped at one of the simulator's own limits: not a verdict about the app.
        case undecided(EngineLimit, Double)
    }

    enum LaneName: Hashable {
        case main
        case queue(Int32)
        case worker(WorkerKind, Int32)
    }

    enum WorkerKind: String {
        case global, activity
        case bgTaskScheduler = "BGTaskScheduler"
        case timer
        case urlSessionDelegate = "URLSession delegate queue"
    }

    /// The simulator's own limits (see `EngineLimit`). A run is stopped, undecided, when its
    /// steps since the simulated clock last moved reach the first (a loop that takes no
    /// simulated time would never end), or its steps in all reach the second (a bound on the
    /// run's length and on the memory its trace takes). Counting steps only since the clock
    /// last moved lets a long loop that takes simulated time run to its end, however many turns.
    static let standardStepsWithoutTimePassingLimit = 500_000
    static let standardStepsInOneRunLimit = 2_000_000
    static let mainLane: Int32 = 0

    init(scenario: Scenario, constants: SystemConstants) {
        setup = Setup(scenario: scenario, constants: constants)
        schedule = Schedule(budget: constants.backgroundTaskBudget)
    }

    /// Makes this machine (one `MachinePool` kept from another exploration, perhaps of another
    /// scenario) one of `template`'s scenario, constants and options, keeping the capacity of its
    /// arrays: what `init` derives from the scenario is taken from `template`, not derived again,
    /// and the run state is left for `reset` or `copyState(from:)`, one of which starts every run.
    mutating func adopt(_ template: borrowing Machine) {
        setup = template.setup
        takesSilentExitsAtOnce = template.takesSilentExitsAtOnce
        takesHiddenStepsFirst = template.takesHiddenStepsFirst
        dropsSettledRoundChecks = template.dropsSettledRoundChecks
        quietDidEnterBackgroundExits = template.quietDidEnterBackgroundExits
        stepsWithoutTimePassingLimit = template.stepsWithoutTimePassingLimit
        stepsInOneRunLimit = template.stepsInOneRunLimit
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
}
