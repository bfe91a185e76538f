import UIKit
import BackgroundTasks

@main
final class CameraRollAppDelegate: UIResponder, UIApplicationDelegate {
    static let albumRefreshID = "com.example.cameraroll.album-refresh"

    var window: UIWindow?
    private var uploadTaskID: UIBackgroundTaskIdentifier = .invalid
    private let uploader = AlbumUploader()

    func application(_ application: UIApplication,
                     didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: Self.albumRefreshID, using: .main) { [weak self] task in
            guard let self else {
                task.setTaskCompleted(success: false)
                return
            }
            self.refreshAlbums(task)
        }
        return true
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        let request = BGAppRefreshTaskRequest(identifier: Self.albumRefreshID)
        request.earliestBeginDate = Date(timeIntervalSinceNow: 3600)
        try? BGTaskScheduler.shared.submit(request)

        guard uploadTaskID == .invalid, uploader.hasPendingUploads else { return }
        uploadTaskID = application.beginBackgroundTask(withName: "AlbumUpload") { [weak self] in
            self?.uploader.cancel()
            self?.endUploadTask()
        }
        uploader.uploadPending { [weak self] succeeded in
            DispatchQueue.main.async {
                if !succeeded {
                    self?.uploader.markForRetry()
                }
                self?.endUploadTask()
            }
        }
    }

    /// Runs on the main thread only, so the check and the reset cannot interleave.
    private func endUploadTask() {
        guard uploadTaskID != .invalid else { return }
        UIApplication.shared.endBackgroundTask(uploadTaskID)
        uploadTaskID = .invalid
    }

    /// Launched on the main queue (the queue passed to register), as is the expiration handler.
    private func refreshAlbums(_ task: BGTask) {
        var finished = false
        let operation = uploader.fetchAlbumChanges { success in
            DispatchQueue.main.async {
                guard !finished else { return }
                finished = true
                task.setTaskCompleted(success: success)
            }
        }
        task.expirationHandler = {
            operation.cancel()
            guard !finished else { return }
            finished = true
            task.setTaskCompleted(success: false)
        }
    }
}

final class AlbumUploader {
    private var current: URLSessionTask?
    private(set) var hasPendingUploads = true

    func uploadPending(completion: @escaping (Bool) -> Void) {
        let task = URLSession.shared.uploadTask(with: URLRequest(url: URL(string: "https://photos.example.com/upload")!),
                                                from: Data()) { _, response, error in
            completion(error == nil && (response as? HTTPURLResponse)?.statusCode == 200)
        }
        current = task
        task.resume()
    }

    func fetchAlbumChanges(completion: @escaping (Bool) -> Void) -> URLSessionTask {
        let task = URLSession.shared.dataTask(with: URL(string: "https://photos.example.com/albums/changes")!) { data, _, error in
            completion(error == nil && data != nil)
        }
        task.resume()
        return task
    }

    func cancel() { current?.cancel() }
    func markForRetry() { hasPendingUploads = true }
}
