import Foundation
import BackgroundTasks

/// The product catalog, refreshed by a BGAppRefreshTask. `CatalogRefreshActor.register()` is
/// called from `application(_:didFinishLaunchingWithOptions:)`.
actor CatalogRefreshActor {
    static let shared = CatalogRefreshActor()
    static let taskIdentifier = "com.example.shop.catalog-refresh"

    private var products: [Product] = []

    nonisolated static func register() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: taskIdentifier, using: nil) { task in
            let completion = TaskCompletion(task)
            let work = Task {
                do {
                    try await CatalogRefreshActor.shared.refresh()
                    completion.complete(success: true)
                } catch {
                    completion.complete(success: false)
                }
            }
            task.expirationHandler = {
                work.cancel()
                completion.complete(success: false)
            }
            schedule()
        }
    }

    nonisolated static func schedule() {
        let request = BGAppRefreshTaskRequest(identifier: taskIdentifier)
        request.earliestBeginDate = Date(timeIntervalSinceNow: 4 * 3600)
        try? BGTaskScheduler.shared.submit(request)
    }

    func refresh() async throws {
        let (data, _) = try await URLSession.shared.data(from: URL(string: "https://shop.example.com/catalog")!)
        try Task.checkCancellation()
        products = try JSONDecoder().decode([Product].self, from: data)
    }
}

/// Calls `setTaskCompleted(success:)` once, whichever of the work and the expiration handler
/// reaches it first; the lock makes the check and the set one step.
final class TaskCompletion: @unchecked Sendable {
    private let task: BGTask
    private let lock = NSLock()
    private var done = false

    init(_ task: BGTask) {
        self.task = task
    }

    func complete(success: Bool) {
        lock.lock()
        let first = !done
        done = true
        lock.unlock()
        if first {
            task.setTaskCompleted(success: success)
        }
    }
}

struct Product: Codable, Sendable {
    let sku: String
    let name: String
    let price: Decimal
}
