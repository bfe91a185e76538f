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
}
