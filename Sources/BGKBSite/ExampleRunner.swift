import BGKBEngine
import BGKBModel
import Foundation

/// Runs every example of the corpus through the engine, for the pages' verdicts and timelines.
/// The CLI and the staleness test both call this, so the committed site and a fresh build always
/// come from the same verdicts: nothing on a page is an outcome someone typed in.
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
    static func check(_ example: Example, cache: VerdictCache? = nil) -> (ExampleVerdict?, Diagnostics) {
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
struct VerdictFacts: Sendable {
    /// The verdict's summary, kept only for examples that end in a termination (the crash codes
    /// page lists those): 20,000 summaries held to the end of a build were megabytes for nothing.
    var summary: String
    /// The exception code the run a page shows was terminated with, if it was.
    var terminationCode: String?

    init(_ verdict: ExampleVerdict) {
        summary = ""
        if case let .terminated(code, _, _) = (verdict.counterexample ?? verdict.representative).outcome {
            terminationCode = code
            summary = verdict.summary
        }
    }
}

/// Filled by the rule pages when they run the examples themselves (the streaming build): each
/// rule's verdict facts and example diagnostics, read back in corpus order by later steps and
/// the CLI. Rule pages render on every core, hence the lock.
final class ExampleLedger: @unchecked Sendable {
    /// Verdicts of earlier builds (nil: explore every example).
    let cache: VerdictCache?
    private let lock = NSLock()
    private var facts: [String: VerdictFacts] = [:]
    private var diagnosticsByRule: [Int: Diagnostics] = [:]
    /// The engine's CPU time in the rule pages, and in the early run (`startEarly`).
    private var engineCPU = Duration.zero
    private var earlyEngineCPU = Duration.zero
    /// Where the early run started (set once: `startEarly` runs once) and stopped, and where the
    /// rule pages stopped (`close`).
    private var earlyStart: BuildMark?
    private var earlyEnd: BuildMark?
    private var rulePagesEnd: BuildMark?
    private var work = ExampleWork()

    init(cache: VerdictCache? = nil) {
        self.cache = cache
    }

    /// `engineCPU`: the CPU time this rule's examples took in the rule pages (zero for a rule
    /// that ran early: the early run counted it).
    func record(rule index: Int, facts entries: [(String, VerdictFacts)], diagnostics: Diagnostics,
                work done: ExampleWork, engineCPU engine: Duration) {
        lock.lock(); defer { lock.unlock() }
        for (identifier, fact) in entries { facts[identifier] = fact }
        work.add(done)
        if !diagnostics.isEmpty { diagnosticsByRule[index] = diagnostics }
        engineCPU += engine
    }

    func facts(_ identifier: String) -> VerdictFacts? {
        lock.lock(); defer { lock.unlock() }
        if !closed { readEarlyFlag = true }
        return facts[identifier]
    }

    /// Set once every rule page has run its examples; a read before that (a step wrongly made
    /// alongside the rule pages) is remembered, and the build reports it as an error.
    private var closed = false
    private var readEarlyFlag = false

    func close() {
        let end = BuildMark.now
        lock.lock(); defer { lock.unlock() }
        closed = true
        rulePagesEnd = end
    }

    var readEarly: Bool {
        lock.lock(); defer { lock.unlock() }
        return readEarlyFlag
    }

    /// Examples that have a verdict.
    var count: Int {
        lock.lock(); defer { lock.unlock() }
        if !closed { readEarlyFlag = true }
        return facts.count
    }

    /// Every example's diagnostics, in corpus order, as `ExampleRunner.run` reports them.
    var diagnostics: Diagnostics {
        lock.lock(); defer { lock.unlock() }
        var all = Diagnostics()
        for index in diagnosticsByRule.keys.sorted() { all.append(contentsOf: diagnosticsByRule[index] ?? Diagnostics()) }
        return all
    }

    // MARK: Examples run before the rule pages

    /// Each rule's examples that ran before the rule pages started: what `ExampleRunner.check`
    /// gave for each, in order.
    private var early: [Int: [(ExampleVerdict?, Diagnostics)]] = [:]
    private var stopEarly = false
    private let earlyDone = DispatchSemaphore(value: 0)

    /// At most this many rules run early: their verdicts (traces included) wait in memory for
    /// their pages.
    static let earlyLimit = 512

    /// Starts running the examples of `rules`, first rule first, on another thread, until
    /// `finishEarly` (once per ledger; later calls do nothing). The build makes its shared
    /// context first, mostly on one core (60 ms at 10,000 rules): this puts the other one to
    /// work. The verdicts are the ones the rule pages would get (the same function,
    /// deterministic), so the site does not change.
    func startEarly(_ rules: [Rule]) {
        let start = BuildMark.now
        lock.lock()
        let already = earlyStart != nil
        if !already { earlyStart = start }
        lock.unlock()
        guard !already else { return }
        DispatchQueue.global().async { [self] in
            defer { earlyDone.signal() }
            for index in rules.indices.prefix(Self.earlyLimit) {
                lock.lock(); let stop = stopEarly; lock.unlock()
                if stop { return }
                let cpu = CPUClock.thread
                let results = rules[index].examples.map { ExampleRunner.check($0, cache: cache) }
                let engine = CPUClock.thread - cpu
                lock.lock(); early[index] = results; earlyEngineCPU += engine; lock.unlock()
            }
        }
    }

    /// Stops the early run after the rule it is on and waits for it: then `takeEarly` sees every
    /// rule it finished, and nothing runs twice.
    func finishEarly() {
        lock.lock()
        let wait = earlyStart != nil && !stopEarly
        stopEarly = true
        lock.unlock()
        if wait { earlyDone.wait() }
        let end = BuildMark.now
        lock.lock(); earlyEnd = end; lock.unlock()
    }

    /// Rules whose examples ran early and are not taken yet.
    var earlyCount: Int {
        lock.lock(); defer { lock.unlock() }
        return early.count
    }

    /// The rule's examples, if they ran early; each rule is taken once.
    func takeEarly(_ index: Int) -> [(ExampleVerdict?, Diagnostics)]? {
        lock.lock(); defer { lock.unlock() }
        return early.removeValue(forKey: index)
    }

    /// How much the engine did across every rule so far.
    var totalWork: ExampleWork {
        lock.lock(); defer { lock.unlock() }
        return work
    }

    /// The wall time the examples account for, split by where they ran: in the early run
    /// (beside the build's context) and in the rule pages. Each is the stretch's wall time times
    /// the engine's share of the CPU time spent in it, so the pages made alongside the rule
    /// pages count as theirs, not the examples'. Zero for a stretch that has not ended.
    var examplesTime: (early: Duration, rulePages: Duration) {
        lock.lock(); defer { lock.unlock() }
        var early = Duration.zero, rulePages = Duration.zero
        if let earlyEnd {
            early = earlyStart?.share(of: earlyEngineCPU, to: earlyEnd) ?? .zero
            if let rulePagesEnd { rulePages = earlyEnd.share(of: engineCPU, to: rulePagesEnd) }
        }
        return (early, rulePages)
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

    mutating func add(_ other: ExampleWork) {
        examples += other.examples
        schedules += other.schedules
        events += other.events
    }

    init<Verdicts: Sequence>(_ verdicts: Verdicts) where Verdicts.Element == ExampleVerdict {
        for verdict in verdicts {
            examples += 1
            schedules += verdict.schedulesExplored
            events += verdict.simulatedEvents
        }
    }
}
