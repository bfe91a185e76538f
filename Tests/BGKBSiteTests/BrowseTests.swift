import BGKBModel
import BGKBQuestions
import BGKBQuiz
import Foundation
import Testing
@testable import BGKBSite

/// What a developer browsing the site relies on: search finds more than rules, the rule list's
/// filters, crash codes in the order they are met, honest revision wording, no build details,
/// and a browser quiz that asks the terminal quiz's questions.
@Suite struct BrowseTests {
    let site = SiteBuilder.build(corpus: SampleCorpus.corpus, verdicts: SampleCorpus.verdicts)

    /// The search index's `items`, decoded.
    struct Index: Decodable {
        struct Item: Decodable { var g: String; var t: String; var s: String; var x: String; var u: String }
        var items: [Item]
    }

    func index() throws -> Index {
        let script = try #require(site.files[SitePaths.searchIndex])
        let json = try #require(script.range(of: "window.BGKB_SEARCH = ").map { script[$0.upperBound...] })
        let body = json.trimmingCharacters(in: .whitespacesAndNewlines).dropLast()
        return try JSONDecoder().decode(Index.self, from: Data(body.utf8))
    }

    @Test(arguments: [
        ("api", "UIApplication.endBackgroundTask(_:)", "apis.html#"),
        ("code", "0x8badf00d", "crash-codes.html#code-0x8badf00d"),
        ("source", "Background Task Notes (2023)", "sources.html#source-notes-2023"),
        ("document", "Background task notes", "documents/notes.html"),
        ("topic", "Beginning and ending", "topics/ending.html"),
        ("page", "Quiz", "quiz.html"),
    ])
    func indexHoldsWhatDevelopersLookFor(group: String, title: String, link: String) throws {
        let item = try #require(try index().items.first { $0.g == group && $0.t == title }, "no \(group) item \(title)")
        #expect(item.u.hasPrefix(link))
    }

    @Test func sourcesAreFoundByAuthor() throws {
        let source = try #require(try index().items.first { $0.g == "source" && $0.t == "Background Task Notes (2023)" })
        #expect(source.s.contains("Quinn"))
    }

    @Test func crashCodesComeMostOftenMetFirst() {
        let ordered = CrashCodesPage.ordered(["0x2182bad2", "0xc51bad01", "0xdead10cc", "0x8badf00d", "0xbada5e47", "0x00000001"])
        #expect(ordered == ["0x8badf00d", "0xdead10cc", "0xbada5e47", "0x2182bad2", "0xc51bad01", "0x00000001"])
        for code in ordered.dropLast() { #expect(CrashCodesPage.meaning(code) != nil, "\(code) has no one-line meaning") }
    }

    @Test func crashCodePageShowsMeaningsNotSimulatorOutput() throws {
        let page = try #require(site.files[SitePaths.crashCodes])
        #expect(page.contains("<table class=\"code-summary\">"))
        #expect(page.contains("The watchdog killed the app"))
        #expect(!page.contains("budget=") && !page.contains("expected suspended, got"), "raw engine output on the page")
    }

    @Test func ruleListRendersFiltersAndFilterableItems() throws {
        let page = try #require(site.files[SitePaths.rulesIndex])
        for control in ["<select id=\"topic\" name=\"topic\">", "<select id=\"kind\" name=\"kind\">", "<select id=\"source\" name=\"source\">",
                        "<input type=\"checkbox\" id=\"examples\" name=\"examples\" value=\"1\">", "assets/rule-list.js"] {
            #expect(page.contains(control), "missing \(control)")
        }
        #expect(page.contains("<li data-topics=\"ending\" data-kind=\"must\" data-sources=\"blog notes-2023\" data-examples=\"1\">"))
        #expect(page.contains("href=\"../rules/index.html?kind=must\""), "a kind badge links to the list filtered to its kind")
        #expect(page.contains("<a class=\"rule-title\" href=\"../rules/end-every-task.html\">End every task you begin</a>"))
    }

    @Test func revisionWordingSaysOnlyWhatIsKnown() throws {
        let page = try #require(site.files["rules/end-every-task.html"])
        #expect(page.contains("Present</span> since at least 2021-02-27, the earliest copy we have"))
        #expect(!page.contains("since it was first written"))
        #expect(!page.contains("ADDED in version 2021-02-27") && !page.contains(">Added</span> in version 2021-02-27"))
    }

    @Test func documentChangesPageTiesChangesToEntries() throws {
        let page = try #require(site.files["documents/notes-changes.html"])
        #expect(page.contains("2021-02-27 → 2023-06-16"))
        #expect(page.contains("Explained by the entry of <time datetime=\"2023-06-16\">"))
        #expect(page.contains("<del>should</del>"))
        #expect(page.contains("No dated revision entry mentions this change."), "the removed rule has no entry")
    }

    @Test func noInventedDomainWithoutBaseURL() throws {
        #expect(site.files[SitePaths.sitemap] == nil)
        let feed = try #require(site.files[SitePaths.feed])
        #expect(!feed.contains("example.org") && !feed.contains("https://"))
        for (path, text) in site.files where path.hasSuffix(".html") {
            #expect(!text.contains("example.org"), "\(path) names an invented domain")
        }
    }

    @Test func editLinkOnlyWithARepositoryURL() throws {
        let configured = SiteBuilder.build(corpus: SampleCorpus.corpus, verdicts: SampleCorpus.verdicts,
                                           configuration: SiteConfiguration(repositoryURL: "https://github.com/o/bgkb/edit/main/Content"))
        let page = try #require(configured.files["rules/end-every-task.html"])
        #expect(page.contains("<a href=\"https://github.com/o/bgkb/edit/main/Content/documents/notes/2023-06-16.md\">Edit this page</a>"))
        #expect(try #require(site.files["rules/end-every-task.html"]).contains("Edit this page") == false)
    }

    /// The site's bank is what `bgkb quiz --export` writes of the built-in bank (made by the
    /// build plugin from Content, a separate path from the site build).
    @Test func committedQuizBankIsTheExportOfTheBuiltInBank() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let script = try String(contentsOf: root.appendingPathComponent("Site/assets/quiz-bank.js"), encoding: .utf8)
        let json = try #require(script.range(of: "window.BGKB_QUIZ = ").map { script[$0.upperBound...] })
        let site = try JSONDecoder().decode(BankExport.Document.self, from: Data(json.trimmingCharacters(in: .whitespacesAndNewlines).dropLast().utf8))
        let bank = try #require(EmbeddedContent.bank())
        let export = BankExport.document(bank: bank, topics: EmbeddedContent.topics(), siteURL: nil)
        #expect(site.questions.count == export.questions.count)
        #expect(site == export)
    }
}

