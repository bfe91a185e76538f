import BGKBExamples
import BGKBModel
import Dispatch
import Foundation

/// Builds the whole site in memory from the corpus and the engine's verdicts. A pure function of
/// its inputs: no clock, no environment, no file system, so the same input gives the same bytes.
public enum SiteBuilder {
    /// The build, as a table of contents. Each step has one job and can be run on its own.
    public static let steps: [SiteStep] = [
        SiteStep("stylesheet and scripts", Assets.render),
        SiteStep("home page", readsVerdicts: true, HomePage.render),
        SiteStep("rule pages", streaming: RulePage.renderAll),
        SiteStep("rule list", RulesIndexPage.render),
        SiteStep("topic pages", TopicPages.render),
        SiteStep("revision timeline", RevisionTimelinePage.render),
        SiteStep("sources, conflicts and disputes", SourcesPage.render),
        SiteStep("document pages", DocumentPages.render),
        SiteStep("crash codes", readsVerdicts: true, CrashCodesPage.render),
        SiteStep("API index", streaming: APIIndexPage.render),
        SiteStep("search page and index", streaming: SearchPage.render),
        SiteStep("404 page", NotFoundPage.render),
        SiteStep("sitemap.xml", Sitemap.render),
        SiteStep("Atom feed", AtomFeed.render),
    ]

    public static func build(corpus: Corpus, verdicts: [ExampleVerdict],
                             configuration: SiteConfiguration = SiteConfiguration()) -> SiteBuild {
        let sink = SiteSink()
        var site = build(corpus: corpus, verdicts: verdicts, configuration: configuration, into: sink)
        site.files = sink.files
        return site
    }

    /// Builds the site straight into a staging folder, page by page, so the pages are never all in
    /// memory at once. `files` of the result stays empty; `fileCount` and `byteCount` say what was
    /// written. On any error (in the diagnostics, or `writeError`) the caller discards the staging.
    public static func build(corpus: Corpus, verdicts: [ExampleVerdict], configuration: SiteConfiguration = SiteConfiguration(),
                             writingInto staging: SiteWriter.Staging) -> (site: SiteBuild, writeError: SiteWriter.WriteError?) {
        let sink = SiteSink(staging: staging)
        let site = build(corpus: corpus, verdicts: verdicts, configuration: configuration, into: sink)
        return (site, sink.failure)
    }

    /// The CLI's build: like `build(corpus:verdicts:configuration:writingInto:)`, but the rule pages
    /// run their own examples and each rule's traces are dropped as soon as its page is written, so
    /// the verdicts of every example are never all in memory at once. The examples' diagnostics (what
    /// `ExampleRunner.run` reports) come back in `site.exampleDiagnostics`, in corpus order; when
    /// they hold an error the caller discards the staging, as it does for the site's own errors.
    /// With `cache`, examples an earlier build explored are not explored again (`VerdictCache`).
    public static func build(corpus: Corpus, configuration: SiteConfiguration = SiteConfiguration(), cache: VerdictCache? = nil,
                             runningExamplesInto staging: SiteWriter.Staging) -> (site: SiteBuild, writeError: SiteWriter.WriteError?) {
        build(corpus: corpus, configuration: configuration, ledger: ExampleLedger(cache: cache), runningExamplesInto: staging)
    }

    /// The streaming build with a given ledger (tests start its early run themselves).
    static func build(corpus: Corpus, configuration: SiteConfiguration = SiteConfiguration(), ledger: ExampleLedger,
                      runningExamplesInto staging: SiteWriter.Staging) -> (site: SiteBuild, writeError: SiteWriter.WriteError?) {
        let sink = SiteSink(staging: staging)
        // Examples need no context: the first rules' run while it is made (`build` stops them).
        ledger.startEarly(corpus.rules)
        var site = build(SiteContext(corpus: corpus, verdicts: [], ledger: ledger, configuration: configuration), into: sink)
        site.exampleDiagnostics = ledger.diagnostics
        site.examplesWork = ledger.totalWork
        // The examples ran inside two steps; `--timings` shows them apart: each step loses the
        // share of its time the engine's CPU accounts for (`ExampleLedger.examplesTime`).
        let (early, rulePages) = ledger.examplesTime
        var examples = Duration.zero
        for (name, share) in [("context", early), ("rule pages", rulePages)] {
            guard let index = site.steps.firstIndex(where: { $0.name == name }) else { continue }
            let taken = min(share, site.steps[index].duration)
            site.steps[index].duration -= taken
            examples += taken
        }
        site.examplesTime = examples
        return (site, sink.failure)
    }

    static func build(corpus: Corpus, verdicts: [ExampleVerdict], configuration: SiteConfiguration, into sink: SiteSink) -> SiteBuild {
        build(SiteContext(corpus: corpus, verdicts: verdicts, configuration: configuration), into: sink)
    }

