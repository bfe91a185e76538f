import BGKBModel
import Testing
@testable import BGKBSite

/// How a rule page presents an example: the Swift highlighter, the sentences made from the
/// scenario, the label from intent and outcome, and the timeline's legend, palette and size.
@Suite struct ExamplePresentationTests {
    // MARK: The highlighter

    @Test(arguments: [
        ("var id: UIBackgroundTaskIdentifier = .invalid", [SwiftHighlighter.Kind.keyword, .type]),
        ("let s = \"a // not a comment\" // a comment", [.keyword, .string, .comment]),
        ("for _ in 1...1001 { }", [.keyword, .keyword, .number, .number]),
        ("@MainActor final class A { }", [.attribute, .keyword, .keyword, .type]),
        ("  work 10s   // busy", [.simulated, .comment]),
        ("on applicationDidEnterBackground {", [.simulated]),
        ("task.setTaskCompleted(success: true)", [.keyword]),
        ("/* one\ntwo */ self.finish()", [.comment, .keyword]),
        ("x = \"esc \\\" quote\"", [.string]),
    ])
    func highlighterFindsTheTokens(_ code: String, _ kinds: [SwiftHighlighter.Kind]) {
        let cut = SwiftHighlighter.tokens(code)
        #expect(cut.tokens.map { String(decoding: cut.text($0), as: UTF8.self) }.joined() == code, "tokens must give the code back")
        #expect(cut.tokens.filter { $0.kind != .plain }.map(\.kind) == kinds)
    }

    @Test func highlighterDoesNotMarkWordsAfterADotOrInsideAName() {
        // `.default` is a member, not the keyword; `worker 3` and `only` are not the simulator's words.
        let tokens = SwiftHighlighter.tokens("x = .default\nworker 3\nonly {").tokens
        #expect(tokens.allSatisfy { $0.kind != .keyword && $0.kind != .simulated })
    }

    @Test func highlightedHTMLIsEscapedAndDeterministic() {
        var first = HTMLWriter(), second = HTMLWriter()
        let code = "print(\"<b>&\") // <i>"
        SwiftHighlighter.write(code, into: &first)
        SwiftHighlighter.write(code, into: &second)
        #expect(first.string == second.string)
        #expect(first.string == "print(<span class=\"hl-str\">&quot;&lt;b&gt;&amp;&quot;</span>) <span class=\"hl-com\">// &lt;i&gt;</span>")
    }

    // MARK: Sentences from the scenario

    static func example(_ text: String, intent: Example.Intent = .follows) -> Example {
        Example(rule: "r", name: nil, intent: intent, text: text, location: SourceLocation(path: "documents/r.md", line: 1, column: 1))
    }

    /// The timeline's sentence as the page writes it.
    static func timelineSentence(_ prose: ExampleProse) -> String {
        var w = HTMLWriter()
        ExampleProse.writeTimeline(prose.timeline, into: &w)
        return w.string
    }

    @Test func conditionsAndExpectationsBecomeOneSentence() {
        let prose = ExampleProse(example: Self.example("""
        system grants beginBackgroundTask
        system expires tasks only when time runs out
        on applicationDidEnterBackground {
          taskID = beginBackgroundTask(withName: "Leak") { }
        }
        var taskID: UIBackgroundTaskIdentifier = .invalid
        expect terminated 0x8badf00d around 30s
        """))
        #expect(prose.conditions == "If the system grants the task and only expires it when time runs out")
        #expect(prose.expectation == "the watchdog kills the app with 0x8badf00d after about 30\u{00A0}s")
        #expect(prose.expectsHarm)
        #expect(Self.timelineSentence(prose) == "At 0\u{00A0}s the app launches, then at 1\u{00A0}s the app goes to the background.")
        // The directives are the sentence's; the code keeps only the app's lines.
        #expect(!prose.code.contains("system ") && !prose.code.contains("expect "))
        #expect(prose.code.hasPrefix("on applicationDidEnterBackground {"))
    }

    @Test func unpinnedConditionsSayTheSimulatorVariesThem() {
        let prose = ExampleProse(example: Self.example("""
        system budget 5s
        system network off
        at 2s: app enters background
        on applicationDidEnterBackground { beginBackgroundTask(withName: "x"); print("saved") }
        expect suspended
        expect printed "saved"
        """))
        #expect(prose.conditions == "Whether the system grants the task or refuses it, and whenever it expires it, with a background time budget of 5\u{00A0}s and with no network")
        #expect(prose.expectation == "the app ends suspended with every task ended and the code prints “saved”")
        #expect(!prose.expectsHarm)
        #expect(Self.timelineSentence(prose) == "At 0\u{00A0}s the app launches, then at 2\u{00A0}s the app goes to the background.")
    }

