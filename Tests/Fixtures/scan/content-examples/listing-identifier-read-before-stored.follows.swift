// Mirrors Content rule `listing-identifier-read-before-stored`, example "begun and stored on main, as in
// the Uploader sketch" (scenario follows, Content/documents/extending-background-execution-time.md).
import UIKit

@MainActor
final class Uploader {
    private var taskID: UIBackgroundTaskIdentifier = .invalid
    private let payload: Data

    init(payload: Data) {
        self.payload = payload
    }

    /// On main: the expiration handler, also on main, can only run after the store.
    func upload() {
        guard taskID == .invalid else { return }
        taskID = UIApplication.shared.beginBackgroundTask(withName: "Upload payload") {
            MainActor.assumeIsolated {
                self.finish()
            }
        }
        Task {
            await Self.send(payload)
            self.finish()
        }
    }

    /// Main actor only.
    private func finish() {
        if taskID != .invalid {
            UIApplication.shared.endBackgroundTask(taskID)
            taskID = .invalid
        }
    }

    nonisolated private static func send(_ payload: Data) async {
        var request = URLRequest(url: URL(string: "https://upload.example.com/payload")!)
        request.httpMethod = "POST"
        _ = try? await URLSession.shared.upload(for: request, from: payload)
    }
}

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    var window: UIWindow?
    private let uploader = Uploader(payload: Data(count: 4096))

    func applicationDidEnterBackground(_ application: UIApplication) {
        uploader.upload()
    }
}
