import UIKit

/// Replays requests recorded while offline. Several replays may run at once; each keeps its own
/// background task under its own key, all on the main thread.
final class OfflineRequestQueue {
    private var backgroundTasks: [UUID: UIBackgroundTaskIdentifier] = [:]
    private var running: [UUID: URLSessionDataTask] = [:]
    private var stored: [URLRequest] = []

    func record(_ request: URLRequest) {
        stored.append(request)
    }

    /// Main thread, when the network path becomes satisfied.
    func replayAll() {
        let requests = stored
        stored.removeAll()
        for request in requests {
            replay(request)
        }
    }

    private func replay(_ request: URLRequest) {
        let key = UUID()
        backgroundTasks[key] = UIApplication.shared.beginBackgroundTask(withName: "OfflineReplay") { [weak self] in
            self?.running[key]?.cancel()
            self?.finish(key)
        }

        let task = URLSession.shared.dataTask(with: request) { [weak self] _, response, error in
            DispatchQueue.main.async {
                guard let self else { return }
                if error != nil || ((response as? HTTPURLResponse)?.statusCode ?? 500) >= 500 {
                    self.stored.append(request)
                }
                self.finish(key)
            }
        }
        running[key] = task
        task.resume()
    }

    /// Main thread only; removing the key makes a second call for it do nothing.
    private func finish(_ key: UUID) {
        running[key] = nil
        guard let id = backgroundTasks.removeValue(forKey: key) else { return }
        UIApplication.shared.endBackgroundTask(id)
    }
}
