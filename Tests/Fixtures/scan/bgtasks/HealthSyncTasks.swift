import UIKit
import BackgroundTasks

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    var window: UIWindow?
    private let tasks = HealthSyncTasks()

    func application(_ application: UIApplication,
                     didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        tasks.registerLaunchHandlers()
        return true
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        tasks.submitRequests()
    }
}

/// Two launch handlers, both registered during launch. Each sets its expiration handler first and
/// completes on every path, the early exits included; the lock-protected `Once` keeps the work and
/// the expiration handler from completing the same task twice.
final class HealthSyncTasks {
    static let refreshID = "com.example.health.refresh"
    static let archiveID = "com.example.health.archive"

    func registerLaunchHandlers() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: Self.refreshID, using: nil) { task in
            let once = Once()
            let work = Task {
                let ok = await HealthServer.uploadTodaySamples()
                once.run { task.setTaskCompleted(success: ok) }
            }
            task.expirationHandler = {
                work.cancel()
                once.run { task.setTaskCompleted(success: false) }
            }
        }

        BGTaskScheduler.shared.register(forTaskWithIdentifier: Self.archiveID, using: nil) { task in
            let once = Once()
            task.expirationHandler = {
                once.run { task.setTaskCompleted(success: false) }
            }
            guard let folder = FileManager.default.urls(for: .documentDirectory, in: .userDomainMask).first else {
                once.run { task.setTaskCompleted(success: false) }
                return
            }
            DispatchQueue.global(qos: .background).async {
                let archived = HealthArchive.compress(folder: folder, shouldStop: { once.hasRun })
                once.run { task.setTaskCompleted(success: archived) }
            }
        }
    }

    func submitRequests() {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: Self.refreshID))
        let archive = BGProcessingTaskRequest(identifier: Self.archiveID)
        archive.requiresExternalPower = true
        try? BGTaskScheduler.shared.submit(archive)
    }
}

final class Once: @unchecked Sendable {
    private let lock = NSLock()
    private var done = false

    var hasRun: Bool {
        lock.lock(); defer { lock.unlock() }
        return done
    }

    func run(_ body: () -> Void) {
        lock.lock()
        let first = !done
        done = true
        lock.unlock()
        if first { body() }
    }
}

enum HealthServer {
    static func uploadTodaySamples() async -> Bool {
        var request = URLRequest(url: URL(string: "https://health.example.com/api/samples/today")!)
        request.httpMethod = "POST"
        return (try? await URLSession.shared.data(for: request)) != nil
    }
}

enum HealthArchive {
    static func compress(folder: URL, shouldStop: () -> Bool) -> Bool {
        let files = (try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? []
        for file in files where file.pathExtension == "samples" {
            if shouldStop() { return false }
            let target = file.appendingPathExtension("lzfse")
            guard let data = try? Data(contentsOf: file),
                  let compressed = try? (data as NSData).compressed(using: .lzfse) else { continue }
            try? compressed.write(to: target)
            try? FileManager.default.removeItem(at: file)
        }
        return true
    }
}
