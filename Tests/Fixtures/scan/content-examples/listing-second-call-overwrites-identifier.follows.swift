// Mirrors Content rule `listing-second-call-overwrites-identifier`, example "each call keeps its own
// identifier" (scenario follows, Content/documents/extending-background-execution-time.md).
import UIKit

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    var window: UIWindow?

    func applicationDidEnterBackground(_ application: UIApplication) {
        sendDataToServer()
        sendDataToServer()
    }

    /// Main thread. Each call keeps its identifier in a local that only its own closures capture.
    func sendDataToServer() {
        var taskID: UIBackgroundTaskIdentifier = .invalid
        taskID = UIApplication.shared.beginBackgroundTask(withName: "Finish Network Tasks") {
            if taskID != .invalid {
                UIApplication.shared.endBackgroundTask(taskID)
                taskID = .invalid
            }
        }
        DispatchQueue.global().async {
            Self.sendSynchronously()
            DispatchQueue.main.async {
                if taskID != .invalid {
                    UIApplication.shared.endBackgroundTask(taskID)
                    taskID = .invalid
                }
            }
        }
    }

    private static func sendSynchronously() {
        let done = DispatchSemaphore(value: 0)
        URLSession.shared.dataTask(with: URL(string: "https://sync.example.com/data")!) { _, _, _ in done.signal() }.resume()
        done.wait()
    }
}
