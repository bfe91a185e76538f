import UIKit

@main
class PodcastAppDelegate: UIResponder, UIApplicationDelegate {
    var window: UIWindow?

    func application(_ application: UIApplication, handleEventsForBackgroundURLSession identifier: String,
                     completionHandler: @escaping () -> Void) {
        EpisodeDownloader.shared.backgroundCompletionHandler = completionHandler
        EpisodeDownloader.shared.reattach()
    }
}

final class EpisodeDownloader: NSObject, URLSessionDownloadDelegate {
    static let shared = EpisodeDownloader()

    var backgroundCompletionHandler: (() -> Void)?

    private lazy var session: URLSession = {
        let config = URLSessionConfiguration.background(withIdentifier: "com.example.podcasts.episodes")
        config.sessionSendsLaunchEvents = true
        config.allowsCellularAccess = UserDefaults.standard.bool(forKey: "allowCellularDownloads")
        return URLSession(configuration: config, delegate: self, delegateQueue: nil)
    }()

    func reattach() {
        _ = session
    }

    func download(episodeURL: URL) {
        let task = session.downloadTask(with: episodeURL)
        task.countOfBytesClientExpectsToReceive = 80 * 1024 * 1024
        task.resume()
    }

    func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL) {
        let episodes = FileManager.default.urls(for: .documentDirectory, in: .userDomainMask)[0]
            .appendingPathComponent("Episodes", isDirectory: true)
        try? FileManager.default.createDirectory(at: episodes, withIntermediateDirectories: true)
        let target = episodes.appendingPathComponent(downloadTask.response?.suggestedFilename ?? UUID().uuidString)
        try? FileManager.default.moveItem(at: location, to: target)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        guard let error else { return }
        print("Episode download failed: \(error.localizedDescription)")
    }

    func urlSessionDidFinishEvents(forBackgroundURLSession session: URLSession) {
        DispatchQueue.main.async {
            guard let handler = self.backgroundCompletionHandler else { return }
            self.backgroundCompletionHandler = nil
            handler()
        }
    }
}
