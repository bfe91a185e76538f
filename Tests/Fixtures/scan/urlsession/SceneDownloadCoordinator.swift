import UIKit

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(_ application: UIApplication, handleEventsForBackgroundURLSession identifier: String,
                     completionHandler: @escaping () -> Void) {
        SceneDownloadCoordinator.shared.store(completionHandler, for: identifier)
    }
}

/// Downloads magazine issues for several scenes through one background session per issue type.
/// Completion handlers are kept per session identifier, and called on the main actor once the
/// session has delivered its events.
final class SceneDownloadCoordinator: NSObject, URLSessionDownloadDelegate {
    static let shared = SceneDownloadCoordinator()

    @MainActor private var completionHandlers: [String: () -> Void] = [:]
    private var sessions: [String: URLSession] = [:]
    private let sessionsLock = NSLock()

    @MainActor
    func store(_ handler: @escaping () -> Void, for identifier: String) {
        completionHandlers[identifier] = handler
        _ = session(for: identifier)
    }

    func session(for identifier: String) -> URLSession {
        sessionsLock.lock()
        defer { sessionsLock.unlock() }
        if let existing = sessions[identifier] { return existing }
        let configuration = URLSessionConfiguration.background(withIdentifier: identifier)
        configuration.sessionSendsLaunchEvents = true
        let session = URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
        sessions[identifier] = session
        return session
    }

    func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL) {
        let issues = FileManager.default.urls(for: .documentDirectory, in: .userDomainMask)[0]
            .appendingPathComponent("Issues", isDirectory: true)
        try? FileManager.default.createDirectory(at: issues, withIntermediateDirectories: true)
        try? FileManager.default.moveItem(at: location,
                                          to: issues.appendingPathComponent(downloadTask.response?.suggestedFilename ?? "issue.pdf"))
    }

    func urlSessionDidFinishEvents(forBackgroundURLSession session: URLSession) {
        guard let identifier = session.configuration.identifier else { return }
        Task { @MainActor in
            let handler = self.completionHandlers.removeValue(forKey: identifier)
            handler?()
        }
    }
}
