import BGKBEngine
import BGKBModel
import Testing

/// The walk the scan uses to look for a second rule broken (`Explorer.firstFailingTrace`) meets
/// only runs that fail the scenario's expectations.
@Suite struct LookOnTests {
    static func explorer(_ text: String) throws -> Explorer {
        let scenario = try #require(ScenarioParser.parse(text, at: SourceLocation(path: "test", line: 1, column: 1)).0)
        return Explorer(scenario: scenario)
    }

    @Test func aFailingRunIsFound() throws {
        let explorer = try Self.explorer("""
            on applicationDidEnterBackground {
              let id = beginBackgroundTask(withName: "Save") { }
              work 1s
            }
            expect suspended

            """)
        let trace = try #require(explorer.firstFailingTrace { _ in true })
        let schedule = try #require(Schedule(parsing: trace.schedule))
        #expect(explorer.failure(schedule) != nil)
    }

    @Test func aScenarioThatHoldsHasNone() throws {
        let explorer = try Self.explorer("""
            on applicationDidEnterBackground {
              print("saved")
            }
            expect suspended

            """)
        #expect(explorer.firstFailingTrace { _ in true } == nil)
        #expect(explorer.firstTrace { _ in true } != nil)
    }
}
