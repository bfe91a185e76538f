import UIKit
import os

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    var window: UIWindow?

    func application(_ application: UIApplication,
                     didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        PodcastDownloadManager.shared.restorePendingDownloads()
        return true
    }

    func application(_ application: UIApplication, handleEventsForBackgroundURLSession identifier: String, // expect-finding: session-completion-not-called
                     completionHandler: @escaping () -> Void) {
        PodcastDownloadManager.shared.handleEvents(for: identifier, completionHandler: completionHandler)
    }
}

final class PodcastDownloadManager: NSObject, URLSessionDownloadDelegate {
    static let shared = PodcastDownloadManager()
    private static let sessionIdentifier = "com.example.podcasts.downloads"

    private let logger = Logger(subsystem: "com.example.podcasts", category: "downloads")
    private var pendingCompletionHandler: (() -> Void)?
    private var progressByTask: [Int: Double] = [:]

    private lazy var session: URLSession = {
        let configuration = URLSessionConfiguration.background(withIdentifier: Self.sessionIdentifier)
        configuration.sessionSendsLaunchEvents = true
        return URLSession(configuration: configuration, delegate: self, delegateQueue: .main)
    }()

    func restorePendingDownloads() {
        session.getAllTasks { [weak self] tasks in
            self?.logger.info("\(tasks.count) episode downloads still running")
        }
    }

    func handleEvents(for identifier: String, completionHandler: @escaping () -> Void) {
        guard identifier == Self.sessionIdentifier else { return }
        pendingCompletionHandler = completionHandler
        _ = session
    }

    func download(_ episode: URL) {
        session.downloadTask(with: episode).resume()
    }

    func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didWriteData bytesWritten: Int64,
                    totalBytesWritten: Int64, totalBytesExpectedToWrite: Int64) {
        progressByTask[downloadTask.taskIdentifier] = Double(totalBytesWritten) / Double(max(totalBytesExpectedToWrite, 1))
    }

    func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL) {
        let library = FileManager.default.urls(for: .documentDirectory, in: .userDomainMask)[0]
        let target = library.appendingPathComponent(downloadTask.response?.suggestedFilename ?? "\(downloadTask.taskIdentifier).mp3")
        do {
            try FileManager.default.moveItem(at: location, to: target)
        } catch {
            logger.error("Could not keep episode: \(error.localizedDescription)")
        }
        progressByTask[downloadTask.taskIdentifier] = nil
    }

    func urlSessionDidFinishEvents(forBackgroundURLSession session: URLSession) {
        logger.info("Background events finished; \(self.progressByTask.count) downloads remain")
        NotificationCenter.default.post(name: .podcastLibraryChanged, object: nil)
    }
}

extension Notification.Name {
    static let podcastLibraryChanged = Notification.Name("PodcastLibraryChanged")
}
