import UIKit
import WidgetKit

/// Pulls the data the home-screen widgets show into the shared App Group container.
final class WidgetSyncClient {
    static let appGroup = "group.com.example.habits"

    private let session: URLSession = {
        let configuration = URLSessionConfiguration.default
        configuration.timeoutIntervalForRequest = 15
        return URLSession(configuration: configuration)
    }()

    /// Called from `sceneDidEnterBackground(_:)`.
    func refreshWidgets(completion: (() -> Void)? = nil) {
        let application = UIApplication.shared
        let backgroundTaskID = application.beginBackgroundTask(withName: "WidgetSync", expirationHandler: nil) // expect-finding: no-expiration-handler

        let url = URL(string: "https://habits.example.com/api/widget-summary")!
        session.dataTask(with: url) { data, response, error in
            defer {
                DispatchQueue.main.async {
                    application.endBackgroundTask(backgroundTaskID)
                    completion?()
                }
            }
            guard error == nil,
                  let data,
                  (response as? HTTPURLResponse)?.statusCode == 200,
                  let container = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: Self.appGroup) else {
                return
            }
            try? data.write(to: container.appendingPathComponent("widget-summary.json"), options: .atomic)
            Self.recordRefresh(in: container)
            WidgetCenter.shared.reloadTimelines(ofKind: "HabitStreak")
        }.resume()
    }

    /// The widgets show "updated N minutes ago" from this timestamp.
    private static func recordRefresh(in container: URL) {
        let stamp = ISO8601DateFormatter().string(from: Date())
        try? Data(stamp.utf8).write(to: container.appendingPathComponent("widget-refreshed-at"), options: .atomic)
    }
}
