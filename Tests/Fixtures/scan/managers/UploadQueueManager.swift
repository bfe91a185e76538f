import UIKit

/// Uploads receipts the user scans, one request per receipt.
final class UploadQueueManager {
    static let shared = UploadQueueManager()

    private var backgroundTaskID: UIBackgroundTaskIdentifier = .invalid
    private let session: URLSession
    private var inFlight: [UUID: URLSessionDataTask] = [:]

    init(session: URLSession = .shared) {
        self.session = session
    }

    /// Called on the main thread whenever the camera screen captures a receipt.
    func enqueue(_ receipt: ScannedReceipt) {
        backgroundTaskID = UIApplication.shared.beginBackgroundTask(withName: "ReceiptUpload") { [weak self] in // expect-finding: overwritten-identifier
            self?.cancelAll()
            self?.finishBackgroundTask()
        }

        var request = URLRequest(url: URL(string: "https://expenses.example.com/api/receipts")!)
        request.httpMethod = "POST"
        request.setValue("image/jpeg", forHTTPHeaderField: "Content-Type")
        request.httpBody = receipt.jpegData

        let task = session.dataTask(with: request) { [weak self] _, response, error in
            DispatchQueue.main.async {
                guard let self else { return }
                self.inFlight[receipt.id] = nil
                if error != nil || (response as? HTTPURLResponse)?.statusCode != 201 {
                    ReceiptOutbox.shared.store(receipt)
                }
                self.finishBackgroundTask()
            }
        }
        inFlight[receipt.id] = task
        task.resume()
    }

    private func cancelAll() {
        inFlight.values.forEach { $0.cancel() }
    }

    private func finishBackgroundTask() {
        guard backgroundTaskID != .invalid else { return }
        UIApplication.shared.endBackgroundTask(backgroundTaskID)
        backgroundTaskID = .invalid
    }
}

struct ScannedReceipt {
    let id = UUID()
    let jpegData: Data
}

final class ReceiptOutbox {
    static let shared = ReceiptOutbox()
    private var pending: [ScannedReceipt] = []

    func store(_ receipt: ScannedReceipt) {
        pending.append(receipt)
    }
}
