// Mirrors Content rule `end-each-identifier-exactly-once`, example "both paths end the shared
// identifier" (scenario breaks, Content/documents/extending-background-execution-time.md).
import UIKit

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    var window: UIWindow?
    private var taskID: UIBackgroundTaskIdentifier = .invalid

    func applicationDidEnterBackground(_ application: UIApplication) {
        guard taskID == .invalid else { return }
        taskID = application.beginBackgroundTask(withName: "Upload") {
            application.endBackgroundTask(self.taskID)
            self.taskID = .invalid
        }
        DispatchQueue.global().async {
            Self.uploadSynchronously()
            application.endBackgroundTask(self.taskID) // expect-finding: ended-twice
            self.taskID = .invalid
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
