import UIKit
import BackgroundTasks
import UserNotifications

@main
class JournalAppDelegate: UIResponder, UIApplicationDelegate {
    var window: UIWindow?
    let store = JournalStore()
    let config = RemoteConfig()

    func application(_ application: UIApplication,
                     didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        UNUserNotificationCenter.current().delegate = self
        application.registerForRemoteNotifications()

        Task {
            await config.load()
            if config.isBackgroundSyncEnabled {
                BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.journal.sync", using: nil) { task in // expect-finding: late-registration
                    self.handleSync(task as! BGAppRefreshTask)
                }
            }
        }
        return true
    }

    func handleSync(_ task: BGAppRefreshTask) {
        let operation = Task {
            do {
                try await store.syncEntries()
                task.setTaskCompleted(success: true)
            } catch {
                task.setTaskCompleted(success: false)
            }
        }
        task.expirationHandler = {
            operation.cancel()
        }
    }

    func application(_ application: UIApplication, didReceiveRemoteNotification userInfo: [AnyHashable: Any], // expect-finding: push-completion-skipped
                     fetchCompletionHandler completionHandler: @escaping (UIBackgroundFetchResult) -> Void) {
        guard let entryID = userInfo["entry_id"] as? String else {
            completionHandler(.noData)
            return
        }
        store.fetchEntry(id: entryID) { result in
            switch result {
            case .success(true):
                completionHandler(.newData)
            case .success(false):
                break
            case .failure:
                completionHandler(.failed)
            }
        }
    }
}

extension JournalAppDelegate: UNUserNotificationCenterDelegate {}

final class RemoteConfig {
    private(set) var isBackgroundSyncEnabled = true
    func load() async {
        guard let url = URL(string: "https://config.example.com/journal.json"),
              let (data, _) = try? await URLSession.shared.data(from: url),
              let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return }
        isBackgroundSyncEnabled = json["background_sync"] as? Bool ?? true
    }
}

final class JournalStore {
    func syncEntries() async throws {
        let (_, response) = try await URLSession.shared.data(from: URL(string: "https://api.example.com/entries")!)
        guard (response as? HTTPURLResponse)?.statusCode == 200 else { throw URLError(.badServerResponse) }
    }

    /// Calls back with whether the entry changed.
    func fetchEntry(id: String, completion: @escaping (Result<Bool, Error>) -> Void) {
        let url = URL(string: "https://api.example.com/entries/\(id)")!
        URLSession.shared.dataTask(with: url) { data, _, error in
            if let error { completion(.failure(error)); return }
            completion(.success((data?.count ?? 0) > 0))
        }.resume()
    }
}
