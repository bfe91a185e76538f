import UIKit
import os

@main
final class DownloadsAppDelegate: UIResponder, UIApplicationDelegate {
    var window: UIWindow?
    private let log = Logger(subsystem: "com.example.downloads", category: "app")

    func application(_ application: UIApplication,
                     didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        _ = DownloadCenter.shared
        return true
    }

    func application(_ application: UIApplication, handleEventsForBackgroundURLSession identifier: String, // expect-finding: session-completion-not-called
                     completionHandler: @escaping () -> Void) {
        log.info("Woken for background session \(identifier, privacy: .public)")
        guard identifier == DownloadCenter.sessionIdentifier else { return }
        DownloadCenter.shared.reconnect()
    }
}

final class DownloadCenter: NSObject, URLSessionDownloadDelegate {
    static let sessionIdentifier = "com.example.downloads.background"
    static let shared = DownloadCenter()

    private lazy var session: URLSession = {
        let configuration = URLSessionConfiguration.background(withIdentifier: Self.sessionIdentifier)
        configuration.sessionSendsLaunchEvents = true
        configuration.isDiscretionary = false
        return URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
    }()

    func reconnect() {
        _ = session
    }

    func download(_ url: URL) {
        session.downloadTask(with: url).resume()
    }

    func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL) {
        guard let name = downloadTask.originalRequest?.url?.lastPathComponent else { return }
        let destination = FileManager.default.urls(for: .documentDirectory, in: .userDomainMask)[0]
            .appendingPathComponent(name)
        try? FileManager.default.removeItem(at: destination)
        try? FileManager.default.moveItem(at: location, to: destination)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        if let error {
            NotificationCenter.default.post(name: .downloadFailed, object: task, userInfo: ["error": error])
        }
    }

    func urlSessionDidFinishEvents(forBackgroundURLSession session: URLSession) {
        NotificationCenter.default.post(name: .downloadsUpdated, object: nil)
    }
}

extension Notification.Name {
    static let downloadFailed = Notification.Name("DownloadFailed")
    static let downloadsUpdated = Notification.Name("DownloadsUpdated")
}
