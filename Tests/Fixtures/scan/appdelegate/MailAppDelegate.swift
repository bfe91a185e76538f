import UIKit

@main
class MailAppDelegate: UIResponder, UIApplicationDelegate {
    var window: UIWindow?

    private var bgTask = UIBackgroundTaskIdentifier.invalid
    private let drafts = DraftStore()
    private let outgoing = OutgoingQueue()

    func applicationWillResignActive(_ application: UIApplication) {
        guard bgTask == .invalid else { return }
        bgTask = application.beginBackgroundTask(withName: "SaveDrafts") {
            self.endBackgroundTask()
        }
        drafts.saveAll { [weak self] in
            DispatchQueue.main.async { self?.endBackgroundTask() }
        }
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        guard outgoing.hasMessages else { return }
        bgTask = application.beginBackgroundTask(withName: "SendOutgoing") { // expect-finding: overwritten-identifier
            self.outgoing.suspend()
            self.endBackgroundTask()
        }
        outgoing.sendAll { [weak self] _ in
            DispatchQueue.main.async { self?.endBackgroundTask() }
        }
    }

    func applicationWillEnterForeground(_ application: UIApplication) {
        outgoing.resume()
    }

    /// Main thread only.
    private func endBackgroundTask() {
        guard bgTask != .invalid else { return }
        UIApplication.shared.endBackgroundTask(bgTask)
        bgTask = .invalid
    }
}

final class DraftStore {
    private let queue = DispatchQueue(label: "com.example.mail.drafts")
    private var drafts: [String: String] = [:]

    func saveAll(completion: @escaping () -> Void) {
        queue.async {
            let url = FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask)[0]
                .appendingPathComponent("drafts.plist")
            let data = try? PropertyListEncoder().encode(self.drafts)
            try? data?.write(to: url, options: .atomic)
            completion()
        }
    }
}

final class OutgoingQueue {
    private let operationQueue: OperationQueue = {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        return queue
    }()
    private var messages: [Data] = []

    var hasMessages: Bool { !messages.isEmpty }

    func sendAll(completion: @escaping (Int) -> Void) {
        let batch = messages
        operationQueue.addOperation {
            var sent = 0
            for message in batch {
                var request = URLRequest(url: URL(string: "https://mail.example.com/send")!)
                request.httpMethod = "POST"
                request.httpBody = message
                let semaphore = DispatchSemaphore(value: 0)
                URLSession.shared.dataTask(with: request) { _, _, error in
                    if error == nil { sent += 1 }
                    semaphore.signal()
                }.resume()
                semaphore.wait()
            }
            completion(sent)
        }
    }

    func suspend() { operationQueue.isSuspended = true }
    func resume() { operationQueue.isSuspended = false }
}
