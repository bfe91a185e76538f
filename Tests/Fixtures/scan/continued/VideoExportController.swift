import UIKit
import AVFoundation
import BackgroundTasks

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    var window: UIWindow?

    func application(_ application: UIApplication,
                     didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        window = UIWindow(frame: UIScreen.main.bounds)
        window?.rootViewController = UINavigationController(rootViewController: UIViewController())
        window?.makeKeyAndVisible()
        return true
    }
}

/// Exports a project to a movie file when the user taps Export; the export keeps running with a
/// system progress UI if the user leaves the app (iOS 26).
final class VideoExportController {
    static let shared = VideoExportController()
    static let identifierPrefix = "com.example.clips.export"

    private var pendingExports: [String: AVAssetExportSession] = [:]
    private let lock = NSLock()

    /// Called from the Export button. Continued-processing handlers are registered when the job
    /// starts, each under its own identifier.
    func startExport(of composition: AVComposition, to url: URL, projectName: String) throws {
        let suffix = UUID().uuidString
        guard let session = AVAssetExportSession(asset: composition, presetName: AVAssetExportPreset1920x1080) else {
            throw CocoaError(.featureUnsupported)
        }
        session.outputURL = url
        session.outputFileType = .mp4
        lock.lock()
        pendingExports[suffix] = session
        lock.unlock()

        let identifier = "\(Self.identifierPrefix).\(suffix)"
        BGTaskScheduler.shared.register(forTaskWithIdentifier: identifier, using: nil) { task in // expect-finding: bgtask-not-completed
            guard let task = task as? BGContinuedProcessingTask else { return }
            self.run(task)
        }

        let request = BGContinuedProcessingTaskRequest(identifier: identifier,
                                                       title: "Exporting \(projectName)",
                                                       subtitle: "Preparing")
        request.strategy = .fail
        try BGTaskScheduler.shared.submit(request)
    }

    private func run(_ task: BGContinuedProcessingTask) {
        let suffix = String(task.identifier.split(separator: ".").last ?? "")
        lock.lock()
        let session = pendingExports.removeValue(forKey: suffix)
        lock.unlock()
        guard let session else {
            task.setTaskCompleted(success: false)
            return
        }

        task.progress.totalUnitCount = 100
        task.expirationHandler = {
            session.cancelExport()
        }

        let timer = DispatchSource.makeTimerSource(queue: .global())
        timer.schedule(deadline: .now(), repeating: .milliseconds(500))
        timer.setEventHandler {
            task.progress.completedUnitCount = Int64(session.progress * 100)
        }
        timer.resume()

        session.exportAsynchronously {
            timer.cancel()
            if session.status == .completed {
                task.updateTitle(task.title, subtitle: "Done")
                task.setTaskCompleted(success: true)
            }
        }
    }
}
