import UIKit

final class SyncCoordinator {
    private var taskID: UIBackgroundTaskIdentifier = .invalid

    func syncContacts() {
        taskID = UIApplication.shared.beginBackgroundTask(withName: "contacts") {
            self.stop()
        }
        ContactSync.run { self.stop() }
    }

    func syncPhotos() {
        taskID = UIApplication.shared.beginBackgroundTask(withName: "photos") { // expect-finding: overwritten-identifier
            self.stop()
        }
        PhotoSync.run { self.stop() }
    }

    private func stop() {
        guard taskID != .invalid else { return }
        UIApplication.shared.endBackgroundTask(taskID)
        taskID = .invalid
    }
}
