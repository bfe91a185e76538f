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
/// `VerdictRecord.key`), the scenario is parsed and the one or two runs a page draws are
/// replayed, but the schedules are not explored again: the verdict is the one `check` gives,
/// byte for byte, except `simulatedEvents`, which counts only what ran.
public func checkRecording(_ example: Example, constants: SystemConstants = .standard, options: Explorer.Options = Explorer.Options(),
                           recorded: VerdictRecord?) -> (verdict: ExampleVerdict?, diagnostics: Diagnostics, record: VerdictRecord?) {
    let (parsed, diagnostics) = ScenarioParser.parse(example.text, at: example.location)
    guard let scenario = parsed else { return (nil, diagnostics, nil) }
    let explorer = Explorer(scenario: scenario, constants: constants, options: options)
    let record: VerdictRecord
    var simulatedEvents = 0
    // The runs a page draws, kept by the exploration; replayed only when it did not run (a
    // recorded verdict) or did not keep them.
    var nominalTrace: SimulationTrace?
    var failureTrace: SimulationTrace?
    if let recorded {
        record = recorded
    } else {
        let result = explorer.explore(checking: example.intent)
        simulatedEvents = result.events
        nominalTrace = result.nominalTrace
        failureTrace = result.failureTrace
        let capped = result.capped ? " (stopped at \(result.runs) schedules)" : ""
        let passed: Bool
        let summary: String
        switch (example.intent, result.failure) {
        case (.follows, nil):
            passed = true
            summary = "holds in all \(result.runs) schedules\(capped)"
        case let (.follows, failure?):
            passed = false
            summary = "broken after \(result.runs) schedules: \(failure.reason) [\(failure.schedule)]"
        case let (.breaks, failure?):
            passed = true
            summary = "breaks: \(failure.reason) [\(failure.schedule)]"
        case (.breaks, nil):
            passed = false
            summary = "expected to break, but holds in all \(result.runs) schedules\(capped)"
        }
        record = VerdictRecord(passed: passed, schedulesExplored: result.runs, summary: summary,
                               failureSchedule: result.failure?.schedule)
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
                                 counterexample: counterexample, summary: record.summary)
    return (verdict, diagnostics, record)
}

/// What exploring an example found, without its traces: enough to give the same verdict again
/// (`checkRecording(_:constants:options:recorded:)`) by replaying at most two schedules.
public struct VerdictRecord: Hashable, Sendable {
    public var passed: Bool
    public var schedulesExplored: Int
    public var summary: String
    /// The first failing schedule, exactly (its printed form rounds the expiry time).
    public var failureSchedule: Schedule?

    public init(passed: Bool, schedulesExplored: Int, summary: String, failureSchedule: Schedule?) {
        self.passed = passed
        self.schedulesExplored = schedulesExplored
        self.summary = summary
        self.failureSchedule = failureSchedule
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
            var text = "bgkb-verdict-1\u{0}\(engine)\u{0}"
            // Every constant and option, named, so adding a field cannot silently alias two keys.
            let c = constants
            for (name, value) in [("budget", c.backgroundTaskBudget), ("handler", c.expiryHandlerLimit),
                                  ("handlers", c.expiryHandlersTotalLimit), ("didEnterBackground", c.didEnterBackgroundLimit),
                                  ("assertions", Double(c.assertionLimit)), ("refresh", c.refreshTaskBudget),
                                  ("processing", c.processingTaskBudget), ("grace", c.bgTaskCompletionGrace),
                                  ("push", c.pushCompletionLimit), ("pendingRefresh", Double(c.pendingRefreshLimit)),
                                  ("pendingProcessing", Double(c.pendingProcessingLimit))] {
                text += "\(name)=\(value.bitPattern)\u{0}"
            }
            text += "preemption=\(options.preemptionBound) random=\(options.randomSchedules) max=\(options.maxRuns) budgets="
            text += options.budgets.map { String($0.bitPattern) }.joined(separator: ",") + "\u{0}"
            // The reductions change how many schedules a verdict counts, so they name it too.
            text += "silentExits=\(options.takesSilentExitsAtOnce) settledRoundChecks=\(options.dropsSettledRoundChecks)"
            text += " quietDidEnterBackgroundExits=\(options.takesQuietDidEnterBackgroundExitsAtOnce)\u{0}"
            // Resuming children changes no record (`ResumedRunTests`), but every option is named.
            text += "resumesChildren=\(options.resumesChildrenFromTheirParent)\u{0}"
            state = stableHash(text)
        }

        public func key(_ example: Example) -> UInt64 {
            Self.finalized(Self.absorb(example.text, into: Self.absorb(example.intent.rawValue, into: state)))
        }

        // The example's part is read eight bytes at a time, xxHash64's way (its primes, its
        // round): byte by byte through the String's UTF-8 view, keys cost 15,000 instructions an
        // example. Each field is preceded by its length, so no two pairs of fields read alike.
        private static let p1: UInt64 = 0x9E37_79B1_85EB_CA87
        private static let p2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
        private static let p3: UInt64 = 0x1656_67B1_9E37_79F9
        private static let p4: UInt64 = 0x85EB_CA77_C2B2_AE63

        @inline(__always)
        private static func round(_ hash: UInt64, _ word: UInt64) -> UInt64 {
            let mixed = ((word &* p2) << 31 | (word &* p2) >> 33) &* p1
            let merged = hash ^ mixed
            return (merged << 27 | merged >> 37) &* p1 &+ p4
        }

        static func absorb(_ text: String, into start: UInt64) -> UInt64 {
            var text = text
            return text.withUTF8 { bytes in
                var hash = round(start, UInt64(bytes.count))
                guard let base = bytes.baseAddress else { return hash }
                let raw = UnsafeRawPointer(base)
                var index = 0
                while index + 8 <= bytes.count {
                    hash = round(hash, UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)))
                    index += 8
                }
                if index < bytes.count {
                    var last: UInt64 = 0
                    for offset in 0..<(bytes.count - index) { last |= UInt64(bytes[index + offset]) << (8 * UInt64(offset)) }
                    hash = round(hash, last)
                }
                return hash
            }
        }

        private static func finalized(_ hash: UInt64) -> UInt64 {
            var hash = hash
            hash ^= hash >> 33
            hash = hash &* p2
            hash ^= hash >> 29
            hash = hash &* p3
            hash ^= hash >> 32
            return hash
        }
    }
}
