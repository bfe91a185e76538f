import BGKBEngine
import BGKBModel
import Foundation

/// Runs every example of the corpus through the engine, for the pages' verdicts and timelines.
/// The CLI, the site and the staleness test all call this, so the committed site and a fresh
/// build always come from the same verdicts: nothing on a page is an outcome someone typed in.
public enum ExampleRunner {
    public static func run(_ corpus: Corpus) -> (verdicts: [ExampleVerdict], diagnostics: Diagnostics) {
        var verdicts: [ExampleVerdict] = []
        var diagnostics = Diagnostics()
        // Examples are independent and the engine is deterministic: check them on every core,
        // then read the results in corpus order.
        let results = ParallelMap.map(corpus.examples) { check($0) }
        for checked in results {
            diagnostics.append(contentsOf: checked.diagnostics)
            if let verdict = checked.verdict { verdicts.append(verdict) }
        }
        return (verdicts, diagnostics)
    }

    /// One example: its verdict (nil when it could not be run), what the build reports about it,
    /// and its parsed scenario (which the rule page turns into sentences). The streaming build
    /// (`SiteBuilder.build(corpus:configuration:runningExamplesInto:)`) calls this rule by rule,
    /// so both builds report the same diagnostics.
    /// With a cache, an example explored by an earlier build of the same engine is not explored
    /// again (see `VerdictCache`); its verdict is the same either way.
    public static func check(_ example: Example, cache: VerdictCache? = nil) -> CheckedExample {
        let (parsed, parseDiagnostics) = ScenarioParser.parse(example.text, at: example.location)
        var diagnostics = parseDiagnostics
        guard let scenario = parsed else {
            if !diagnostics.hasErrors {
                diagnostics.error("example-not-run", "example \(example.identifier) could not be run", at: example.location)
            }
            return CheckedExample(verdict: nil, diagnostics: diagnostics, scenario: nil)
        }
        let key = cache?.key(example)
        let recorded = key.flatMap { cache?.record(for: $0) }
        let (verdict, record) = checkRecording(example, scenario: scenario, recorded: recorded)
        if let key, recorded == nil { cache?.store(record, for: key) }
        if !verdict.passed {
            diagnostics.error("example-failed", "example \(example.identifier) does not do what it says: \(verdict.summary)",
                              at: example.location)
        }
        return CheckedExample(verdict: verdict, diagnostics: diagnostics, scenario: scenario)
    }
}

/// What checking one example gave: the verdict (nil when the scenario does not parse), what the
/// build reports about it, and the scenario as parsed.
public struct CheckedExample: Sendable {
    public var verdict: ExampleVerdict?
    public var diagnostics: Diagnostics
    public var scenario: Scenario?
}

/// What pages other than the rule's own need from a verdict: the rule page draws the traces,
/// every other page only needs these few facts, so the streaming build keeps only them.
public struct VerdictFacts: Sendable {
    /// The verdict's summary, kept only for examples that end in a termination (the crash codes
    /// page lists those); empty for the others, which no page lists.
    public var summary: String
    /// The exception code the run a page shows was terminated with, if it was.
    public var terminationCode: String?

    public init(_ verdict: ExampleVerdict) {
        summary = ""
        if case let .terminated(code, _, _) = verdict.shownTrace.outcome {
            terminationCode = code
            summary = verdict.summary
        }
    }
}

/// How much simulating a set of examples took, in the engine's own units: what `--timings`
/// reports as examples and simulated events per second.
public struct ExampleWork: Sendable, Hashable {
    public var examples = 0
    public var schedules = 0
    public var events = 0

    public init(examples: Int = 0, schedules: Int = 0, events: Int = 0) {
        self.examples = examples
        self.schedules = schedules
        self.events = events
    }

    public mutating func add(_ other: ExampleWork) {
        examples += other.examples
        schedules += other.schedules
        events += other.events
    }

    public init<Verdicts: Sequence>(_ verdicts: Verdicts) where Verdicts.Element == ExampleVerdict {
        for verdict in verdicts {
            examples += 1
            schedules += verdict.schedulesExplored
            events += verdict.simulatedEvents
        }
    }
}
