import Intents
import Foundation

/// Siri / Shortcuts extension: "Log a glass of water".
final class IntentHandler: INExtension {
    override func handler(for intent: INIntent) -> Any {
        LogWaterIntentHandler()
    }
}

final class LogWaterIntentHandler: NSObject, LogWaterIntentHandling {
    private let store = HydrationStore(appGroup: "group.com.example.hydrate")

    func handle(intent: LogWaterIntent, completion: @escaping (LogWaterIntentResponse) -> Void) {
        let millilitres = intent.amount?.intValue ?? 250
        store.add(millilitres)
        completion(LogWaterIntentResponse(code: .success, userActivity: nil))
        syncToServer()
    }

    private func syncToServer() {
        ProcessInfo.processInfo.performExpiringActivity(withReason: "Sync hydration log") { [store] expired in // expect-finding: expiring-activity-returns-early
            guard !expired else { return }
            var request = URLRequest(url: URL(string: "https://hydrate.example.com/api/log")!)
            request.httpMethod = "PUT"
            request.httpBody = store.exportToday()
            URLSession.shared.dataTask(with: request) { _, response, _ in
                if (response as? HTTPURLResponse)?.statusCode == 200 {
                    store.markSynced()
                }
            }.resume()
        }
    }
}

final class HydrationStore {
    private let defaults: UserDefaults?

    init(appGroup: String) {
        defaults = UserDefaults(suiteName: appGroup)
    }

    func add(_ millilitres: Int) {
        let total = defaults?.integer(forKey: "today") ?? 0
        defaults?.set(total + millilitres, forKey: "today")
        defaults?.set(false, forKey: "synced")
    }

    func exportToday() -> Data {
        Data("{\"ml\": \(defaults?.integer(forKey: "today") ?? 0)}".utf8)
    }

    func markSynced() {
        defaults?.set(true, forKey: "synced")
    }
}
