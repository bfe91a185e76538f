import UIKit

/// Keeps the app running while one export finishes: made when the export starts, released when
/// it ends. The task is begun when the guard is made and ended exactly once, by `finish()` or by
/// the expiration handler, whichever comes first.
final class ExportSessionGuard {
    private let lock = NSLock()
    private var taskID: UIBackgroundTaskIdentifier = .invalid

    init(name: String) {
        taskID = UIApplication.shared.beginBackgroundTask(withName: name) { [weak self] in
            self?.finish()
        }
    }

    func finish() {
        lock.lock()
        defer { lock.unlock() }
        guard taskID != .invalid else { return }
        UIApplication.shared.endBackgroundTask(taskID)
        taskID = .invalid
    }
}
