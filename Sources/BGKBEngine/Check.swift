import BGKBModel

/// Runs one example: parses its scenario, explores its schedules, and says whether it behaves as
/// its intent claims. Diagnostics point into the example's Content file; a verdict is nil when
/// the scenario does not parse.
public func check(_ example: Example, constants: SystemConstants = .standard,
                  options: Explorer.Options = Explorer.Options()) -> (ExampleVerdict?, Diagnostics) {
    let checked = checkRecording(example, constants: constants, options: options, recorded: nil)
    return (checked.verdict, checked.diagnostics)
}

/// `check`, plus what the exploration found in a form that can be kept (`record`). Given the
/// record an earlier exploration of the same example by the same engine made (found by
/// `VerdictRecord.key`), the scenario is parsed and the run a page draws is replayed, but the
/// schedules are not explored again: the verdict is the one `check` gives,
/// byte for byte, except `simulatedEvents`, which counts only what ran.
public func checkRecording(_ example: Example, constants: SystemConstants = .standard, options: Explorer.Options = Explorer.Options(),
                           recorded: VerdictRecord?) -> (verdict: ExampleVerdict?, diagnostics: Diagnostics, record: VerdictRecord?) {
    let (parsed, diagnostics) = ScenarioParser.parse(example.text, at: example.location)
    guard let scenario = parsed else { return (nil, diagnostics, nil) }
    let (verdict, record) = checkRecording(example, scenario: scenario, constants: constants, options: options, recorded: recorded)
    return (verdict, diagnostics, record)
}

/// `checkRecording` of a scenario already parsed from `example` (the build keeps it for the
/// page's sentences, so it is parsed once).
public func checkRecording(_ example: Example, scenario: Scenario, constants: SystemConstants = .standard,
                           options: Explorer.Options = Explorer.Options(),
                           recorded: VerdictRecord?) -> (verdict: ExampleVerdict, record: VerdictRecord) {
    let explorer = Explorer(scenario: scenario, constants: constants, options: options)
    let record: VerdictRecord
    var simulatedEvents = 0
    // The run a page draws (the counterexample, or else the nominal run), kept by the
    // exploration; replayed only when it did not run (a recorded verdict) or did not keep it.
    var nominalTrace: SimulationTrace?
    var failureTrace: SimulationTrace?
    if let recorded {
        record = recorded
    } else {
        let result = explorer.explore(checking: example.intent)
        simulatedEvents = result.events
        nominalTrace = result.nominalTrace
        failureTrace = result.failureTrace
        // A run the simulator gave up on is never evidence for or against the rule: the example
        // fails whatever its intent, and says which of the simulator's limits stopped it.
        let undecided = result.failure.map { failure in
            if let trace = result.failureTrace { return trace.outcome.isUndecided }
            var replay = failure.schedule
            replay.seed = nil
            return explorer.outcome(replay).isUndecided
        } ?? false
        let (passed, summary) = judge(example.intent, result, undecided: undecided)
        record = VerdictRecord(passed: passed, schedulesExplored: result.runs, summary: summary,
                               failureSchedule: result.failure?.schedule, schedules: result.systematicRuns, exhausted: result.exhausted)
    }
    var counterexample: SimulationTrace?
    if let schedule = record.failureSchedule {
        if let failureTrace {
            counterexample = failureTrace
        } else {
            // A random schedule lists every choice its seed drew: replayed with the seed too, the
            // generator would draw at the listed decisions' places and shift every later draw.
            var replay = schedule
            replay.seed = nil
            var trace = explorer.trace(replay)
            trace.seed = schedule.seed
            counterexample = trace
        }
    }
    let verdict = ExampleVerdict(example: example, passed: record.passed, schedulesExplored: record.schedulesExplored,
                                 simulatedEvents: simulatedEvents,
                                 representative: nominalTrace ?? explorer.trace(explorer.nominalSchedule),
                                 counterexample: counterexample, summary: record.summary, preemptionBound: options.preemptionBound,
                                 schedules: record.schedules, exhausted: record.exhausted)
    return (verdict, record)
}

/// Whether an exploration's result is what an example of `intent` claims, and the one line that
/// says so. A failure settles the question either way; without one, the verdict is a claim over
/// the stated space, which holds only when the space was explored whole: an exploration cut short
/// is "incomplete" and fails for either intent.
func judge(_ intent: Example.Intent, _ result: Explorer.Result, undecided: Bool = false) -> (passed: Bool, summary: String) {
    let random = result.runs - result.systematicRuns
    let extra = random > 0 ? ", and in \(random) random \(random == 1 ? "one" : "ones")" : ""
    let covered = ExampleVerdict.coverage(schedules: result.systematicRuns, bound: result.bound)
    switch (intent, result.failure) {
    case let (_, failure?) where undecided:
        return (false, "undecided after \(result.runs) schedules: \(failure.reason) [\(failure.schedule)]")
    case let (.follows, failure?):
        return (false, "broken after \(result.runs) schedules: \(failure.reason) [\(failure.schedule)]")
    case let (.breaks, failure?):
        return (true, "breaks: \(failure.reason) [\(failure.schedule)]")
    case (_, nil) where !result.exhausted:
        return (false, "incomplete (\(result.systematicRuns) schedules, space not exhausted): " + incompleteAdvice)
    case (.follows, nil):
        return (true, "holds in \(covered)\(extra)")
    case (.breaks, nil):
        return (false, "expected to break, but holds in \(covered)\(extra)")
    }
}

