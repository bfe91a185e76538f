// Mirrors Content rule `end-each-identifier-exactly-once`, example "one idempotent end, on main"
// (scenario follows, Content/documents/extending-background-execution-time.md).
import UIKit

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    var window: UIWindow?
    private var taskID: UIBackgroundTaskIdentifier = .invalid

    func applicationDidEnterBackground(_ application: UIApplication) {
        guard taskID == .invalid else { return }
        taskID = application.beginBackgroundTask(withName: "Upload") {
            self.endTaskIfNeeded()
        }
        DispatchQueue.global().async {
            Self.uploadSynchronously()
            DispatchQueue.main.async {
                self.endTaskIfNeeded()
            }
        }
    }

    /// Only ever called on the main thread: whichever path comes second finds `.invalid`.
    private func endTaskIfNeeded() {
        if taskID != .invalid {
            UIApplication.shared.endBackgroundTask(taskID)
            taskID = .invalid
        }
    }

    private static func uploadSynchronously() {
        var request = URLRequest(url: URL(string: "https://upload.example.com/files")!)
        request.httpMethod = "POST"
        let done = DispatchSemaphore(value: 0)
        URLSession.shared.uploadTask(with: request, from: Data(count: 1024)) { _, _, _ in done.signal() }.resume()
        done.wait()
    }
}
