import BackgroundTasks
import UIKit

final class Maintenance {
    private var uploadTask: UIBackgroundTaskIdentifier = .invalid

    func registerTasks() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.db-cleanup", using: nil) { task in // expect-finding: bgtask-no-expiration-handler
            Database.shared.vacuum()
            task.setTaskCompleted(success: true)
        }
    }

    func startUpload() {
        uploadTask = UIApplication.shared.beginBackgroundTask(expirationHandler: nil) // expect-finding: no-expiration-handler
        Uploader.shared.upload { _ in
            UIApplication.shared.endBackgroundTask(self.uploadTask)
            self.uploadTask = .invalid
        }
    }
}