/// The site's scripts run under Node (when it is installed; CI installs it): the search's word
/// handling, and the quiz's FSRS port against `BGKBQuiz.FSRS`.
@Suite(.enabled(if: NodeScript.available)) struct ScriptTests {
    @Test(arguments: [
        ("leak", "leaked"), ("leak", "leaks"), ("leak", "leaking"), ("expiration", "expiry"), ("expire", "expired"),
        ("handler", "handlers"), ("task", "tasks"), ("terminate", "killed"), ("suspension", "suspended"), ("process", "processing"),
    ])
    func wordsThatSearchTreatsAsOne(_ a: String, _ b: String) throws {
        let out = try NodeScript.run(Scripts.search, "[W.norm(\(json(a))), W.norm(\(json(b)))]")
        let pair = try JSONDecoder().decode([String].self, from: Data(out.utf8))
        #expect(pair[0] == pair[1], "\(a) → \(pair[0]), \(b) → \(pair[1])")
    }

    @Test(arguments: [("watchdog", "0x8badf00d"), ("expiry", "handler"), ("leak", "lock"), ("status", "state")])
    func wordsThatStayApart(_ a: String, _ b: String) throws {
        let out = try NodeScript.run(Scripts.search, "[W.norm(\(json(a))), W.norm(\(json(b)))]")
        let pair = try JSONDecoder().decode([String].self, from: Data(out.utf8))
        #expect(pair[0] != pair[1])
    }

    @Test func watchdogAndItsCodeFindEachOther() throws {
        let out = try NodeScript.run(Scripts.search, "[W.related['watchdog'], W.related['0x8badf00d']]")
        #expect(out == "[[\"0x8badf00d\"],[\"watchdog\"]]")
    }

    /// A sequence of answers (rating, days since the previous one) from a new card.
    static let histories: [[(FSRS.Rating, Double?)]] = [
        [(.good, nil), (.good, 3), (.good, 10), (.again, 30), (.hard, 0.2), (.good, 2)],
        [(.again, nil), (.again, 0.01), (.hard, 1), (.good, 4.5), (.easy, 12)],
        [(.hard, nil), (.good, 400), (.again, 2000), (.good, 1)],
    ]

    @Test(arguments: 0..<histories.count)
    func fsrsPortGivesTheSameMemoryAndInterval(_ which: Int) throws {
        let history = Self.histories[which]
        var memory: FSRS.Memory?
        var expected: [[Double]] = []
        for (rating, days) in history {
            memory = FSRS.next(memory, rating: rating, elapsedDays: days)
            let m = try #require(memory)
            let interval = min(max(FSRS.interval(stability: m.stability, retention: 0.9).rounded(), 1), FSRS.maximumStability)
            expected.append([m.stability, m.difficulty, interval])
        }
        let steps = history.map { "[\($0.0.rawValue),\($0.1.map { String($0) } ?? "null")]" }.joined(separator: ",")
        let out = try NodeScript.run(QuizScript.source, """
            (function () { var m = null, out = [];
              [\(steps)].forEach(function (s) { m = F.next(m, s[0], s[1]); out.push([m.s, m.d, F.scheduledDays(m.s, 0.9)]); });
              return out; })()
            """)
        let actual = try JSONDecoder().decode([[Double]].self, from: Data(out.utf8))
        #expect(actual.count == expected.count)
        for (a, e) in zip(actual, expected) {
            #expect(abs(a[0] - e[0]) <= 1e-9 * max(1, e[0]), "stability \(a[0]) vs \(e[0])")
            #expect(abs(a[1] - e[1]) <= 1e-9, "difficulty \(a[1]) vs \(e[1])")
            #expect(a[2] == e[2], "interval \(a[2]) vs \(e[2])")
        }
    }

    func json(_ text: String) -> String { "\"" + text + "\"" }
}

/// Runs one of the site's scripts under Node with a bare `window` and `document`, then prints
/// `expression` as JSON (`W` is the search's word functions, `F` the quiz's FSRS).
enum NodeScript {
    static let path: String? = ["/usr/bin/node", "/usr/local/bin/node", "/usr/bin/nodejs"].first { FileManager.default.isExecutableFile(atPath: $0) }
    static var available: Bool { path != nil }

    static func run(_ script: String, _ expression: String) throws -> String {
        let program = """
            var window = { location: { search: "" } }; var document = { getElementById: function () { return null; }, addEventListener: function () {} };
            \(script)
            var W = window.BGKB_SEARCH_WORDS, F = window.BGKB_FSRS;
            process.stdout.write(JSON.stringify(\(expression)));
            """
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("bgkb-script-\(UUID().uuidString).js")
        try program.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path ?? "node")
        process.arguments = [file.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}
