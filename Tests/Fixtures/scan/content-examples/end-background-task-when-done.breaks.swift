// Mirrors Content rule `end-background-task-when-done`, example "the failure path returns without ending"
// (scenario breaks, Content/documents/extending-background-execution-time.md).
import UIKit

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    var window: UIWindow?
    private var taskID: UIBackgroundTaskIdentifier = .invalid
    private let uploader = Uploader()

    func applicationDidEnterBackground(_ application: UIApplication) {
        guard taskID == .invalid else { return }
        taskID = application.beginBackgroundTask(withName: "Upload") { // expect-finding: never-ended
            print("upload cancelled")
        }
        DispatchQueue.global().async {
            guard self.uploader.connect() else {
                return
            }
            self.uploader.upload()
            DispatchQueue.main.async {
                application.endBackgroundTask(self.taskID)
                self.taskID = .invalid
            }
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
