import BackgroundTasks
import UIKit

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    static let refreshID = "com.example.refresh"

    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: Self.refreshID, using: nil) { task in // expect-finding: bgtask-not-completed
            self.handleRefresh(task: task as! BGAppRefreshTask)
        }
        return true
    }

    private func handleRefresh(task: BGAppRefreshTask) {
        task.expirationHandler = {
            task.setTaskCompleted(success: false)
        }
        Feed.shared.reload { result in
            guard case .success = result else { return }
            task.setTaskCompleted(success: true)
        }
    }
}
