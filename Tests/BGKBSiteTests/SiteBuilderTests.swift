import BGKBModel
import Foundation
import Testing
@testable import BGKBSite

@Suite struct SiteBuilderTests {
    let site = SiteBuilder.build(corpus: SampleCorpus.corpus, verdicts: SampleCorpus.verdicts)

    @Test func stepNamesAreUniqueAndEveryStepWritesFiles() {
        let names = SiteBuilder.steps.map(\.name)
        #expect(Set(names).count == names.count)
        for step in SiteBuilder.steps {
            let output = SiteBuilder.run(step: step.name, corpus: SampleCorpus.corpus, verdicts: SampleCorpus.verdicts)
            #expect(output?.files.isEmpty == false, "step \(step.name) wrote nothing")
        }
    }

    @Test(arguments: [
        "index.html", "404.html", "search.html", "sitemap.xml", "feed.xml", "revisions.html", "sources.html",
        "crash-codes.html", "apis.html", "rules/index.html", "topics/index.html", "topics/ending.html",
        "rules/end-every-task.html", "rules/processing-subsumes-tasks.html", "documents/notes.html",
        "assets/style.css", "assets/search.js", "assets/search-index.js", "assets/keys.js",
    ])
    func producesPage(_ path: String) {
        #expect(site.files[path]?.isEmpty == false)
    }

    @Test func sameInputGivesSameBytes() {
        let again = SiteBuilder.build(corpus: SampleCorpus.corpus, verdicts: SampleCorpus.verdicts.reversed())
        #expect(again.paths == site.paths)
        for path in site.paths {
            #expect(again.files[path] == site.files[path], "\(path) differs between two builds")
        }
    }

    @Test func reportsMissingRelatedRuleAndMissingVerdicts() {
        #expect(site.diagnostics.all.contains { $0.id == "site-unknown-rule" && $0.message.contains("no-such-rule") })
        let bare = SiteBuilder.build(corpus: SampleCorpus.corpus, verdicts: [])
        #expect(bare.diagnostics.all.filter { $0.id == "site-missing-verdict" }.count == 2)
        #expect(bare.files["rules/end-every-task.html"]?.contains("was not run") == true)
    }

    @Test func failingVerdictIsAnError() {
        var verdicts = SampleCorpus.verdicts
        verdicts[0].passed = false
        let build = SiteBuilder.build(corpus: SampleCorpus.corpus, verdicts: verdicts)
        #expect(build.diagnostics.errors.contains { $0.id == "site-example-failed" })
    }

    @Test func rulePageShowsVerdictTimelineDiffAndSources() throws {
        let page = try #require(site.files["rules/end-every-task.html"])
        #expect(page.contains("12 schedules explored"))
        #expect(page.contains("safe in all 214 schedules"))
        #expect(page.contains("budget=30 expire@31"))
        #expect(page.contains("<svg class=\"timeline\""))
        #expect(page.contains("killed: 0x8badf00d"))
        #expect(page.contains("You <del>should</del> <ins>must</ins> end <del>each</del> <ins>every</ins> background <del>task.</del> <ins>task you begin.</ins>"))
        #expect(page.contains("Reworded the point on ending tasks."))
        #expect(page.contains("href=\"https://developer.apple.com/forums/thread/85066\""))
        #expect(page.contains("about 30\u{00A0}s"))
        #expect(page.contains("<a href=\"../rules/foreground-task-is-dormant.html\">the dormant rule</a>"),
                "Content's #rule-id link in the prose is rewritten to the rule page")
        #expect(page.contains("bgkb quiz --topic ending"))
    }

    /// Prose with a heading goes through the rewrites (a heading sits two levels down under the
    /// page's own); prose with neither a heading nor a rule link is written as cmark made it.
    @Test func headingsInARulesProseAreDemoted() throws {
        var corpus = SampleCorpus.corpus
        let index = try #require(corpus.rules.firstIndex { $0.id == "end-every-task" })
        corpus.rules[index] = corpus.rules[index].with { fields in
            fields.why = "### Why this matters\n\nA plain paragraph, with *emphasis*."
            fields.instead = "Nothing to rewrite here: `code` and **strong**."
        }
        let page = try #require(SiteBuilder.build(corpus: corpus, verdicts: SampleCorpus.verdicts).files["rules/end-every-task.html"])
        #expect(page.contains("<h5>Why this matters</h5>"))
        #expect(page.contains("<p>A plain paragraph, with <em>emphasis</em>.</p>"))
        #expect(page.contains("<p>Nothing to rewrite here: <code>code</code> and <strong>strong</strong>.</p>"))
    }

    @Test func homeListsTheMostImportantRuleFirst() throws {
        let home = try #require(site.files["index.html"])
        let first = try #require(home.range(of: "End every task you begin"))
        let other = try #require(home.range(of: "Background push is not indefinite"))
        #expect(first.lowerBound < other.lowerBound)
        #expect(home.contains("Processing requests subsume") == false, "removed rules are not among the top rules")
    }

    @Test func crashCodePageListsRulesAndReproducingExamples() throws {
        let page = try #require(site.files["crash-codes.html"])
        #expect(page.contains("id=\"code-0x8badf00d\""))
        #expect(page.contains("rules/end-every-task.html#example-1"))
    }

    @Test func sitemapListsEveryPageButThe404() throws {
        let sitemap = try #require(site.files["sitemap.xml"])
        let pages = site.paths.filter { $0.hasSuffix(".html") && $0 != "404.html" }
        for page in pages {
            #expect(sitemap.contains("<loc>\(SiteConfiguration.defaultBaseURL)\(page)</loc>"), "\(page) missing from sitemap")
        }
        #expect(sitemap.contains("404.html") == false)
    }

    @Test func feedHasOneEntryPerRevisionAndNoBuildTime() throws {
        let feed = try #require(site.files["feed.xml"])
        #expect(feed.components(separatedBy: "<entry>").count - 1 == SampleCorpus.corpus.revisionEntries.count)
        #expect(feed.contains("<updated>2023-06-16T00:00:00Z</updated>"))
    }

    @Test func searchIndexCoversIdsApisAndCodes() throws {
        let index = try #require(site.files["assets/search-index.js"])
        #expect(index.hasPrefix("// Generated by bgkb build"))
        #expect(index.contains("\"id\":\"end-every-task\""))
        #expect(index.contains("UIApplication.endBackgroundTask(_:)"))
        #expect(index.contains("\"c\":[\"0x8badf00d\"]"))
    }
}