    /// Code that begins no background task: granting and refusing say nothing, so the sentence
    /// leaves them out; times of hours read in hours.
    @Test func conditionsWithoutABackgroundTask() {
        let prose = ExampleProse(example: Self.example("""
        at 7200s: system launches "com.example.refresh"
        on didFinishLaunching { work 1s }
        expect suspended
        """))
        #expect(prose.conditions == "Whenever the system expires tasks")
        #expect(Self.timelineSentence(prose) == "At 2\u{00A0}h the system launches the task “com.example.refresh”.")
    }

    @Test(arguments: [(30.0, "30\u{00A0}s"), (119.5, "119.5\u{00A0}s"), (600, "10\u{00A0}min"), (7200, "2\u{00A0}h"),
                      (7231, "2\u{00A0}h 31\u{00A0}s"), (5400, "1\u{00A0}h 30\u{00A0}min"), (-1, "-1\u{00A0}s")])
    func durationsReadAsPeopleSayThem(_ seconds: Double, _ text: String) {
        #expect(Format.duration(seconds) == text)
    }

    @Test(arguments: [
        // Only top-level lines are directives: a closure's `expect` is never cut.
        ("func f() {\n  expect thing\n}\n\n\n\nexpect suspended\n", "func f() {\n  expect thing\n}"),
        // Blank lines at either end go, a run of them inside becomes one (spaces count as blank).
        ("\n  \nlet a = 1\n\n \t\n\nlet b = 2\n\n", "let a = 1\n\nlet b = 2"),
        // Braces inside strings (with escaped quotes) and after `//` do not change the depth.
        ("print(\"{ \\\" {\") // {\nexpect printed \"x\"\nat 1s: app enters background\n",
         "print(\"{ \\\" {\") // {"),
        // `expect` alone is a directive; `expected` and `at` without a colon are code; so is non-ASCII.
        ("expect\nexpected()\nat (x)\nlet é = \"→\"\nsystem grants beginBackgroundTask\nInfo.plist: x",
         "expected()\nat (x)\nlet é = \"→\""),
    ])
    func codeDropsTopLevelDirectivesAndExtraBlankLines(_ scenario: String, _ code: String) {
        #expect(ExampleProse.code(scenario) == code)
    }

    /// The note under the code names the shorthand the code uses, each handler by its own name.
    @Test(arguments: [
        ("let x = 1", ""),
        ("on applicationDidEnterBackground {\n  work 5s\n}",
         "<p class=\"code-note\">Swift, with the simulator's shorthand: <code>work 10s</code> keeps the thread busy for 10 seconds of simulated time; <code>on applicationDidEnterBackground { }</code> is what the app delegate's method of that name does.</p>\n"),
        ("on urlSessionDidFinishEvents {\n}",
         "<p class=\"code-note\">Swift, with the simulator's shorthand: <code>on urlSessionDidFinishEvents { }</code> is what the session delegate's method of that name does.</p>\n"),
        ("on didFinishLaunching {\n}\non handleEventsForBackgroundURLSession {\n}\non didFinishLaunching {\n}",
         "<p class=\"code-note\">Swift, with the simulator's shorthand: <code>on didFinishLaunching { }</code> and <code>on handleEventsForBackgroundURLSession { }</code> are what the delegate methods of those names do.</p>\n"),
    ])
    func codeNoteNamesTheHandlersTheCodeHas(_ code: String, _ note: String) {
        var w = HTMLWriter()
        ExampleSection.writeCodeNotes(SwiftHighlighter.tokens(code), into: &w)
        #expect(w.string == note)
    }

    // MARK: Labels and tones

    @Test(arguments: [
        (Example.Intent.follows, false, OutcomeTone.good, ExampleLabel.correctCode),
        (.follows, true, .bad, .whatHappens),
        (.follows, false, .bad, .whatHappens),
        (.follows, false, .warning, .whatHappens),
        (.follows, true, .good, .whatHappens),
        (.breaks, false, .bad, .buggyCode),
        (.breaks, false, .warning, .buggyCode),
        (.breaks, true, .good, .whatHappens),
        (.follows, false, .undecided, .whatHappens),
        (.breaks, false, .undecided, .whatHappens),
    ])
    func labelComesFromIntentAndOutcome(_ intent: Example.Intent, _ expectsHarm: Bool, _ tone: OutcomeTone, _ label: ExampleLabel) {
        #expect(ExampleLabel(intent: intent, expectsHarm: expectsHarm, outcome: tone) == label)
    }

