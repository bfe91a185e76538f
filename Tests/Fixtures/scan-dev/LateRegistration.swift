import BackgroundTasks
import UIKit

final class SceneDelegate: UIResponder, UIWindowSceneDelegate {
    func sceneDidBecomeActive(_ scene: UIScene) {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.cleanup", using: nil) { task in // expect-finding: late-registration
            task.expirationHandler = { task.setTaskCompleted(success: false) }
            Cleaner.run()
            task.setTaskCompleted(success: true)
        }
    }
}
