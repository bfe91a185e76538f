import UIKit
import os

struct AnalyticsEvent: Codable {
    let name: String
    let timestamp: Date
    let properties: [String: String]
}

enum AnalyticsError: Error {
    case emptyBatch
    case rejected(statusCode: Int)
}

/// Batches analytics events and ships them when the app goes to the background.
final class AnalyticsUploader {
    private let logger = Logger(subsystem: "com.example.analytics", category: "upload")
    private let lock = NSLock()
    private var buffer: [AnalyticsEvent] = []
    private var currentUpload: URLSessionDataTask?
    private let endpoint = URL(string: "https://telemetry.example.com/v3/batch")!

    func track(_ name: String, properties: [String: String] = [:]) {
        lock.lock()
        buffer.append(AnalyticsEvent(name: name, timestamp: Date(), properties: properties))
        lock.unlock()
    }

    /// Called from the scene delegate's `sceneDidEnterBackground(_:)`.
    func flush() throws {
        let application = UIApplication.shared
        var taskID = UIBackgroundTaskIdentifier.invalid
        taskID = application.beginBackgroundTask(withName: "AnalyticsFlush") { [weak self] in // expect-finding: never-ended
            self?.logger.warning("Analytics flush expired")
            self?.currentUpload?.cancel()
        }

        lock.lock()
        let batch = buffer
        buffer.removeAll()
        lock.unlock()

        guard !batch.isEmpty else { throw AnalyticsError.emptyBatch }
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        var request = URLRequest(url: endpoint)
        request.httpMethod = "POST"
        request.httpBody = try encoder.encode(batch)

        let upload = URLSession.shared.dataTask(with: request) { [weak self] _, response, error in
            if let status = (response as? HTTPURLResponse)?.statusCode, status >= 400 {
                self?.logger.error("Batch rejected: \(status)")
            } else if let error {
                self?.logger.error("Batch failed: \(error.localizedDescription)")
                self?.requeue(batch)
            }
            DispatchQueue.main.async {
                application.endBackgroundTask(taskID)
                taskID = .invalid
            }
        }
        currentUpload = upload
        upload.resume()
    }

    private func requeue(_ batch: [AnalyticsEvent]) {
        lock.lock()
        buffer.insert(contentsOf: batch, at: 0)
        lock.unlock()
    }
}
