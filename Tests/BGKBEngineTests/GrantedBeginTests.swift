@testable import BGKBEngine
import BGKBModel
import Testing

/// `system grants beginBackgroundTask` pins the refusal away: no explored schedule may answer a
/// begin with `.invalid`, not even one whose early expiry falls at the very instant of the begin.
@Suite struct GrantedBeginTests {
    static let scenarios: [(name: String, text: String)] = [
        ("the first task, begun as the app enters the background", """
            system grants beginBackgroundTask
            on applicationDidEnterBackground {
              let id = beginBackgroundTask(withName: "Save") {
                print("called in")
              }
              DispatchQueue.global().async {
                work 2s
                endBackgroundTask(id)
              }
            }
            expect suspended
            """),
        ("a second task, begun after the first was called in", """
            system grants beginBackgroundTask
            on applicationDidEnterBackground {
              let first = beginBackgroundTask(withName: "First")
              endBackgroundTask(first)
              let second = beginBackgroundTask(withName: "Second")
              endBackgroundTask(second)
            }
            expect suspended
            """),
    ]

    @Test(arguments: scenarios.indices)
    func aGrantedBeginIsNeverInvalid(index: Int) throws {
        let (name, text) = Self.scenarios[index]
        let s = try #require(scenario(text))
        let explorer = Explorer(scenario: s)
        // The space holds an early expiry at the instant of a begin, before it runs.
        let early = explorer.firstTrace { trace in
            guard let expiry = trace.events.firstIndex(where: { $0.detail == "the system ends background time early" }),
                  let begin = trace.events.lastIndex(where: { $0.kind == .taskBegan }) else { return false }
            return expiry < begin && trace.events[expiry].time == trace.events[begin].time
        }
        #expect(early != nil, "\(name): no schedule expires early at a begin")
        let invalid = explorer.firstTrace { trace in trace.events.contains { $0.detail.contains("returns .invalid") } }
        #expect(invalid == nil, "\(name): \(invalid.map { TimelineRenderer.render($0) } ?? "")")
    }
}
