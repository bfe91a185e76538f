// Mirrors Content rule `register-launch-handlers-before-launch-ends`, example "registered in
// didFinishLaunching" (scenario follows, Content/documents/bgtaskscheduler.md). The launch handler
// completes the task before it returns, so there is no window in which an expiration handler
// could be needed.
import UIKit
import BackgroundTasks

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    var window: UIWindow?

    func application(_ application: UIApplication,
                     didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        // Before launch ends, on every launch.
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.refresh", using: nil) { task in
            task.setTaskCompleted(success: true)
        }
        return true
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        let request = BGAppRefreshTaskRequest(identifier: "com.example.refresh")
        try? BGTaskScheduler.shared.submit(request)
    }
}