/// What an incomplete verdict suggests: the pins that narrow the space (Content/README.md).
let incompleteAdvice = "pin what the example does not vary, e.g. `system expires tasks only when time runs out` "
    + "(a long loop offers an early expiry at each of its instants), `system grants beginBackgroundTask`, `system budget 30s`"

/// What exploring an example found, without its traces: enough to give the same verdict again
/// (`checkRecording(_:constants:options:recorded:)`) by replaying one schedule.
public struct VerdictRecord: Hashable, Sendable {
    public var passed: Bool
    public var schedulesExplored: Int
    public var summary: String
    /// The first failing schedule, exactly (its printed form rounds the expiry time).
    public var failureSchedule: Schedule?
    /// The systematic schedules among `schedulesExplored`, and whether they covered the stated
    /// space (`ExampleVerdict.schedules`, `exhausted`).
    public var schedules: Int
    public var exhausted: Bool

    public init(passed: Bool, schedulesExplored: Int, summary: String, failureSchedule: Schedule?,
                schedules: Int? = nil, exhausted: Bool = true) {
        self.passed = passed
        self.schedulesExplored = schedulesExplored
        self.summary = summary
        self.failureSchedule = failureSchedule
        self.schedules = schedules ?? schedulesExplored
        self.exhausted = exhausted
    }

    /// Names one exploration: the engine that ran it (`engine`, which the caller must change
    /// whenever the engine's code may have: `bgkb` passes a hash of its own executable), the
    /// constants, the options, the intent and the scenario's text. A change to any of them gives
    /// another key, so a record is never reused for a different question.
    public static func key(_ example: Example, engine: String, constants: SystemConstants = .standard,
                           options: Explorer.Options = Explorer.Options()) -> UInt64 {
        KeyPrefix(engine: engine, constants: constants, options: options).key(example)
    }

    /// Everything in a key but the example, hashed once: a build asks for thousands of keys.
    public struct KeyPrefix: Sendable {
        let state: UInt64

        public init(engine: String, constants: SystemConstants = .standard, options: Explorer.Options = Explorer.Options()) {
            var text = "bgkb-verdict-2\u{0}\(engine)\u{0}"
            // Every constant and option, named, so adding a field cannot silently alias two keys.
            let c = constants
            for (name, value) in [("budget", c.backgroundTaskBudget), ("handler", c.expiryHandlerLimit),
                                  ("handlers", c.expiryHandlersTotalLimit), ("didEnterBackground", c.didEnterBackgroundLimit),
                                  ("assertions", Double(c.assertionLimit)), ("refresh", c.refreshTaskBudget),
                                  ("processing", c.processingTaskBudget), ("grace", c.bgTaskCompletionGrace),
                                  ("push", c.pushCompletionLimit), ("pendingRefresh", Double(c.pendingRefreshLimit)),
                                  ("pendingProcessing", Double(c.pendingProcessingLimit)), ("urlSessionEvents", c.urlSessionEventsLimit),
                                  ("continuedProgress", c.continuedProgressLimit), ("expiredActivity", c.expiredActivityReturnLimit)] {
                text += "\(name)=\(value.bitPattern)\u{0}"
            }
            text += "preemption=\(options.preemptionBound) random=\(options.randomSchedules) max=\(options.maxRuns) budgets="
            text += options.budgets.map { String($0.bitPattern) }.joined(separator: ",") + "\u{0}"
            // The reductions change how many schedules a verdict counts, so they name it too.
            text += "silentExits=\(options.takesSilentExitsAtOnce) settledRoundChecks=\(options.dropsSettledRoundChecks)"
            text += " quietDidEnterBackgroundExits=\(options.takesQuietDidEnterBackgroundExitsAtOnce)"
            text += " hiddenStepsFirst=\(options.takesHiddenStepsFirst)\u{0}"
            // Resuming children changes no record (`ResumedRunTests`), but every option is named.
            text += "resumesChildren=\(options.resumesChildrenFromTheirParent) cachesStates=\(options.cachesStates)"
            text += " uncachedAttempt=\(options.uncachedAttempt)\u{0}"
            state = StableHash.fnv1a(text)
        }

        /// The intent, then the text's length, then the text: no two examples read alike.
        public func key(_ example: Example) -> UInt64 {
            var hash = StableHash(continuing: state)
            hash.combine(bytes: example.intent.rawValue.utf8)
            hash.combine(bytes: "\u{0}\(example.text.utf8.count)\u{0}".utf8)
            hash.combine(bytes: example.text.utf8)
            return hash.value
        }
    }
}
