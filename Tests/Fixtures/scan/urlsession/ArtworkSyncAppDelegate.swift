import UIKit

/// Photo-frame app: downloads the artwork of the day on a background session. When the system
/// wakes the app for the session, the app reconnects to it and reports back straight away.
@main
final class ArtworkAppDelegate: UIResponder, UIApplicationDelegate {
    var window: UIWindow?

    func application(_ application: UIApplication,
                     didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        ArtworkDownloader.shared.scheduleToday()
        return true
    }

    func application(_ application: UIApplication, handleEventsForBackgroundURLSession identifier: String,
                     completionHandler: @escaping () -> Void) {
        ArtworkDownloader.shared.reconnect()
        completionHandler() // expect-finding: session-completion-called-early
    }
}

final class ArtworkDownloader: NSObject, URLSessionDownloadDelegate {
    static let shared = ArtworkDownloader()
    static let sessionIdentifier = "com.example.frame.artwork"

    private lazy var session: URLSession = {
        let configuration = URLSessionConfiguration.background(withIdentifier: Self.sessionIdentifier)
        configuration.isDiscretionary = true
        return URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
    }()

    func reconnect() {
        _ = session
    }

    func scheduleToday() {
        let url = URL(string: "https://frame.example.com/api/artwork/today.jpg")!
        session.downloadTask(with: url).resume()
    }

    func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL) {
        let caches = FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask)[0]
        let destination = caches.appendingPathComponent("artwork-today.jpg")
        try? FileManager.default.removeItem(at: destination)
        try? FileManager.default.moveItem(at: location, to: destination)
    }

    func urlSessionDidFinishEvents(forBackgroundURLSession session: URLSession) {
        DispatchQueue.main.async {
            NotificationCenter.default.post(name: .artworkUpdated, object: nil)
        }
    }
}

extension Notification.Name {
    static let artworkUpdated = Notification.Name("ArtworkUpdated")
}
