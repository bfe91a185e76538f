import UIKit

@main
final class MailAppDelegate: UIResponder, UIApplicationDelegate {
    var window: UIWindow?

    func application(_ application: UIApplication, handleEventsForBackgroundURLSession identifier: String,
                     completionHandler: @escaping () -> Void) {
        AttachmentUploadSession.shared.eventsCompletionHandler = completionHandler
        AttachmentUploadSession.shared.reconnect()
    }
}

/// Uploads large mail attachments in a background session, then tells the server to send.
final class AttachmentUploadSession: NSObject, URLSessionTaskDelegate {
    static let shared = AttachmentUploadSession()

    var eventsCompletionHandler: (() -> Void)?

    private lazy var session: URLSession = URLSession(
        configuration: {
            let configuration = URLSessionConfiguration.background(withIdentifier: "com.example.mail.attachments")
            configuration.sessionSendsLaunchEvents = true
            return configuration
        }(),
        delegate: self,
        delegateQueue: nil)

    /// Recreates the session after a relaunch, so its queued events are delivered.
    func reconnect() {
        _ = session
    }

    func upload(_ file: URL, messageID: String) {
        var request = URLRequest(url: URL(string: "https://mail.example.com/attachments/\(messageID)")!)
        request.httpMethod = "PUT"
        let task = session.uploadTask(with: request, fromFile: file)
        task.taskDescription = messageID
        task.resume()
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        guard error == nil, let messageID = task.taskDescription else { return }
        UserDefaults.standard.set(true, forKey: "attachment-uploaded-\(messageID)")
    }

    func urlSessionDidFinishEvents(forBackgroundURLSession session: URLSession) {
        session.getAllTasks { [weak self] tasks in
            if tasks.isEmpty {
                try? FileManager.default.removeItem(at: FileManager.default.temporaryDirectory
                    .appendingPathComponent("outgoing-attachments"))
            }
            guard let handler = self?.eventsCompletionHandler else { return }
            self?.eventsCompletionHandler = nil
            handler() // expect-finding: session-completion-off-main
        }
    }
}
