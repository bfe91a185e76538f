import UIKit
import BackgroundTasks

/// Re-indexes the search database while the phone charges overnight.
/// `ProcessingScheduler.shared.register()` runs in `application(_:didFinishLaunchingWithOptions:)`.
final class ProcessingScheduler {
    static let shared = ProcessingScheduler()
    static let reindexIdentifier = "com.example.mailbox.reindex"

    private let operationQueue: OperationQueue = {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        queue.qualityOfService = .background
        return queue
    }()

    func register() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: Self.reindexIdentifier, using: nil) { [unowned self] task in // expect-finding: bgtask-not-completed
            self.handleReindex(task as! BGProcessingTask)
        }
    }

    func schedule() {
        let request = BGProcessingTaskRequest(identifier: Self.reindexIdentifier)
        request.requiresExternalPower = true
        request.requiresNetworkConnectivity = false
        do {
            try BGTaskScheduler.shared.submit(request)
        } catch BGTaskScheduler.Error.unavailable {
            print("Background processing unavailable")
        } catch {
            print("Could not schedule reindex: \(error)")
        }
    }

    private func handleReindex(_ task: BGProcessingTask) {
        schedule()

        let reindex = ReindexOperation(mailboxes: MailboxStore.shared.allMailboxIDs())
        task.expirationHandler = { [operationQueue] in
            operationQueue.cancelAllOperations()
        }
        reindex.completionBlock = {
            guard !reindex.isCancelled else { return }
            task.setTaskCompleted(success: reindex.failedCount == 0)
        }
        operationQueue.addOperation(reindex)
    }
}

final class ReindexOperation: Operation {
    private let mailboxes: [String]
    private(set) var failedCount = 0

    init(mailboxes: [String]) {
        self.mailboxes = mailboxes
    }

    override func main() {
        for mailbox in mailboxes {
            if isCancelled { return }
            if !MailboxStore.shared.rebuildIndex(for: mailbox) {
                failedCount += 1
            }
        }
    }
}

final class MailboxStore {
    static let shared = MailboxStore()

    func allMailboxIDs() -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory())) ?? []
    }

    func rebuildIndex(for mailbox: String) -> Bool {
        Thread.sleep(forTimeInterval: 0.5)
        return true
    }
}