    @Test func toneFollowsTheEnginesOutcome() {
        #expect(OutcomeTone(SampleCorpus.leakTrace) == .bad)
        #expect(OutcomeTone(SampleCorpus.safeTrace) == .good)
        var warned = SampleCorpus.safeTrace
        warned.events.append(TraceEvent(time: 2, kind: .log, lane: "main", detail: "Can't end BackgroundTask"))
        #expect(OutcomeTone(warned) == .warning)
        #expect(String(decoding: OutcomeTone.sentenceHTML(SampleCorpus.leakTrace), as: UTF8.self) == "The watchdog kills the app with 0x8badf00d at 36\u{00A0}s: task A still running.")
    }

    /// A run the simulator stopped at its own limit is neither good nor bad for the app: it is
    /// shown as undecided, with the limit named, never as a crash.
    @Test func anUndecidedRunIsShownAsUndecided() {
        var undecided = SampleCorpus.safeTrace
        undecided.outcome = .undecided(limit: .stepsWithoutTimePassing(steps: 500_000), at: 2)
        #expect(OutcomeTone(undecided) == .undecided)
        let sentence = String(decoding: OutcomeTone.sentenceHTML(undecided), as: UTF8.self)
        #expect(sentence.hasPrefix("The simulator stops the run at 2\u{00A0}s, undecided"), "\(sentence)")
        #expect(sentence.contains("500,000 steps without simulated time passing"), "\(sentence)")
        #expect(!sentence.contains("crash"))
        let drawing = TimelineSVGTests.drawn(undecided)
        #expect(drawing.svg.contains("undecided (the simulator&#39;s limit)"))
        #expect(!drawing.svg.contains("killed:") && !drawing.svg.contains("crash:"))
        #expect(TimelineSVG.Layout(trace: undecided).legend.contains(.undecided))
    }

    @Test func rulePageLabelsAndColoursEachExample() throws {
        let site = SiteBuilder.build(corpus: SampleCorpus.corpus, verdicts: SampleCorpus.verdicts)
        let page = try #require(site.files["rules/end-every-task.html"])
        // The leak is a `breaks` example whose run was killed: buggy code, red.
        #expect(page.contains("<span class=\"badge shows-buggy\">Buggy code</span> Example 1: Leaked identifier"))
        #expect(page.contains("<div class=\"verdict tone-bad\">"))
        // The safe one follows and ends suspended: correct code, green.
        #expect(page.contains("<span class=\"badge shows-correct\">Correct code</span> Example 2"))
        #expect(page.contains("<div class=\"verdict tone-good\">"))
        // The replay string sits in a details element, not in the text.
        let replay = try #require(page.range(of: "<details class=\"replay\">"))
        #expect(page[replay.upperBound...].contains("--replay \"budget=30 expire@31\""))
        #expect(page.contains("href=\"../examples.html\""))
        #expect(site.files["examples.html"]?.contains("20000") == true || site.files["examples.html"]?.contains("20,000") == true)
        #expect(site.files["examples.html"]?.contains("up to 3 preemptions") == true)
        // A rule without examples has no examples section, one line instead.
        let dormant = try #require(site.files["rules/foreground-task-is-dormant.html"])
        #expect(!dormant.contains("id=\"examples\""))
        #expect(dormant.contains("<p class=\"not-simulated\">Not simulated: The engine does not model the foreground clock yet."))
    }

    // MARK: Timelines

    @Test func legendListsOnlyWhatTheChartDraws() {
        let leak = TimelineSVG.Layout(trace: SampleCorpus.leakTrace).legend
        #expect(leak.contains(.leaked) && leak.contains(.killed) && leak.contains(.expiry) && leak.contains(.foreground))
        #expect(!leak.contains(.task) && !leak.contains(.suspended) && !leak.contains(.crashed))
        let safe = TimelineSVG.Layout(trace: SampleCorpus.safeTrace).legend
        #expect(safe.contains(.task) && safe.contains(.background) && safe.contains(.suspended))
        #expect(!safe.contains(.leaked) && !safe.contains(.killed) && !safe.contains(.expiry) && !safe.contains(.foreground))
    }

    /// Every mark at least 3:1 against the row it sits on, in the light theme and the dark one;
    /// the text on the App row's segments at least 3:1 against each segment colour.
    @Test(arguments: ["light", "dark"])
    func everyMarkContrastsWithItsRow(_ name: String) throws {
        let theme = name == "light" ? TimelinePalette.light : TimelinePalette.dark
        for mark in theme.marks {
            let ratio = try #require(TimelinePalette.contrast(mark.colour, theme.row))
            #expect(ratio >= 3, "\(name): \(mark.name) \(mark.colour) on \(theme.row) is \(ratio):1")
        }
        for segment in [theme.foreground, theme.background, theme.suspended, theme.other] {
            let ratio = try #require(TimelinePalette.contrast(theme.stateText, segment))
            #expect(ratio >= 3, "\(name): state text on \(segment) is \(ratio):1")
        }
        // The expiry mark has a halo in the row's colour, so it must stand out from that too.
        #expect(try #require(TimelinePalette.contrast(theme.expiry, theme.row)) >= 3)
    }

