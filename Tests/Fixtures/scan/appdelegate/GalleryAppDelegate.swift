import UIKit

@main
class GalleryAppDelegate: UIResponder, UIApplicationDelegate {
    var window: UIWindow?
    var bgTaskID = UIBackgroundTaskIdentifier.invalid
    let importer = GalleryImporter()

    func applicationDidEnterBackground(_ application: UIApplication) {
        guard importer.isImporting, bgTaskID == .invalid else { return }

        bgTaskID = application.beginBackgroundTask { [weak self] in
            guard let self = self else { return }
            self.importer.pause()
            application.endBackgroundTask(self.bgTaskID)
            self.bgTaskID = .invalid
        }

        importer.finishCurrentBatch { [weak self] in
            DispatchQueue.main.async {
                guard let self = self, self.bgTaskID != .invalid else { return }
                application.endBackgroundTask(self.bgTaskID)
                self.bgTaskID = .invalid
            }
        }
    }

    func applicationWillEnterForeground(_ application: UIApplication) {
        importer.resume()
    }
}

final class GalleryImporter {
    private let queue = OperationQueue()
    private(set) var isImporting = false

    init() {
        queue.maxConcurrentOperationCount = 2
    }

    func start(_ files: [URL]) {
        isImporting = true
        for file in files {
            queue.addOperation {
                let destination = FileManager.default.urls(for: .documentDirectory, in: .userDomainMask)[0]
                    .appendingPathComponent(file.lastPathComponent)
                try? FileManager.default.copyItem(at: file, to: destination)
            }
        }
        queue.addBarrierBlock { [weak self] in
            DispatchQueue.main.async { self?.isImporting = false }
        }
    }

    /// Calls `completion` on a background queue once the operations already queued have run.
    func finishCurrentBatch(completion: @escaping () -> Void) {
        queue.addBarrierBlock(completion)
    }

    func pause() { queue.isSuspended = true }
    func resume() { queue.isSuspended = false }
}
