import UIKit

@UIApplicationMain
class SyncAppDelegate: UIResponder, UIApplicationDelegate {
    var window: UIWindow?
    var backgroundTask: UIBackgroundTaskIdentifier?
    var isSending = false
    let outbox = Outbox()

    func application(_ application: UIApplication,
                     didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        return true
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        sendPendingChanges()
    }

    /// Main thread.
    func sendPendingChanges() {
        guard !isSending else { return }
        isSending = true
        DispatchQueue.global(qos: .utility).async {
            self.backgroundTask = UIApplication.shared.beginBackgroundTask(withName: "SendPendingChanges") { // expect-finding: identifier-race
                UIApplication.shared.endBackgroundTask(self.backgroundTask!)
                self.backgroundTask = .invalid
            }

            self.outbox.flushSynchronously()

            DispatchQueue.main.async {
                self.isSending = false
                if let task = self.backgroundTask, task != .invalid {
                    UIApplication.shared.endBackgroundTask(task)
                    self.backgroundTask = .invalid
                }
            }
        }
    }
}

final class Outbox {
    private let fileURL = FileManager.default.urls(for: .documentDirectory, in: .userDomainMask)[0]
        .appendingPathComponent("outbox.json")

    func flushSynchronously() {
        guard let data = try? Data(contentsOf: fileURL), !data.isEmpty else { return }
        var request = URLRequest(url: URL(string: "https://sync.example.com/changes")!)
        request.httpMethod = "POST"
        request.httpBody = data
        let semaphore = DispatchSemaphore(value: 0)
        URLSession.shared.dataTask(with: request) { [fileURL] _, response, _ in
            if (response as? HTTPURLResponse)?.statusCode == 200 {
                try? FileManager.default.removeItem(at: fileURL)
            }
            semaphore.signal()
        }.resume()
        semaphore.wait()
    }
}
