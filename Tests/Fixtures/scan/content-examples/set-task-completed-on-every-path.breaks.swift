// Mirrors Content rule `set-task-completed-on-every-path`, example "an early return that never
// completes" (scenario breaks, Content/documents/bgtaskscheduler.md).
import UIKit
import BackgroundTasks

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    var window: UIWindow?

    func application(_ application: UIApplication,
                     didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.refresh", using: nil) { task in // expect-finding: bgtask-not-completed
            task.expirationHandler = {
                print("cancelled")
            }
            let hasChanges = Self.askServerWhatChanged()
            if !hasChanges {
                return
            }
            task.setTaskCompleted(success: true)
        }
        return true
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        let request = BGAppRefreshTaskRequest(identifier: "com.example.refresh")
        try? BGTaskScheduler.shared.submit(request)
    }

    /// Synchronous request; true when the server reports changes.
    private static func askServerWhatChanged() -> Bool {
        let done = DispatchSemaphore(value: 0)
        var changed = false
        URLSession.shared.dataTask(with: URL(string: "https://api.example.com/changes")!) { data, _, _ in
            changed = !(data?.isEmpty ?? true)
            done.signal()
        }.resume()
        done.wait()
        return changed
    }
}