    @Test func contrastMatchesWCAGsReferenceValues() {
        #expect(abs((TimelinePalette.contrast("#000000", "#ffffff") ?? 0) - 21) < 0.01)
        #expect(abs((TimelinePalette.contrast("#777777", "#ffffff") ?? 0) - 4.48) < 0.01)
        #expect(TimelinePalette.contrast("red", "#fff") == nil)
    }

    /// A thousand tasks that are not a loop's turns (each step's words differ, so nothing folds):
    /// four lanes and a summary row, dots merged, the text list cut short, the leaked tasks named
    /// in numeric order.
    @Test func aThousandTasksDrawAFewLanes() {
        var events = [TraceEvent(time: 0, kind: .appState, lane: "system", detail: "background")]
        func letters(_ n: Int) -> String {
            let scalars = "abcdefghijklmnopqrstuvwxyz".unicodeScalars.map { $0 }
            var n = n, text = ""
            repeat { text.unicodeScalars.append(scalars[n % 26]); n /= 26 } while n > 0
            return text
        }
        for n in 1...1000 {
            events.append(TraceEvent(time: 1, kind: .step, lane: "main", detail: "beginBackgroundTask(withName: \"\(letters(n))\")"))
            events.append(TraceEvent(time: 1, kind: .taskBegan, lane: "main", subject: "task \(n)", detail: "begin"))
        }
        let trace = SimulationTrace(events: events, outcome: .terminated(code: "0xbada5e47", reason: "too many", at: 1), schedule: "s")
        let layout = TimelineSVG.Layout(trace: trace)
        #expect(layout.laneRows.count == 1 + 3 + 1 + 1)
        #expect(layout.summaries.map(\.text) == ["…and 997 more tasks like these, not drawn"])
        #expect(layout.bars.count == 3)
        #expect(layout.dots.count < 400)
        var svg = HTMLWriter(), list = HTMLWriter()
        layout.write(example: 1, rule: "r", into: &svg)
        layout.writeTextList(into: &list)
        #expect(svg.string.utf8.count < 60_000)
        #expect(list.string.components(separatedBy: "<li").count - 1 == TimelineSVG.listedEvents + 1)
        #expect(list.string.contains("…1941 more events from 1\u{00A0}s to 1\u{00A0}s"))
        #expect(String(decoding: layout.descriptionHTML, as: UTF8.self).contains("Never ended (1000): task 1, task 2, task 3, …, task 999, task 1000."))
    }

    @Test(arguments: [("task 2", "task 10", true), ("task 10", "task 2", false), ("a", "b", true), ("task 01", "task 1", true),
                      ("x9", "x10", true), ("x", "x1", true)])
    func namesSortNaturally(_ a: String, _ b: String, _ less: Bool) {
        #expect(TimelineSVG.naturalLess(a, b) == less)
    }

    // MARK: Misconception pages

    @Test func mythPagesStateTheMythAndOldAddressesRedirect() throws {
        let site = SiteBuilder.build(corpus: SampleCorpus.corpus, verdicts: SampleCorpus.verdicts)
        let page = try #require(site.files["rules/myth-push-is-not-indefinite.html"])
        #expect(page.contains(">Myth: Background push runs indefinitely.</h1>"))
        #expect(page.contains("<strong>In fact:</strong> A background push gives about 30 seconds, not unlimited time."))
        #expect(page.contains("<ul class=\"corrections\"><li><a href=\"../rules/end-every-task.html\">"))
        let redirect = try #require(site.files["rules/push-is-not-indefinite.html"])
        #expect(redirect.contains("<meta http-equiv=\"refresh\" content=\"0; url=../rules/myth-push-is-not-indefinite.html\">"))
        #expect(redirect.contains("<link rel=\"canonical\" href=\"../rules/myth-push-is-not-indefinite.html\">"))
        #expect(redirect.contains("<a href=\"../rules/myth-push-is-not-indefinite.html\">Myth: Background push runs indefinitely.</a></p>"))
        // Other rules keep their addresses, and links to the myth go to its new one.
        #expect(site.files["rules/end-every-task.html"] != nil)
        // (The sample's one empty link is its deliberate `javascript:` one.)
        #expect(LinkTests.brokenLinks(in: site) == ["rules/end-every-task.html: empty link"])
    }
}
