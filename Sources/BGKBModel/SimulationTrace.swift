/// What one simulated run did: timed events and how it ended. The engine produces it, the site
/// draws it as a timeline and the quiz asks about it, so it lives in the model as plain data.
public struct SimulationTrace: Hashable, Sendable, Codable {
    public var events: [TraceEvent]
    public var outcome: SimulationOutcome
    /// The schedule choices that produced this run, printable and replayable (`bgkb check --replay`).
    public var schedule: String
    /// The seed of a random schedule, when it came from one.
    public var seed: UInt64?

    public init(events: [TraceEvent], outcome: SimulationOutcome, schedule: String, seed: UInt64? = nil) {
        self.events = events
        self.outcome = outcome
        self.schedule = schedule
        self.seed = seed
    }
}

/// One thing that happened at a virtual instant.
public struct TraceEvent: Hashable, Sendable, Codable {
    public enum Kind: String, Sendable, Codable, CaseIterable {
        /// The app changed state (`detail` holds the new state: foreground, background, suspended...).
        case appState = "app-state"
        /// A background task (or BGTask, or expiring activity) began; `subject` is its identifier.
        case taskBegan = "task-began"
        case taskEnded = "task-ended"
        /// The system called a task in: its expiry handler starts.
        case expiry
        /// A step of the app's code ran on a thread or queue (`lane`).
        case step
        /// iOS logged something (for example ending an unknown identifier).
        case log
        /// The app was killed (`detail` holds the code and reason).
        case termination
        case crash
        /// A BGTask was launched, submitted, completed; a push arrived; a handler completed.
        case system
    }

    /// Seconds since the start of the run, on the virtual clock.
    public var time: Double
    public var kind: Kind
    /// Where it happened: `main`, a queue name, or `system`.
    public var lane: String
    /// The task, identifier or request it concerns, if any.
    public var subject: String?
    /// Human-readable description.
    public var detail: String

    public init(time: Double, kind: Kind, lane: String, subject: String? = nil, detail: String) {
        self.time = time
        self.kind = kind
        self.lane = lane
        self.subject = subject
        self.detail = detail
    }
}

/// How a run ended.
public enum SimulationOutcome: Hashable, Sendable, Codable, CustomStringConvertible {
    /// All work done and the app suspended (or still running in the foreground) with nothing leaked.
    case suspended(at: Double)
    case stillRunning(at: Double)
    /// Killed by the system: `code` is the exception code (`0x8badf00d`, `0xbada5e47`, ...).
    case terminated(code: String, reason: String, at: Double)
    /// The app's own code crashed (force unwrap of nil, exception).
    case crashed(reason: String, at: Double)
    /// The simulator stopped the run at one of its own limits before the run settled: nothing
    /// is known about how the app's run ends, so it is never a verdict about the app (an
    /// example with such a run fails, whatever its intent, and the quiz never asks about it).
    case undecided(limit: EngineLimit, at: Double)

    public var time: Double {
        switch self {
        case let .suspended(at), let .stillRunning(at), let .terminated(_, _, at), let .crashed(_, at), let .undecided(_, at): return at
        }
    }

    /// True for a run the simulator gave up on (`undecided`).
    public var isUndecided: Bool {
        if case .undecided = self { return true }
        return false
    }

    public var description: String {
        switch self {
        case .suspended: return "suspended cleanly"
        case .stillRunning: return "still running"
        case let .terminated(code, reason, _): return "terminated with \(code) (\(reason))"
        case let .crashed(reason, _): return "crashed: \(reason)"
        case let .undecided(limit, _): return "undecided: \(limit.description)"
        }
    }
}

/// A limit of the simulator itself, which stops a run that would otherwise never end. It says
/// nothing about iOS or the app: a run that reaches one is `SimulationOutcome.undecided`.
public enum EngineLimit: Hashable, Sendable, Codable, CustomStringConvertible {
    /// This many steps ran while the simulated clock stood still: code that loops without doing
    /// anything that takes simulated time (`work`, a sleep, a wait) never lets the run go on.
    case stepsWithoutTimePassing(steps: Int)
    /// This many steps in one run, however far the clock moved: the simulator's bound on the
    /// length of a run (a loop that takes time but never ends reaches it).
    case stepsInOneRun(steps: Int)

