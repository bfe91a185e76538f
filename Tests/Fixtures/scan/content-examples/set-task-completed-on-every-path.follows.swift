// Mirrors Content rule `set-task-completed-on-every-path`, example "one completion, from whichever path
// comes first" (scenario follows, Content/documents/bgtaskscheduler.md).
import UIKit
import BackgroundTasks

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    var window: UIWindow?
    private let queue = DispatchQueue(label: "refresh")
    /// Only touched on `queue`.
    private var completed = false

    func application(_ application: UIApplication,
                     didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.refresh", using: queue) { task in
            self.completed = false
            task.expirationHandler = {
                if !self.completed {
                    self.completed = true
                    task.setTaskCompleted(success: false)
                }
            }
            DispatchQueue.global().async {
                Self.refreshSynchronously()
                self.queue.async {
                    if !self.completed {
                        self.completed = true
                        task.setTaskCompleted(success: true)
                    }
                }
            }
        }
        return true
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        let request = BGAppRefreshTaskRequest(identifier: "com.example.refresh")
        try? BGTaskScheduler.shared.submit(request)
    }

    private static func refreshSynchronously() {
        let done = DispatchSemaphore(value: 0)
        URLSession.shared.dataTask(with: URL(string: "https://api.example.com/changes")!) { _, _, _ in done.signal() }.resume()
        done.wait()
    }
}
