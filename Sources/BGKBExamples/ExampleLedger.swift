import BGKBEngine
import BGKBModel
import Foundation

/// The streaming build's record of its examples: the rule pages run each rule's examples just
/// before writing its page (`check(rule:_:)`) and hand back what later steps need (`record`):
/// each rule's verdict facts and example diagnostics, read back in corpus order by later steps
/// and the CLI. Rule pages render on every core, hence the lock.
///
/// While the build makes its shared context (mostly on one core), the first rules' examples run
/// on another thread (`startEarly`); their pages take those verdicts instead of running them
/// again. The verdicts are the same either way (the same function, deterministic).
public final class ExampleLedger: @unchecked Sendable {
    /// Verdicts of earlier builds (nil: explore every example).
    public let cache: VerdictCache?
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
    /// Set once every rule page has run its examples; a read before that (a step wrongly made
    /// alongside the rule pages) is remembered, and the build reports it as an error.
    private var closed = false
    private var readEarlyFlag = false

    public init(cache: VerdictCache? = nil) {
        self.cache = cache
    }

    // MARK: Rule by rule

    /// Rule `index`'s examples checked, their verdicts and parsed scenarios by
    /// `Example.identifier`, with what the build reports about them: taken from the early run
    /// when it got to this rule, else run now.
    public func check(rule index: Int, _ rule: Rule)
        -> (verdicts: [String: ExampleVerdict], scenarios: [String: Scenario], diagnostics: Diagnostics) {
        let results: [CheckedExample]
        if let early = takeEarly(index) {
            results = early
        } else {
            let start = CPUClock.thread
            results = rule.examples.map { ExampleRunner.check($0, cache: cache) }
            let spent = CPUClock.thread - start
            lock.withLock { engineCPU += spent }
        }
        var verdicts: [String: ExampleVerdict] = [:]
        var scenarios: [String: Scenario] = [:]
        var diagnostics = Diagnostics()
        for (example, checked) in zip(rule.examples, results) {
            diagnostics.append(contentsOf: checked.diagnostics)
            if let verdict = checked.verdict { verdicts[example.identifier] = verdict }
            if let scenario = checked.scenario { scenarios[example.identifier] = scenario }
        }
        return (verdicts, scenarios, diagnostics)
    }

    /// What rule `index`'s page leaves for later steps once it is written: its verdicts' facts
    /// and its examples' diagnostics (the verdicts themselves, traces and all, are dropped).
    public func record(rule index: Int, verdicts: [String: ExampleVerdict], diagnostics: Diagnostics) {
        let entries = verdicts.map { ($0.key, VerdictFacts($0.value)) }
        let done = ExampleWork(verdicts.values)
        lock.withLock {
            for (identifier, fact) in entries { facts[identifier] = fact }
            work.add(done)
            if !diagnostics.isEmpty { diagnosticsByRule[index] = diagnostics }
        }
    }

    /// Marks the end of the rule pages: every example has run.
    public func close() {
        let end = BuildMark.now
        lock.withLock {
            closed = true
            rulePagesEnd = end
        }
    }

    // MARK: Read once the rule pages are done

    public func facts(_ identifier: String) -> VerdictFacts? {
        lock.withLock {
            if !closed { readEarlyFlag = true }
            return facts[identifier]
        }
    }

    /// Examples that have a verdict.
    public var count: Int {
        lock.withLock {
            if !closed { readEarlyFlag = true }
            return facts.count
        }
    }

    /// Whether a step read verdict facts before `close`.
    public var readEarly: Bool { lock.withLock { readEarlyFlag } }

    /// Every example's diagnostics, in corpus order, as `ExampleRunner.run` reports them.
    public var diagnostics: Diagnostics {
        lock.withLock {
            var all = Diagnostics()
            for index in diagnosticsByRule.keys.sorted() { all.append(contentsOf: diagnosticsByRule[index] ?? Diagnostics()) }
            return all
        }
    }

    /// How much the engine did across every rule so far.
    public var totalWork: ExampleWork { lock.withLock { work } }

    /// The wall time the examples account for, split by where they ran: in the early run
    /// (beside the build's context) and in the rule pages. Each is the stretch's wall time times
    /// the engine's share of the CPU time spent in it, so the pages made alongside the rule
    /// pages count as theirs, not the examples'. Zero for a stretch that has not ended.
    public var examplesTime: (early: Duration, rulePages: Duration) {
        lock.withLock {
            var early = Duration.zero, rulePages = Duration.zero
            if let earlyEnd {
                early = earlyStart?.share(of: earlyEngineCPU, to: earlyEnd) ?? .zero
                if let rulePagesEnd { rulePages = earlyEnd.share(of: engineCPU, to: rulePagesEnd) }
            }
            return (early, rulePages)
        }
    }

    // MARK: Examples run before the rule pages

    /// Each rule's examples that ran before the rule pages started: what `ExampleRunner.check`
    /// gave for each, in order.
    private var early: [Int: [CheckedExample]] = [:]
    private var stopEarly = false
    private let earlyDone = DispatchSemaphore(value: 0)

    /// At most this many rules run early: their verdicts (traces included) wait in memory for
    /// their pages, so the number bounds that memory.
    public static let earlyLimit = 512

    /// Starts running the examples of `rules`, first rule first, on another thread, until
    /// `finishEarly` (once per ledger; later calls do nothing).
    public func startEarly(_ rules: [Rule]) {
        let start = BuildMark.now
        let already = lock.withLock {
            let already = earlyStart != nil
            if !already { earlyStart = start }
            return already
        }
        guard !already else { return }
        DispatchQueue.global().async { [self] in
            defer { earlyDone.signal() }
            for index in rules.indices.prefix(Self.earlyLimit) {
                if lock.withLock({ stopEarly }) { return }
                let cpu = CPUClock.thread
                let results = rules[index].examples.map { ExampleRunner.check($0, cache: cache) }
                let engine = CPUClock.thread - cpu
                lock.withLock {
                    early[index] = results
                    earlyEngineCPU += engine
                }
            }
        }
    }

    /// Stops the early run after the rule it is on and waits for it: then `check(rule:_:)` sees
    /// every rule it finished, and nothing runs twice.
    public func finishEarly() {
        let wait = lock.withLock {
            let wait = earlyStart != nil && !stopEarly
            stopEarly = true
            return wait
        }
        if wait { earlyDone.wait() }
        let end = BuildMark.now
        lock.withLock { earlyEnd = end }
    }

    /// Rules whose examples ran early and are not taken yet.
    public var earlyCount: Int { lock.withLock { early.count } }

    /// The rule's examples, if they ran early; each rule is taken once.
    private func takeEarly(_ index: Int) -> [CheckedExample]? {
        lock.withLock { early.removeValue(forKey: index) }
    }
}
