import UIKit

@main
class AppDelegate: UIResponder, UIApplicationDelegate {
    var window: UIWindow?
    var backgroundSessionCompletionHandler: (() -> Void)?

    func application(_ application: UIApplication, handleEventsForBackgroundURLSession identifier: String,
                     completionHandler: @escaping () -> Void) {
        backgroundSessionCompletionHandler = completionHandler
        BackgroundDownloadService.shared.activate()
    }
}

/// Downloads course videos for offline viewing.
final class BackgroundDownloadService: NSObject, URLSessionDownloadDelegate {
    static let shared = BackgroundDownloadService()

    private lazy var session: URLSession = {
        let configuration = URLSessionConfiguration.background(withIdentifier: "com.example.courses.videos")
        configuration.sessionSendsLaunchEvents = true
        configuration.isDiscretionary = true
        return URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
    }()

    func activate() {
        _ = session
    }

    func download(lesson: URL) {
        session.downloadTask(with: lesson).resume()
    }

    func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL) {
        let folder = FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask)[0]
            .appendingPathComponent("Lessons", isDirectory: true)
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let name = downloadTask.originalRequest?.url?.lastPathComponent ?? UUID().uuidString
        try? FileManager.default.moveItem(at: location, to: folder.appendingPathComponent(name))
    }

    func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didWriteData bytesWritten: Int64,
                    totalBytesWritten: Int64, totalBytesExpectedToWrite: Int64) {
        let progress = Double(totalBytesWritten) / Double(max(totalBytesExpectedToWrite, 1))
        NotificationCenter.default.post(name: .lessonDownloadProgress, object: downloadTask, userInfo: ["progress": progress])
    }

    func urlSessionDidFinishEvents(forBackgroundURLSession session: URLSession) {
        guard let appDelegate = UIApplication.shared.delegate as? AppDelegate,
              let completionHandler = appDelegate.backgroundSessionCompletionHandler else {
            return
        }
        appDelegate.backgroundSessionCompletionHandler = nil
        completionHandler() // expect-finding: session-completion-off-main
    }
}

extension Notification.Name {
    static let lessonDownloadProgress = Notification.Name("LessonDownloadProgress")
}
