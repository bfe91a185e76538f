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
        for (verdict, found) in results {
            diagnostics.append(contentsOf: found)
            if let verdict { verdicts.append(verdict) }
        }
        return (verdicts, diagnostics)
    }

    /// One example: its verdict (nil when it could not be run) and what the build reports about it.
    /// The streaming build (`SiteBuilder.build(corpus:configuration:runningExamplesInto:)`) calls
    /// this rule by rule, so both builds report the same diagnostics.
    /// With a cache, an example explored by an earlier build of the same engine is not explored
    /// again (see `VerdictCache`); its verdict is the same either way.
    public static func check(_ example: Example, cache: VerdictCache? = nil) -> (ExampleVerdict?, Diagnostics) {
        let key = cache?.key(example)
        let recorded = key.flatMap { cache?.record(for: $0) }
        let (verdict, found, record) = checkRecording(example, recorded: recorded)
        if let key, let record, recorded == nil { cache?.store(record, for: key) }
        var diagnostics = found
        guard let verdict else {
            if !found.hasErrors {
                diagnostics.error("example-not-run", "example \(example.identifier) could not be run", at: example.location)
            }
            return (nil, diagnostics)
        }
        if !verdict.passed {
            diagnostics.error("example-failed", "example \(example.identifier) does not do what it says: \(verdict.summary)",
                              at: example.location)
        }
        return (verdict, diagnostics)
    }
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
        if case let .terminated(code, _, _) = (verdict.counterexample ?? verdict.representative).outcome {
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
