import BGKBEngine
import BGKBModel
import Testing

@Suite struct SmokeTests {
    @Test func applesListing() throws {
        let text = """
        var backgroundTaskID: UIBackgroundTaskIdentifier?

        func sendDataToServer() {
          DispatchQueue.global().async {
            backgroundTaskID = UIApplication.shared.beginBackgroundTask(withName: "Finish Network Tasks") {
              UIApplication.shared.endBackgroundTask(backgroundTaskID!)
              backgroundTaskID = UIBackgroundTaskInvalid
            }
            work 10s
            UIApplication.shared.endBackgroundTask(backgroundTaskID!)
            backgroundTaskID = UIBackgroundTaskInvalid
          }
        }

        on applicationDidEnterBackground {
          sendDataToServer()
        }
        expect suspended
        """
        let s = try #require(scenario(text))
        let explorer = Explorer(scenario: s)
        print(TimelineRenderer.render(explorer.trace(explorer.nominalSchedule)))
        let (verdict, diags) = check(example(text, .breaks))
        print(diags.all)
        let v = try #require(verdict)
        print(v.summary)
        if let c = v.counterexample { print(TimelineRenderer.render(c)) }
    }
}
