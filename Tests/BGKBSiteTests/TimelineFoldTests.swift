import BGKBEngine
import BGKBModel
import Testing
@testable import BGKBSite

/// A loop's turns fold on the page as they fold in `bgkb check --timelines` (one folding,
/// `TraceFolding`, for both): the chart draws the first turn and a break mark that counts the
/// rest, and the list says how many turns it folded. A loop of two turns is drawn as it is.
@Suite struct TimelineFoldTests {
    struct Loop: CustomTestStringConvertible, Sendable {
        var name: String
        var turns: Int
        var body: String
        /// The turns after the first that fold (0: nothing folds).
        var folded: Int
        /// The list's words for them.
        var words: String
        var testDescription: String { name }
    }

    static let loops: [Loop] = [
        Loop(name: "a thousand turns of work over time", turns: 1000, body: "work 10ms\n      print(\"chunk\")",
             folded: 999, words: "the same 2 steps 999 more times, until 11\u{00A0}s"),
        Loop(name: "a thousand and one tasks at one instant", turns: 1001, body: "beginBackgroundTask(withName: \"item\")",
             folded: 998, words: "the same 2 events 998 more times (only their numbers differ), until 1\u{00A0}s"),
        Loop(name: "a short loop", turns: 2, body: "work 1s\n      print(\"chunk\")", folded: 0, words: ""),
    ]

    static func trace(_ loop: Loop) throws -> SimulationTrace {
        let text = """
        system budget 30s
        system grants beginBackgroundTask
        var taskID: UIBackgroundTaskIdentifier = .invalid

        on applicationDidEnterBackground {
          taskID = beginBackgroundTask(withName: "loop") {
            endBackgroundTask(taskID)
          }
          DispatchQueue.main.async {
            for _ in 1...\(loop.turns) {
              \(loop.body)
            }
            endBackgroundTask(taskID)
          }
        }

        expect suspended
        """
        // The nominal run (the example breaks in other schedules: an early expiry).
        let (parsed, diagnostics) = ScenarioParser.parse(text, at: SourceLocation(path: "loop.md", line: 1, column: 1))
        #expect(!diagnostics.hasErrors, "\(diagnostics.all)")
        let explorer = Explorer(scenario: try #require(parsed))
        return explorer.trace(explorer.nominalSchedule)
    }

    @Test(arguments: loops)
    func longLoopsFoldOnThePageAsInTheCLI(loop: Loop) throws {
        let trace = try Self.trace(loop)
        let layout = TimelineSVG.Layout(trace: trace)
        var svg = HTMLWriter()
        layout.write(example: 1, rule: "r", into: &svg)
        var list = HTMLWriter()
        layout.writeTextList(into: &list)
        let text = TimelineRenderer.render(trace)
        let marks = ["<circle", "<rect class=\"tl-task", "<path class=\"tl-expiry\""].map { svg.string.components(separatedBy: $0).count - 1 }
        if loop.folded > 0 {
            #expect(trace.events.count > loop.turns)
            // The first turn and what comes before and after the loop: a handful of marks.
            #expect(marks.reduce(0, +) < 20, "\(marks)")
            #expect(svg.string.components(separatedBy: "class=\"tl-fold-mark\"").count - 1 == 1)
            #expect(svg.string.contains("×\(loop.folded) more"))
            #expect(layout.legend.contains(.fold))
            #expect(list.string.contains("<li class=\"tl-fold\">…\(loop.words)"), "\(list.string)")
            #expect(list.string.components(separatedBy: "<li").count - 1 < 20)
            #expect(String(decoding: layout.descriptionHTML, as: UTF8.self).contains("count the \(loop.folded) turns after it"))
            // The CLI folds the same run, and says so in its own words.
            #expect(text.contains("lines above repeat \(loop.folded) more times"), "\(text)")
        } else {
            #expect(!svg.string.contains("tl-fold"))
            #expect(!list.string.contains("tl-fold"))
            #expect(!layout.legend.contains(.fold))
            #expect(list.string.components(separatedBy: "<li>").count - 1 == trace.events.count)
            #expect(svg.string.components(separatedBy: "<circle").count - 1 == trace.events.filter { $0.kind == .step }.count)
            #expect(!text.contains("more times"))
        }
    }
}
