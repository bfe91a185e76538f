import UIKit

@main
class MapsAppDelegate: UIResponder, UIApplicationDelegate {
    var window: UIWindow?
    let tiles = MapTileDownloader()

    func application(_ application: UIApplication, handleEventsForBackgroundURLSession identifier: String, // expect-finding: session-completion-not-called
                     completionHandler: @escaping () -> Void) {
        tiles.sessionCompletion = completionHandler
        tiles.connect()
    }
}

/// Downloads offline map regions tile pack by tile pack.
final class MapTileDownloader: NSObject, URLSessionDownloadDelegate {
    var sessionCompletion: (() -> Void)?
    private var session: URLSession?

    func connect() {
        guard session == nil else { return }
        let configuration = URLSessionConfiguration.background(withIdentifier: "com.example.maps.tiles")
        configuration.sessionSendsLaunchEvents = true
        configuration.allowsExpensiveNetworkAccess = false
        session = URLSession(configuration: configuration, delegate: self, delegateQueue: .main)
    }

    func downloadRegion(_ packs: [URL]) {
        connect()
        for pack in packs {
            session?.downloadTask(with: pack).resume()
        }
    }

    func cancelAll() {
        session?.invalidateAndCancel()
    }

    func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL) {
        let regions = FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask)[0]
            .appendingPathComponent("Regions", isDirectory: true)
        try? FileManager.default.createDirectory(at: regions, withIntermediateDirectories: true)
        let name = downloadTask.originalRequest?.url?.lastPathComponent ?? UUID().uuidString
        try? FileManager.default.moveItem(at: location, to: regions.appendingPathComponent(name))
    }

    func urlSession(_ session: URLSession, didBecomeInvalidWithError error: Error?) {
        self.session = nil
        if let completion = sessionCompletion {
            sessionCompletion = nil
            completion()
        }
    }

    func urlSessionDidFinishEvents(forBackgroundURLSession session: URLSession) {
        NotificationCenter.default.post(name: Notification.Name("MapRegionsUpdated"), object: nil)
    }
}
