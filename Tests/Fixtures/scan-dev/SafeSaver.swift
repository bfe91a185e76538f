import UIKit

final class SafeSaver {
    private let lock = NSLock()
    private var taskID: UIBackgroundTaskIdentifier = .invalid

    func applicationDidEnterBackground(_ application: UIApplication) {
        let id = application.beginBackgroundTask(withName: "Save") {
            self.finish()
        }
        lock.lock()
        taskID = id
        lock.unlock()
        DispatchQueue.global(qos: .utility).async {
            defer { self.finish() }
            self.write()
        }
    }

    private func finish() {
        lock.lock()
        defer { lock.unlock() }
        guard taskID != .invalid else { return }
        UIApplication.shared.endBackgroundTask(taskID)
        taskID = .invalid
    }

    private func write() {
        try? Data().write(to: URL(fileURLWithPath: "/tmp/x"))
    }
}
