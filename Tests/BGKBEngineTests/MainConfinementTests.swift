@testable import BGKBEngine
import Testing

/// `MainConfinement` decides which globals a main-thread step may touch without the system's
/// events being offered before it: a global any code off main mentions must never be confined.
@Suite struct MainConfinementTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var text: String
        /// Each global, by name, and whether it is confined to main.
        var confined: [String: Bool]
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "main-only identifier, worker that touches nothing", text: """
            var taskID: UIBackgroundTaskIdentifier = .invalid
            var count = 0
            func finish() {
              if taskID != .invalid {
                endBackgroundTask(taskID)
                taskID = .invalid
              }
            }
            on applicationDidEnterBackground {
              taskID = beginBackgroundTask(withName: "Upload") {
                finish()
              }
              DispatchQueue.global().async {
                work 5s
                DispatchQueue.main.async {
                  finish()
                }
              }
            }
            expect suspended
            """, confined: ["taskID": true, "count": true]),
        Case(name: "a worker writes the identifier", text: """
            var taskID: UIBackgroundTaskIdentifier = .invalid
            on applicationDidEnterBackground {
              DispatchQueue.global().async {
                taskID = beginBackgroundTask(withName: "Upload")
                work 5s
                endBackgroundTask(taskID)
              }
            }
            expect suspended
            """, confined: ["taskID": false]),
        Case(name: "a function called from a worker and from main", text: """
            var done = false
            func mark() {
              done = true
            }
            on applicationDidEnterBackground {
              mark()
              DispatchQueue.global().async {
                mark()
              }
            }
            expect suspended
            """, confined: ["done": false]),
        Case(name: "a BGTask's launch and expiration handlers", text: """
            var finished = false
            at 1s: app enters background
            at 2h: system launches "com.example.refresh"
            on didFinishLaunching {
              BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.refresh", using: nil) { task in
                task.expirationHandler = {
                  finished = true
                }
                task.setTaskCompleted(success: true)
              }
            }
            expect suspended
            """, confined: ["finished": false]),
        Case(name: "a sync dispatch onto a global queue runs in place, here on a worker", text: """
            var flag = false
            on applicationDidEnterBackground {
              DispatchQueue.global().async {
                DispatchQueue.global().sync {
                  flag = true
                }
              }
            }
            expect suspended
            """, confined: ["flag": false]),
    ]

    @Test(arguments: cases)
    func globalsTouchedOffMainAreNotConfined(_ c: Case) throws {
        let s = try #require(scenario(c.text))
        let confinement = MainConfinement(s)
        for (name, expected) in c.confined {
            let index = try #require(s.globals.firstIndex { $0.name == name }, "no global \(name)")
            #expect(confinement.isConfined(Int32(index)) == expected, "\(name)")
        }
    }
}
