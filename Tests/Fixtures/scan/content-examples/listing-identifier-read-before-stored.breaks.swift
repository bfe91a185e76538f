// Mirrors Content rule `listing-identifier-read-before-stored`, example "begun on a global queue,
// force-unwrapped by the handler" (scenario breaks, Content/documents/extending-background-execution-time.md).
import UIKit

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    var window: UIWindow?
    var backgroundTaskID: UIBackgroundTaskIdentifier?

    func applicationDidEnterBackground(_ application: UIApplication) {
        DispatchQueue.global().async {
            self.backgroundTaskID = UIApplication.shared.beginBackgroundTask(withName: "Finish Network Tasks") { // expect-finding: identifier-race, overwritten-identifier
                if self.backgroundTaskID != .invalid {
                    UIApplication.shared.endBackgroundTask(self.backgroundTaskID!)
                    self.backgroundTaskID = .invalid
                }
            }

            self.sendDataSynchronously()

            DispatchQueue.main.async {
                if self.backgroundTaskID != .invalid {
                    UIApplication.shared.endBackgroundTask(self.backgroundTaskID!)
                    self.backgroundTaskID = .invalid
                }
            }
        }
    }

    private func sendDataSynchronously() {
        var request = URLRequest(url: URL(string: "https://sync.example.com/data")!)
        request.httpMethod = "POST"
        let done = DispatchSemaphore(value: 0)
        URLSession.shared.dataTask(with: request) { _, _, _ in done.signal() }.resume()
        done.wait()
    }
}
