import UIKit

/// Pushes edited documents to the server. The work runs on a background queue; the expiration
/// handler runs on main. Both paths go through `finish()`, whose flag lives on `stateQueue`, so
/// exactly one of them ends the task.
final class DocumentSyncManager {
    private let stateQueue = DispatchQueue(label: "com.example.docs.sync-state")
    private let workQueue = DispatchQueue(label: "com.example.docs.sync-work", qos: .utility)
    private var taskID: UIBackgroundTaskIdentifier = .invalid
    private var finished = true
    private var cancelled = false

    /// Main thread.
    func syncEditedDocuments(_ documents: [URL]) {
        guard stateQueue.sync(execute: { finished }) else { return }
        let id = UIApplication.shared.beginBackgroundTask(withName: "DocumentSync") { [weak self] in
            self?.stateQueue.sync { self?.cancelled = true }
            self?.finish()
        }
        guard id != .invalid else { return }
        stateQueue.sync {
            taskID = id
            finished = false
            cancelled = false
        }

        workQueue.async { [weak self] in
            guard let self else { return }
            for document in documents {
                if self.stateQueue.sync(execute: { self.cancelled }) { break }
                self.upload(document)
            }
            self.finish()
        }
    }

    private func finish() {
        let toEnd: UIBackgroundTaskIdentifier? = stateQueue.sync {
            guard !finished else { return nil }
            finished = true
            defer { taskID = .invalid }
            return taskID
        }
        if let toEnd {
            UIApplication.shared.endBackgroundTask(toEnd)
        }
    }

    private func upload(_ document: URL) {
        guard let data = try? Data(contentsOf: document) else { return }
        var request = URLRequest(url: URL(string: "https://docs.example.com/files/\(document.lastPathComponent)")!)
        request.httpMethod = "PUT"
        request.timeoutInterval = 20
        let semaphore = DispatchSemaphore(value: 0)
        URLSession.shared.uploadTask(with: request, from: data) { _, _, _ in semaphore.signal() }.resume()
        semaphore.wait()
    }
}
