import UIKit

/// Holds one UIKit background task for as long as a piece of work runs. The task is begun in
/// `init` (on main, so the expiration handler, also on main, cannot run before the identifier is
/// stored) and ended exactly once, by `release()` from any thread or by the system's expiration
/// handler; the lock makes the check-and-clear of the identifier a single step.
final class BackgroundTaskLease {
    private let lock = NSLock()
    private var identifier: UIBackgroundTaskIdentifier = .invalid
    private var expirationHandler: (() -> Void)?

    init(name: String, onExpiration: (() -> Void)? = nil) {
        dispatchPrecondition(condition: .onQueue(.main))
        expirationHandler = onExpiration
        let id = UIApplication.shared.beginBackgroundTask(withName: name) { [weak self] in
            self?.expire()
        }
        lock.lock()
        identifier = id
        lock.unlock()
    }

    deinit {
        release()
    }

    /// Ends the task; calling it again, or after expiry, does nothing.
    func release() {
        lock.lock()
        let toEnd = identifier
        identifier = .invalid
        expirationHandler = nil
        lock.unlock()
        if toEnd != .invalid {
            UIApplication.shared.endBackgroundTask(toEnd)
        }
    }

    private func expire() {
        lock.lock()
        let handler = expirationHandler
        expirationHandler = nil
        lock.unlock()
        handler?()
        release()
    }
}

/// Sends the crash reports the reporter collected, each under its own lease.
final class CrashReportSender {
    private let queue = DispatchQueue(label: "com.example.crashreports", qos: .utility)
    private let directory = FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask)[0]
        .appendingPathComponent("CrashReports", isDirectory: true)

    /// Main thread, from `sceneDidEnterBackground(_:)`.
    func sendPendingReports() {
        let reports = (try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)) ?? []
        for report in reports {
            send(report)
        }
    }

    private func send(_ report: URL) {
        var task: URLSessionUploadTask?
        let lease = BackgroundTaskLease(name: "CrashReport") {
            task?.cancel()
        }
        var request = URLRequest(url: URL(string: "https://crash.example.com/reports")!)
        request.httpMethod = "POST"
        task = URLSession.shared.uploadTask(with: request, fromFile: report) { [queue] _, response, _ in
            queue.async {
                if (response as? HTTPURLResponse)?.statusCode == 202 {
                    try? FileManager.default.removeItem(at: report)
                }
                lease.release()
            }
        }
        task?.resume()
    }
}