    /// `context` is made inside, so its time shows as the first step.
    static func build(_ context: @autoclosure () -> SiteContext, into sink: SiteSink) -> SiteBuild {
        let clock = ContinuousClock()
        var site = SiteBuild()
        let start = clock.now
        let context = context()
        site.steps.append(StepReport(name: "context", fileCount: 0, duration: clock.now - start))
        context.ledger?.finishEarly()
        typealias Result = (output: StepOutput, duplicates: [String], report: StepReport)
        @Sendable func run(_ step: SiteStep) -> Result {
            let stepStart = clock.now
            var output = step.run(context, sink)
            // Sorted, so a duplicate is reported the same way on every run.
            let duplicates = output.files.keys.sorted().filter { !sink.emit($0, output.files[$0, default: ""]) }
            let report = StepReport(name: step.name, fileCount: output.files.count + output.streamedCount, duration: clock.now - stepStart)
            output.files = [:]
            return (output, duplicates, report)
        }
        /// Steps that are independent of each other and mostly serial inside, side by side; their
        /// reports and diagnostics come back in table order, so the output does not depend on
        /// timing. The search index, the longest, starts first.
        @Sendable func side(_ members: [SiteStep]) -> [Result] {
            let order = members.indices.sorted {
                (members[$0].name == "search page and index" ? 0 : 1, $0) < (members[$1].name == "search page and index" ? 0 : 1, $1)
            }
            let finished = ParallelMap.map(order) { run(members[$0]) }
            var group = finished
            for (position, index) in order.enumerated() {
                group[index] = finished[position]
                group[index].report.inGroup = true
            }
            return group
        }
        func header(_ name: String, _ group: [Result], _ time: Duration) -> Result {
            (StepOutput(), [], StepReport(name: name, fileCount: group.reduce(0) { $0 + $1.report.fileCount }, duration: time))
        }
        var results: [Result] = []
        if let ledger = context.ledger {
            // The rule pages run the examples on every core; the pages that show no verdict facts
            // are made at the same time, filling what the rule pages leave idle. The pages that
            // show verdict facts (home page, crash codes) wait for all of them.
            let alongside = steps.filter { $0.name != "rule pages" && !$0.readsVerdicts }
            let after = steps.filter { $0.name != "rule pages" && $0.readsVerdicts }
            let box = ResultsBox<Result>()
            let done = DispatchSemaphore(value: 0)
            let alongsideStart = clock.now
            DispatchQueue.global().async {
                box.store(side(alongside), time: clock.now - alongsideStart)
                done.signal()
            }
            results += steps.filter { $0.name == "rule pages" }.map(run)
            ledger.close()
            done.wait()
            let (made, time) = box.take()
            results.append(header("pages made alongside them", made, time))
            results += made
            let afterStart = clock.now
            // The verdict cache needs every verdict too: it is encoded beside these pages, on
            // another core, rather than alone after them.
            let cacheBox = ResultsBox<UInt8>()
            if let cache = ledger.cache {
                DispatchQueue.global().async {
                    cacheBox.store(cache.encodedRecords(), time: clock.now - afterStart)
                    done.signal()
                }
            }
            let verdictPages = side(after)
            var cacheStep: Result?
            if ledger.cache != nil {
                done.wait()
                let (bytes, time) = cacheBox.take()
                site.verdictCacheFile = bytes
                cacheStep = (StepOutput(), [], StepReport(name: "verdict cache (encoded)", fileCount: 0, duration: time, inGroup: true))
            }
            results.append(header("pages showing verdicts", verdictPages, clock.now - afterStart))
            results += verdictPages
            if let cacheStep { results.append(cacheStep) }
            if ledger.readEarly {
                site.diagnostics.error("site-internal", "a build step read examples' verdicts before the rule pages had run them", at: nil)
            }
        } else {
            results = side(steps)
        }
        for result in results {
            for path in result.duplicates {
                site.diagnostics.error(StepOutput.duplicateCode, StepOutput.duplicateMessage(path), at: nil)
            }
            site.diagnostics.append(contentsOf: result.output.diagnostics)
            site.steps.append(result.report)
        }
        site.fileCount = sink.fileCount
        site.byteCount = sink.byteCount
        return site
    }

    /// Convenience for tests and the staleness check: runs one named step on its own.
    static func run(step name: String, corpus: Corpus, verdicts: [ExampleVerdict] = [],
                    configuration: SiteConfiguration = SiteConfiguration()) -> StepOutput? {
        guard let step = steps.first(where: { $0.name == name }) else { return nil }
        let sink = SiteSink()
        var output = step.run(SiteContext(corpus: corpus, verdicts: verdicts, configuration: configuration), sink)
        output.files.merge(sink.files) { current, _ in current }
        return output
    }
}

/// Carries the side group's results from its queue back to the build.
private final class ResultsBox<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Value] = []
    private var time = Duration.zero

    func store(_ values: [Value], time: Duration) {
        lock.lock(); defer { lock.unlock() }
        self.values = values
        self.time = time
    }

    func take() -> ([Value], Duration) {
        lock.lock(); defer { lock.unlock() }
        return (values, time)
    }
}
