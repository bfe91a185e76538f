// Mirrors Content rule `listing-second-call-overwrites-identifier`, example "two calls, one shared
// property" (scenario breaks, Content/documents/extending-background-execution-time.md).
import UIKit

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    var window: UIWindow?
    var backgroundTaskID: UIBackgroundTaskIdentifier = .invalid

    func applicationDidEnterBackground(_ application: UIApplication) {
        sendDataToServer()
        sendDataToServer()
    }

    /// Main thread.
    func sendDataToServer() {
        backgroundTaskID = UIApplication.shared.beginBackgroundTask(withName: "Finish Network Tasks") { // expect-finding: overwritten-identifier
            self.endTaskIfNeeded()
        }
        DispatchQueue.global().async {
            Self.sendSynchronously()
            DispatchQueue.main.async {
                self.endTaskIfNeeded()
            }
        }
    }

    /// Only ever called on the main thread.
    func endTaskIfNeeded() {
        if backgroundTaskID != .invalid {
            UIApplication.shared.endBackgroundTask(backgroundTaskID)
            backgroundTaskID = .invalid
        }
    }

    private static func sendSynchronously() {
        let done = DispatchSemaphore(value: 0)
        URLSession.shared.dataTask(with: URL(string: "https://sync.example.com/data")!) { _, _, _ in done.signal() }.resume()
        done.wait()
    }
}