    /// How many steps the limit allows.
    public var steps: Int {
        switch self {
        case let .stepsWithoutTimePassing(steps), let .stepsInOneRun(steps): return steps
        }
    }

    /// The limit in a few words: `its limit of 500,000 steps without simulated time passing`.
    public var summary: String {
        let count = Self.grouped(steps)
        switch self {
        case .stepsWithoutTimePassing:
            return "its limit of \(count) steps without simulated time passing (a loop that takes no simulated time?)"
        case .stepsInOneRun:
            return "its limit of \(count) steps in one run"
        }
    }

    public var description: String {
        "the simulator stopped the run at \(summary); this is the simulator's limit, not a verdict about the app"
    }

    /// `1000000` as `1,000,000`.
    private static func grouped(_ value: Int) -> String {
        let digits = Array(String(value))
        var text = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { text += "," }
            text.append(digit)
        }
        return text
    }
}

/// What `bgkb check` concluded about one example.
public struct ExampleVerdict: Hashable, Sendable, Codable {
    public var example: Example
    /// True when the example behaves as its intent says (a `follows` example held in every
    /// schedule; a `breaks` example failed in at least one).
    public var passed: Bool
    public var schedulesExplored: Int
    /// Simulated events across every explored schedule, for the benchmark figures (events per
    /// second); nothing on a page depends on it.
    public var simulatedEvents: Int
    /// The run to show: the first (shortest) schedule in which the rule was broken
    /// (`counterexample`), or, when no schedule broke it, a typical run (the unforced schedule).
    public var shownTrace: SimulationTrace
    /// Whether `shownTrace` is a schedule that broke the rule.
    public var isCounterexample: Bool
    /// The first (shortest) schedule in which the rule was broken, if any.
    public var counterexample: SimulationTrace? { isCounterexample ? shownTrace : nil }
    /// One line for people: "holds in all 214 schedules within 3 preemptions", "breaks: terminated
    /// with 0x8badf00d at 30.0 s [schedule]".
    public var summary: String
    /// The stated space: interleavings with at most this many preemptions, under every budget,
    /// refusal and forced expiry tried.
    public var preemptionBound: Int
    /// Distinct schedules of the stated space explored (the random ones in `schedulesExplored`
    /// come on top).
    public var schedules: Int
    /// The stated space was explored whole (or a counterexample settled it); false when the
    /// exploration's budget ran out first, which fails the example whatever its intent.
    public var exhausted: Bool

    /// `representative`: the typical run, made only when there is no `counterexample`.
    public init(example: Example, passed: Bool, schedulesExplored: Int, simulatedEvents: Int = 0,
                representative: @autoclosure () -> SimulationTrace, counterexample: SimulationTrace?, summary: String,
                preemptionBound: Int = 0, schedules: Int? = nil, exhausted: Bool = true) {
        self.example = example
        self.passed = passed
        self.schedulesExplored = schedulesExplored
        self.simulatedEvents = simulatedEvents
        // The typical run is made only when it is the one shown.
        shownTrace = counterexample ?? representative()
        isCounterexample = counterexample != nil
        self.summary = summary
        self.preemptionBound = preemptionBound
        self.schedules = schedules ?? schedulesExplored
        self.exhausted = exhausted
    }

    /// What the exploration covered, in words: "all 214 schedules within 3 preemptions", or
    /// "215 schedules, space not exhausted".
    public var coverage: String {
        exhausted ? ExampleVerdict.coverage(schedules: schedules, bound: preemptionBound)
            : "\(schedules) schedules, space not exhausted"
    }

    public static func coverage(schedules: Int, bound: Int) -> String {
        let preemptions = "within \(bound) \(bound == 1 ? "preemption" : "preemptions")"
        return schedules == 1 ? "the one schedule there is \(preemptions)" : "all \(schedules) schedules \(preemptions)"
    }
}
