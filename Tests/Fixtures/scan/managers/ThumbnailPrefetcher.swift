import UIKit

/// Downloads thumbnails for the next page of the feed, and keeps the app awake until the whole
/// batch has landed (or the system calls the task in).
final class ThumbnailPrefetcher {
    private let session: URLSession
    private let cacheDirectory: URL
    private var taskID: UIBackgroundTaskIdentifier = .invalid
    private var running: [URLSessionDownloadTask] = []

    init(session: URLSession = .shared) {
        self.session = session
        cacheDirectory = FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask)[0]
            .appendingPathComponent("thumbnails", isDirectory: true)
    }

    /// Main thread only.
    func prefetch(_ urls: [URL]) {
        guard taskID == .invalid, !urls.isEmpty else { return }
        taskID = UIApplication.shared.beginBackgroundTask(withName: "ThumbnailPrefetch") { [weak self] in
            self?.running.forEach { $0.cancel() }
            self?.endTask()
        }

        let group = DispatchGroup()
        for url in urls {
            group.enter()
            let download = session.downloadTask(with: url) { [cacheDirectory] location, _, _ in
                defer { group.leave() }
                guard let location else { return }
                let target = cacheDirectory.appendingPathComponent(url.lastPathComponent)
                try? FileManager.default.removeItem(at: target)
                try? FileManager.default.moveItem(at: location, to: target)
            }
            running.append(download)
            download.resume()
        }

        group.notify(queue: .main) { [weak self] in
            self?.running.removeAll()
            self?.endTask()
        }
    }

    /// Main thread only: the notify block and the expiration handler both run there.
    private func endTask() {
        guard taskID != .invalid else { return }
        UIApplication.shared.endBackgroundTask(taskID)
        taskID = .invalid
    }
}
