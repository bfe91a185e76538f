import UIKit

/// Writes the in-memory response cache to disk when the app leaves the foreground.
final class CacheFlushManager {
    private let cache: ResponseCache
    private let flushQueue = DispatchQueue(label: "com.example.cache.flush", qos: .utility)

    init(cache: ResponseCache) {
        self.cache = cache
        NotificationCenter.default.addObserver(self, selector: #selector(appDidEnterBackground),
                                               name: UIApplication.didEnterBackgroundNotification, object: nil)
    }

    @objc private func appDidEnterBackground() {
        var flushTaskID = UIBackgroundTaskIdentifier.invalid
        flushTaskID = UIApplication.shared.beginBackgroundTask(withName: "FlushCache") { [cache] in
            cache.stopWriting()
            UIApplication.shared.endBackgroundTask(flushTaskID)
        }

        flushQueue.async { [cache] in
            cache.writeToDisk()
            UIApplication.shared.endBackgroundTask(flushTaskID) // expect-finding: ended-twice
        }
    }
}

final class ResponseCache {
    private let lock = NSLock()
    private var entries: [URL: Data] = [:]
    private var stopped = false

    func writeToDisk() {
        let directory = FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask)[0]
            .appendingPathComponent("responses", isDirectory: true)
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        lock.lock()
        let snapshot = entries
        stopped = false
        lock.unlock()
        for (url, data) in snapshot {
            lock.lock()
            let shouldStop = stopped
            lock.unlock()
            if shouldStop { break }
            let name = url.absoluteString.data(using: .utf8)!.base64EncodedString()
                .replacingOccurrences(of: "/", with: "_")
            try? data.write(to: directory.appendingPathComponent(name))
        }
    }

    func stopWriting() {
        lock.lock()
        stopped = true
        lock.unlock()
    }
}
