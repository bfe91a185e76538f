import UIKit
import BackgroundTasks

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    var window: UIWindow?

    func application(_ application: UIApplication,
                     didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        BackgroundTaskRegistry.shared.registerAll()
        return true
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        BackgroundTaskRegistry.shared.scheduleFeedRefresh()
    }
}

/// Registers the app's launch handlers during launch. The refresh follows Apple's sample: an
/// operation queue whose last operation completes the task, cancelled by the expiration handler.
final class BackgroundTaskRegistry {
    static let shared = BackgroundTaskRegistry()
    static let feedRefresh = "com.example.news.feed-refresh"

    private let queue: OperationQueue = {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        return queue
    }()

    func registerAll() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: Self.feedRefresh, using: nil) { task in
            self.handleFeedRefresh(task as! BGAppRefreshTask)
        }
    }

    func scheduleFeedRefresh() {
        let request = BGAppRefreshTaskRequest(identifier: Self.feedRefresh)
        request.earliestBeginDate = Date(timeIntervalSinceNow: 15 * 60)
        do {
            try BGTaskScheduler.shared.submit(request)
        } catch {
            print("Could not schedule feed refresh: \(error)")
        }
    }

    private func handleFeedRefresh(_ task: BGAppRefreshTask) {
        scheduleFeedRefresh()

        let download = DownloadHeadlinesOperation()
        let save = BlockOperation {
            if let headlines = download.headlines {
                HeadlineCache.shared.replace(with: headlines)
            }
        }
        save.addDependency(download)

        task.expirationHandler = { [queue] in
            queue.cancelAllOperations()
        }
        save.completionBlock = {
            task.setTaskCompleted(success: !save.isCancelled && download.headlines != nil)
        }
        queue.addOperations([download, save], waitUntilFinished: false)
    }
}

final class DownloadHeadlinesOperation: Operation {
    private(set) var headlines: [String]?

    override func main() {
        guard !isCancelled else { return }
        let semaphore = DispatchSemaphore(value: 0)
        let task = URLSession.shared.dataTask(with: URL(string: "https://news.example.com/headlines.json")!) { data, _, _ in
            if let data { self.headlines = try? JSONDecoder().decode([String].self, from: data) }
            semaphore.signal()
        }
        task.resume()
        semaphore.wait()
    }
}

final class HeadlineCache {
    static let shared = HeadlineCache()
    private(set) var headlines: [String] = []
    func replace(with headlines: [String]) { self.headlines = headlines }
}
