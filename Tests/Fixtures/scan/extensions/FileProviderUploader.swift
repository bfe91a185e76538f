import FileProvider
import Foundation

/// File Provider extension: pushes an edited document to the team drive. The expiring activity's
/// block waits for the upload, at most 25 seconds; when the system says time is up, the upload is
/// cancelled, which lets the waiting call return.
final class DriveUploadCoordinator {
    private let session = URLSession(configuration: .ephemeral)
    private let stateLock = NSLock()
    private var current: URLSessionUploadTask?

    func push(_ item: NSFileProviderItemIdentifier, contents: URL, completion: @escaping (Error?) -> Void) {
        ProcessInfo.processInfo.performExpiringActivity(withReason: "Upload \(item.rawValue)") { [self] expired in
            if expired {
                stateLock.lock()
                current?.cancel()
                stateLock.unlock()
                return
            }

            let finished = DispatchSemaphore(value: 0)
            var request = URLRequest(url: URL(string: "https://drive.example.com/api/items/\(item.rawValue)")!)
            request.httpMethod = "PUT"
            let upload = session.uploadTask(with: request, fromFile: contents) { _, response, error in
                let status = (response as? HTTPURLResponse)?.statusCode ?? 0
                completion(error ?? (status == 200 ? nil : NSFileProviderError(.serverUnreachable)))
                finished.signal()
            }
            stateLock.lock()
            current = upload
            stateLock.unlock()
            upload.resume()

            if finished.wait(timeout: .now() + 25) == .timedOut {
                upload.cancel()
            }
            stateLock.lock()
            current = nil
            stateLock.unlock()
        }
    }
}
