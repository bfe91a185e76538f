@testable import BGKBExamples
import BGKBEngine
import BGKBModel
import ScenarioSamples
import Foundation
import Testing
@testable import BGKBSite

/// The site built from verdicts the engine computes now, on the engine's reference scenarios:
/// whatever the engine concludes is what the pages show.
@Suite struct EngineSiteTests {
    static var corpus: Corpus {
        let rules = ScenarioSamples.all.enumerated().map { index, sample in
            var example = sample.example
            example.rule = sample.name
            example.location = SourceLocation(path: "documents/samples.md", line: 10 * (index + 1), column: 1)
            return Rule(id: sample.name, title: sample.name, statement: "The \(sample.name) scenario.", kind: .must,
                        topics: ["samples"], examples: [example], document: "samples",
                        location: SourceLocation(path: "documents/samples.md", line: 10 * index + 1, column: 1))
        }
        return Corpus(topics: [Topic(id: "samples", title: "Samples", summary: "The engine's reference scenarios.")],
                      documents: [Document(id: "samples", title: "Samples", source: nil,
                                           versions: [DocumentVersion(label: nil, path: "documents/samples.md", rules: rules, revisions: [], signOff: nil)])],
                      rules: rules)
    }

    @Test func everyExamplePageShowsTheEnginesVerdictAndTimeline() throws {
        let corpus = Self.corpus
        let (verdicts, _) = ExampleRunner.run(corpus)
        #expect(verdicts.count == corpus.examples.count)
        let site = SiteBuilder.build(corpus: corpus, verdicts: verdicts)
        for verdict in verdicts {
            let page = try #require(site.files["rules/\(Slug.make(verdict.example.rule)).html"])
            #expect(page.contains("<svg class=\"timeline\""), "\(verdict.example.rule): no timeline")
            // What the engine covered (a rule it holds: the stated space), the count of schedules
            // it explored, or, when it needed one, that it was the first.
            if verdict.passed && verdict.counterexample == nil {
                #expect(page.contains(verdict.coverage), "\(verdict.example.rule): \(verdict.coverage)")
            } else {
                #expect(page.contains(verdict.schedulesExplored == 1 ? "the first schedule it tried" : Format.count(verdict.schedulesExplored, "schedule")))
            }
            let shown = verdict.shownTrace
            if case let .terminated(code, _, _) = shown.outcome {
                #expect(page.contains(code), "\(verdict.example.rule): the termination code is not on the page")
                #expect(site.files["crash-codes.html"]?.contains("id=\"\(CrashCodesPage.anchor(code))\"") == true)
            }
        }
        #expect(LinkTests.brokenLinks(in: site) == [])
    }

    @Test func exampleFailuresAreErrors() {
        var corpus = Self.corpus
        // Flip every intent: each example now claims the opposite of what the engine finds.
        corpus.rules = corpus.rules.map { rule in
            rule.with { fields in
                fields.examples = fields.examples.map { example in
                    var example = example
                    example.intent = example.intent == .follows ? .breaks : .follows
                    return example
                }
            }
        }
        let (_, diagnostics) = ExampleRunner.run(corpus)
        #expect(diagnostics.errors.contains { $0.id == "example-failed" })
    }

    /// The sample corpus, or (`flipped`) with half its examples claiming the opposite of what the
    /// engine finds.
    static func corpus(flipped: Bool) -> Corpus {
        var corpus = Self.corpus
        if flipped {
            corpus.rules = corpus.rules.enumerated().map { index, rule in
                guard index.isMultiple(of: 2) else { return rule }
                return rule.with { fields in
                    fields.examples = fields.examples.map { example in
                        var example = example
                        example.intent = example.intent == .follows ? .breaks : .follows
                        return example
                    }
                }
            }
        }
        return corpus
    }

    /// The CLI's build runs each rule's examples just before its page and keeps only a few facts
    /// of each verdict.
    @Test(arguments: [false, true])
    func runningExamplesRuleByRuleWritesTheSameSite(flipped: Bool) throws {
        try Self.expectTheSameSiteStreamed(Self.corpus(flipped: flipped), flipped: flipped, ledger: ExampleLedger())
    }

    /// The build runs the first rules' examples while it makes its context (`startEarly`), and
    /// their pages take those verdicts: here every rule's examples ran early, and every one of
    /// them is taken by its page.
    @Test(arguments: [false, true])
    func examplesRunBeforeThePagesWriteTheSameSite(flipped: Bool) throws {
        let corpus = Self.corpus(flipped: flipped)
        let ledger = ExampleLedger()
        ledger.startEarly(corpus.rules)
        let expected = min(corpus.rules.count, ExampleLedger.earlyLimit)
        let deadline = ContinuousClock.now + .seconds(120)
        while ledger.earlyCount < expected && ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.005) }
        #expect(ledger.earlyCount == expected)
        try Self.expectTheSameSiteStreamed(corpus, flipped: flipped, ledger: ledger)
        #expect(ledger.earlyCount == 0)
        // Every rule ran early, so the examples' time is all the early run's.
        #expect(ledger.examplesTime.early > .zero)
        #expect(ledger.examplesTime.rulePages == .zero)
    }

    /// The streaming build's rule pages write the search index from the parse that renders
    /// their prose (smart punctuation turned back, or parsed again where it cannot be): the same
    /// bytes as the index made from the Markdown alone, whatever the prose holds.
    @Test func rulePagesWriteTheSearchIndexTheMarkdownGives() throws {
        let prose = [
            "\"Quoted\" and 'single' -- en --- em ... and don't", "Plain words only.", "",
            "Entities &ldquo;curly&rdquo; &amp; more -- here", "Already “curly” — and ‘single’", "`\"code\" -- ...` and *\"em\"*",
            "- \"item\" one...\n- two -- 'x'\n\n```\n\"block\" --\n```", "[\"link\" -- x](a--b) <http://a--b>", "tab\tand\nline",
        ]
        var corpus = Self.corpus
        corpus.rules = corpus.rules.enumerated().map { index, rule in
            rule.with { fields in
                fields.details = prose[index % prose.count]
                fields.why = index % 3 == 0 ? nil : prose[(index + 1) % prose.count]
                fields.instead = index % 2 == 0 ? prose[(index + 4) % prose.count] : nil
            }
        }
        try Self.expectTheSameSiteStreamed(corpus, flipped: false, ledger: ExampleLedger())
    }

    /// The streaming build (examples run rule by rule, pages straight to disk) writes exactly what
    /// the build from all verdicts up front holds, and reports the same example diagnostics.
    static func expectTheSameSiteStreamed(_ corpus: Corpus, flipped: Bool, ledger: ExampleLedger) throws {
        let (verdicts, diagnostics) = ExampleRunner.run(corpus)
        let memory = SiteBuilder.build(corpus: corpus, verdicts: verdicts)
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("bgkb-rule-by-rule-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let output = root.appendingPathComponent("Site")
        let staging = try SiteWriter.stage(output)
        let (streamed, writeError) = SiteBuilder.build(corpus: corpus, ledger: ledger, runningExamplesInto: staging)
        #expect(writeError == nil)
        #expect(streamed.exampleDiagnostics == diagnostics)
        #expect(streamed.exampleDiagnostics.hasErrors == flipped)
        #expect(streamed.diagnostics.sorted == memory.diagnostics.sorted)
        #expect(streamed.fileCount == memory.files.count)
        #expect(streamed.byteCount == memory.totalBytes)
        #expect((streamed.examplesTime ?? .zero) > .zero)
        try staging.commit()
        #expect(try SiteWriter.differences(memory, directory: output) == [])
    }
}
