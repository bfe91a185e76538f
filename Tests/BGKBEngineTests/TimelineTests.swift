import BGKBEngine
import BGKBModel
import Testing

/// The default timeline (launch at 0 s, background at 1 s) is added only to a scenario without
/// one, and a timeline event that cannot apply when it comes is shown in the trace.
@Suite struct TimelineTests {
    static func nominalTrace(_ text: String) throws -> SimulationTrace {
        let s = try #require(scenario(text))
        let explorer = Explorer(scenario: s)
        return explorer.trace(explorer.nominalSchedule)
    }

    @Test func withoutATimelineTheAppLeavesAfterASecond() throws {
        let trace = try Self.nominalTrace("""
            on applicationDidEnterBackground {
              print("left")
            }
            expect printed "left"
            """)
        #expect(trace.events.contains { $0.kind == .appState && $0.detail == "background" && $0.time == 1 })
    }

    /// A timeline of calls alone keeps the app in the foreground: no background at 1 s.
    @Test func aTimelineOfCallsAddsNoBackground() throws {
        let trace = try Self.nominalTrace("""
            func sendData() {
              print("sent")
            }
            on applicationDidEnterBackground {
              print("left")
            }
            at 5s: sendData()
            expect running
            """)
        #expect(!trace.events.contains { $0.kind == .appState && $0.detail == "background" })
        #expect(trace.events.contains { $0.detail.contains("print(\"sent\")") && $0.time == 5 })
    }

    @Test(arguments: [
        ("at 1s: app enters background\nat 10s: sendData()", "sendData() does not apply while the app is suspended", 10.0),
        ("at 0s: app launches\nat 2s: app launches", "app launches does not apply while the app is foreground", 2.0),
        ("at 3s: app enters foreground", "app enters foreground does not apply while the app is foreground", 3.0),
    ])
    func anEventThatCannotApplyIsShown(timeline: String, detail: String, time: Double) throws {
        let trace = try Self.nominalTrace("""
            func sendData() {
              print("sent")
            }
            \(timeline)
            expect running
            expect suspended
            """)
        #expect(trace.events.contains { $0.kind == .system && $0.detail.contains(detail) && $0.time == time },
                "\(trace.events.map(\.detail))")
    }
}
