import UIKit

/// Apple's listing, as an app would write it.
final class ListingUploader {
    var backgroundTaskID: UIBackgroundTaskIdentifier?

    func sendDataToServer(_ data: Data) {
        DispatchQueue.global().async {
            self.backgroundTaskID = UIApplication.shared.beginBackgroundTask(withName: "Finish Network Tasks") { // expect-finding: identifier-race
                UIApplication.shared.endBackgroundTask(self.backgroundTaskID!)
                self.backgroundTaskID = .invalid
            }
            self.upload(data)
            UIApplication.shared.endBackgroundTask(self.backgroundTaskID!)
            self.backgroundTaskID = .invalid
        }
    }

    private func upload(_ data: Data) {
        Thread.sleep(forTimeInterval: 2)
    }
}
