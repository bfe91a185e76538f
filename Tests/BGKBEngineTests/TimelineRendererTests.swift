import BGKBEngine
import BGKBModel
import Testing

/// `bgkb check` prints a run as a timeline: a loop's turns fold into its first turn and one line
/// that says how often it repeats, so a long loop reads as a few lines, not one per step.
@Suite struct TimelineRendererTests {
    /// A loop body (as the scenario writes it) and how many lines one turn prints.
    @Test(arguments: [("work 1s\n    n += 1", 3), ("n += 1", 2), ("print(\"tick\")\n    work 2s", 2)])
    func aLoopsTurnsFold(body: String, linesPerTurn: Int) throws {
        let s = try #require(scenario("""
            var n = 0
            on applicationDidEnterBackground {
              let id = beginBackgroundTask(withName: "loop")
              DispatchQueue.global().async {
                for _ in 1...200 {
                \(body)
                }
                endBackgroundTask(id)
              }
            }
            system budget 1000s
            expect suspended
            """))
        let explorer = Explorer(scenario: s)
        let trace = explorer.trace(explorer.nominalSchedule)
        let text = TimelineRenderer.render(trace)
        let lines = text.split(separator: "\n")
        #expect(lines.count < 40, "\(text)")
        let fold = try #require(lines.first { $0.contains("lines above repeat") }, "\(text)")
        // Each turn prints its body's steps (a `for` loop turns without a line of its own); the first turn stays.
        #expect(fold.contains("the \(linesPerTurn) lines above repeat"), "\(fold)")
        #expect(fold.contains("until "), "\(fold)")
        #expect(text.contains("=> suspended cleanly"))
    }

    /// Lines that look alike only twice stay as they are.
    @Test func twoLookAlikeTurnsDoNotFold() throws {
        let s = try #require(scenario("""
            on applicationDidEnterBackground {
              let id = beginBackgroundTask(withName: "twice")
              DispatchQueue.global().async {
                for _ in 1...2 {
                  work 1s
                  print("tick")
                }
                endBackgroundTask(id)
              }
            }
            expect suspended
            """))
        let explorer = Explorer(scenario: s)
        let text = TimelineRenderer.render(explorer.trace(explorer.nominalSchedule))
        #expect(!text.contains("lines above repeat"), "\(text)")
        #expect(text.components(separatedBy: "print(\"tick\")").count == 3, "\(text)")
    }

    static func event(_ detail: String, _ kind: TraceEvent.Kind = .step, lane: String = "main") -> TraceEvent {
        TraceEvent(time: 1, kind: kind, lane: lane, detail: detail)
    }

    /// The one folding every view uses: the longest repeat wins, a repeated event is a turn of
    /// one (not of two), numbers may differ (and the run says so), and two turns stay.
    @Test(arguments: [
        (["a", "a", "a", "a", "a", "a"], [RepeatedRun(start: 0, length: 1, turns: 6)]),
        (["x", "a", "b", "a", "b", "a", "b", "y"],
         [RepeatedRun(start: 0, length: 1, turns: 1), RepeatedRun(start: 1, length: 2, turns: 3), RepeatedRun(start: 7, length: 1, turns: 1)]),
        (["task 1", "task 2", "task 10"], [RepeatedRun(start: 0, length: 1, turns: 3, exact: false)]),
        (["a", "b", "a", "b"], [0, 1, 2, 3].map { RepeatedRun(start: $0, length: 1, turns: 1) }),
        (["a", "a"], [0, 1].map { RepeatedRun(start: $0, length: 1, turns: 1) }),
        (["work 1s", "work 2s x", "work 3s"], [0, 1, 2].map { RepeatedRun(start: $0, length: 1, turns: 1) }),
    ])
    func runsFoldTheLongestRepeat(details: [String], expected: [RepeatedRun]) {
        #expect(TraceFolding.runs(details.map { Self.event($0) }) == expected)
    }

    /// Events on other lanes or of other kinds are not alike, whatever their words.
    @Test func laneAndKindKeepEventsApart() {
        let events = [Self.event("a"), Self.event("a", lane: "global #1"), Self.event("a", .log)]
        #expect(TraceFolding.runs(events).allSatisfy { !$0.isFolded })
    }
}
