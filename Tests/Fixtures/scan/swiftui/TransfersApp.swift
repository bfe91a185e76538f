import SwiftUI
import os

@main
struct TransfersApp: App {
    @UIApplicationDelegateAdaptor(TransfersAppDelegate.self) private var appDelegate

    var body: some Scene {
        WindowGroup {
            TransferListView(manager: TransferManager.shared)
        }
    }
}

final class TransfersAppDelegate: NSObject, UIApplicationDelegate {
    func application(_ application: UIApplication, handleEventsForBackgroundURLSession identifier: String,
                     completionHandler: @escaping () -> Void) {
        TransferManager.shared.resume(sessionIdentifier: identifier, completion: completionHandler)
    }
}

final class TransferManager: NSObject, ObservableObject, URLSessionDataDelegate {
    static let shared = TransferManager()
    static let identifier = "com.example.transfers.uploads"

    @Published private(set) var completedCount = 0
    private let logger = Logger(subsystem: "com.example.transfers", category: "session")
    private var eventsCompletion: (() -> Void)?
    private let delegateQueue: OperationQueue = {
        let queue = OperationQueue()
        queue.name = "com.example.transfers.delegate"
        queue.maxConcurrentOperationCount = 1
        return queue
    }()

    private lazy var session: URLSession = {
        let configuration = URLSessionConfiguration.background(withIdentifier: Self.identifier)
        configuration.sessionSendsLaunchEvents = true
        return URLSession(configuration: configuration, delegate: self, delegateQueue: delegateQueue)
    }()

    func resume(sessionIdentifier: String, completion: @escaping () -> Void) {
        delegateQueue.addOperation {
            self.eventsCompletion = completion
        }
        _ = session
    }

    func upload(file: URL, to endpoint: URL) {
        var request = URLRequest(url: endpoint)
        request.httpMethod = "PUT"
        session.uploadTask(with: request, fromFile: file).resume()
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        if let error {
            logger.error("Upload failed: \(error.localizedDescription)")
        }
        DispatchQueue.main.async { self.completedCount += 1 }
    }

    func urlSessionDidFinishEvents(forBackgroundURLSession session: URLSession) {
        logger.info("All background events delivered")
        let completion = eventsCompletion
        eventsCompletion = nil
        completion?() // expect-finding: session-completion-off-main
    }
}

struct TransferListView: View {
    @ObservedObject var manager: TransferManager

    var body: some View {
        Text("\(manager.completedCount) uploads finished")
            .padding()
    }
}
