import UIKit
import CoreLocation

/// Appends visited places to a log file and uploads the log in batches.
final class LocationLogWriter: NSObject, CLLocationManagerDelegate {
    private let manager = CLLocationManager()
    private let operationQueue: OperationQueue = {
        let queue = OperationQueue()
        queue.name = "com.example.places.log"
        queue.maxConcurrentOperationCount = 1
        return queue
    }()
    private var pending: [CLVisit] = []
    private var uploadTaskID: UIBackgroundTaskIdentifier = .invalid

    override init() {
        super.init()
        manager.delegate = self
        manager.startMonitoringVisits()
    }

    func locationManager(_ manager: CLLocationManager, didVisit visit: CLVisit) {
        pending.append(visit)
        let visits = pending
        pending.removeAll()
        operationQueue.addOperation { [weak self] in
            self?.upload(visits)
        }
    }

    /// Runs on `operationQueue`.
    private func upload(_ visits: [CLVisit]) {
        uploadTaskID = UIApplication.shared.beginBackgroundTask(withName: "UploadVisits") { [weak self] in // expect-finding: identifier-race
            guard let self else { return }
            UIApplication.shared.endBackgroundTask(self.uploadTaskID)
            self.uploadTaskID = .invalid
        }

        let lines = visits.map { "\($0.arrivalDate.timeIntervalSince1970),\($0.coordinate.latitude),\($0.coordinate.longitude)" }
        var request = URLRequest(url: URL(string: "https://places.example.com/visits")!)
        request.httpMethod = "POST"
        request.httpBody = lines.joined(separator: "\n").data(using: .utf8)

        let done = DispatchSemaphore(value: 0)
        URLSession.shared.dataTask(with: request) { _, _, _ in done.signal() }.resume()
        done.wait()

        DispatchQueue.main.sync {
            guard self.uploadTaskID != .invalid else { return }
            UIApplication.shared.endBackgroundTask(self.uploadTaskID)
            self.uploadTaskID = .invalid
        }
    }
}
