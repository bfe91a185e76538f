import BGKBEngine
import BGKBModel
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
            #expect(page.contains(Format.count(verdict.schedulesExplored, "schedule") + " explored"))
            let shown = verdict.counterexample ?? verdict.representative
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
            var rule = rule
            rule.examples = rule.examples.map { example in
                var example = example
                example.intent = example.intent == .follows ? .breaks : .follows
                return example
            }
            return rule
        }
        let (_, diagnostics) = ExampleRunner.run(corpus)
        #expect(diagnostics.errors.contains { $0.id == "example-failed" })
    }
}
