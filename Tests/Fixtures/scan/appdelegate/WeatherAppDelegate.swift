import UIKit
import BackgroundTasks
import CoreLocation

@main
final class WeatherAppDelegate: UIResponder, UIApplicationDelegate {
    static let forecastRefreshID = "com.example.weather.forecast-refresh"
    static let radarCleanupID = "com.example.weather.radar-cleanup"

    var window: UIWindow?
    let forecasts = ForecastService()
    let radarCache = RadarTileCache()

    func application(_ application: UIApplication,
                     didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: Self.forecastRefreshID, using: nil) { task in // expect-finding: bgtask-not-completed
            self.refreshForecast(task as! BGAppRefreshTask)
        }
        BGTaskScheduler.shared.register(forTaskWithIdentifier: Self.radarCleanupID, using: nil) { task in // expect-finding: bgtask-no-expiration-handler
            self.radarCache.pruneTiles(olderThan: 3 * 86_400) { removed in
                task.setTaskCompleted(success: removed >= 0)
            }
        }
        return true
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        scheduleForecastRefresh()
        let cleanup = BGProcessingTaskRequest(identifier: Self.radarCleanupID)
        cleanup.requiresExternalPower = true
        try? BGTaskScheduler.shared.submit(cleanup)
    }

    func scheduleForecastRefresh() {
        let request = BGAppRefreshTaskRequest(identifier: Self.forecastRefreshID)
        request.earliestBeginDate = Date(timeIntervalSinceNow: 30 * 60)
        do {
            try BGTaskScheduler.shared.submit(request)
        } catch {
            print("Could not schedule forecast refresh: \(error)")
        }
    }

    private func refreshForecast(_ task: BGAppRefreshTask) {
        scheduleForecastRefresh()

        let fetch = forecasts.fetchLatest { success in
            task.setTaskCompleted(success: success)
        }
        task.expirationHandler = {
            fetch.cancel()
        }

        guard let location = forecasts.lastKnownLocation else {
            fetch.cancel()
            return
        }
        forecasts.prefetchAlerts(near: location)
    }
}

final class ForecastService {
    var lastKnownLocation: CLLocation? = CLLocationManager().location

    /// The completion is not called when the request is cancelled.
    func fetchLatest(completion: @escaping (Bool) -> Void) -> URLSessionDataTask {
        let task = URLSession.shared.dataTask(with: URL(string: "https://api.example.com/forecast")!) { data, _, error in
            if let error = error as? URLError, error.code == .cancelled { return }
            completion(error == nil && data != nil)
        }
        task.resume()
        return task
    }

    func prefetchAlerts(near location: CLLocation) {
        let url = URL(string: "https://api.example.com/alerts?lat=\(location.coordinate.latitude)&lon=\(location.coordinate.longitude)")!
        URLSession.shared.dataTask(with: url).resume()
    }
}

final class RadarTileCache {
    private let directory = FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask)[0]
        .appendingPathComponent("radar", isDirectory: true)

    func pruneTiles(olderThan age: TimeInterval, completion: @escaping (Int) -> Void) {
        DispatchQueue.global(qos: .background).async {
            let cutoff = Date().addingTimeInterval(-age)
            let files = (try? FileManager.default.contentsOfDirectory(at: self.directory,
                                                                    includingPropertiesForKeys: [.contentModificationDateKey])) ?? []
            var removed = 0
            for file in files {
                let date = (try? file.resourceValues(forKeys: [.contentModificationDateKey]))?.contentModificationDate
                if let date, date < cutoff, (try? FileManager.default.removeItem(at: file)) != nil {
                    removed += 1
                }
            }
            completion(removed)
        }
    }
}
