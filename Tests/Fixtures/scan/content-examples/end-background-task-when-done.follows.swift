// Mirrors Content rule `end-background-task-when-done`, example "ended on success, failure and expiry"
// (scenario follows, Content/documents/extending-background-execution-time.md).
import UIKit

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    var window: UIWindow?
    private var taskID: UIBackgroundTaskIdentifier = .invalid
    private let uploader = Uploader()

    func applicationDidEnterBackground(_ application: UIApplication) {
        guard taskID == .invalid else { return }
        taskID = application.beginBackgroundTask(withName: "Upload") {
            self.endTaskIfNeeded()
        }
        DispatchQueue.global().async {
            guard self.uploader.connect() else {
                DispatchQueue.main.async {
                    self.endTaskIfNeeded()
                }
                return
            }
            self.uploader.upload()
            DispatchQueue.main.async {
                self.endTaskIfNeeded()
            }
        }
    }

    /// Only ever called on the main thread.
    private func endTaskIfNeeded() {
        if taskID != .invalid {
            UIApplication.shared.endBackgroundTask(taskID)
            taskID = .invalid
        }
    }
}

final class Uploader {
    /// Synchronous; false when the server is unreachable.
    func connect() -> Bool {
        var request = URLRequest(url: URL(string: "https://upload.example.com/ping")!)
        request.timeoutInterval = 5
        let done = DispatchSemaphore(value: 0)
        var reachable = false
        URLSession.shared.dataTask(with: request) { _, response, _ in
            reachable = (response as? HTTPURLResponse)?.statusCode == 200
            done.signal()
        }.resume()
        done.wait()
        return reachable
    }

    /// Synchronous upload of the pending file.
    func upload() {
        var request = URLRequest(url: URL(string: "https://upload.example.com/files")!)
        request.httpMethod = "POST"
        let done = DispatchSemaphore(value: 0)
        URLSession.shared.uploadTask(with: request, from: Data(count: 1024)) { _, _, _ in done.signal() }.resume()
        done.wait()
    }
}
