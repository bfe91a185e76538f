import UIKit

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    var window: UIWindow?

    func application(_ application: UIApplication,
                     didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        UploadSessionController.shared.reconnect()
        return true
    }

    func application(_ application: UIApplication,
                     handleEventsForBackgroundURLSession identifier: String,
                     completionHandler: @escaping () -> Void) {
        UploadSessionController.shared.backgroundEventsCompletion = completionHandler
        UploadSessionController.shared.reconnect()
    }
}

/// Uploads workout route files. The session's delegate queue is the main queue, so the delegate
/// callbacks, including `urlSessionDidFinishEvents`, already run on main.
final class UploadSessionController: NSObject, URLSessionTaskDelegate {
    static let shared = UploadSessionController()
    static let identifier = "com.example.runs.route-uploads"

    var backgroundEventsCompletion: (() -> Void)?
    private var session: URLSession?

    func reconnect() {
        guard session == nil else { return }
        let configuration = URLSessionConfiguration.background(withIdentifier: Self.identifier)
        configuration.sessionSendsLaunchEvents = true
        session = URLSession(configuration: configuration, delegate: self, delegateQueue: OperationQueue.main)
    }

    func upload(route file: URL, runID: UUID) {
        reconnect()
        var request = URLRequest(url: URL(string: "https://runs.example.com/api/routes/\(runID.uuidString)")!)
        request.httpMethod = "POST"
        request.setValue("application/gpx+xml", forHTTPHeaderField: "Content-Type")
        session?.uploadTask(with: request, fromFile: file).resume()
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        if let error {
            RetryQueue.shared.add(task.originalRequest, reason: error)
        }
    }

    func urlSessionDidFinishEvents(forBackgroundURLSession session: URLSession) {
        let completion = backgroundEventsCompletion
        backgroundEventsCompletion = nil
        completion?()
    }
}

final class RetryQueue {
    static let shared = RetryQueue()
    private var requests: [URLRequest] = []

    func add(_ request: URLRequest?, reason: Error) {
        guard let request else { return }
        requests.append(request)
    }
}
