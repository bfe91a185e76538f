import UIKit

/// Holds background time for as long as it lives: `let assertion = ScopedBackgroundAssertion("Save")`
/// at the top of a save, released when the save's scope ends. If time runs out first, the
/// expiration handler ends the task and the release finds nothing left to end.
final class ScopedBackgroundAssertion {
    private let lock = NSLock()
    private var identifier: UIBackgroundTaskIdentifier = .invalid

    init(_ name: String) {
        begin(name)
    }

    deinit {
        end()
    }

    private func begin(_ name: String) {
        lock.lock()
        identifier = UIApplication.shared.beginBackgroundTask(withName: name) { [weak self] in
            self?.end()
        }
        lock.unlock()
    }

    private func end() {
        lock.lock()
        defer { lock.unlock() }
        guard identifier != .invalid else { return }
        UIApplication.shared.endBackgroundTask(identifier)
        identifier = .invalid
    }
}
