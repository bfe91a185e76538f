import UIKit

final class DraftSaver {
    private var taskID: UIBackgroundTaskIdentifier = .invalid
    private var drafts: [String] = []

    func applicationDidEnterBackground(_ application: UIApplication) {
        taskID = application.beginBackgroundTask(withName: "SaveDrafts") { // expect-finding: never-ended
            application.endBackgroundTask(self.taskID)
            self.taskID = .invalid
        }
        guard !drafts.isEmpty else { return }
        save(drafts)
        application.endBackgroundTask(taskID)
        taskID = .invalid
    }

    private func save(_ drafts: [String]) {
        print(drafts.count)
    }
}
