import UIKit
import Photos
import os

@main
final class PhotoLibraryAppDelegate: UIResponder, UIApplicationDelegate {
    var window: UIWindow?

    private let logger = Logger(subsystem: "com.example.photolibrary", category: "backup")
    private let uploader = PhotoBackupUploader()

    func application(_ application: UIApplication,
                     didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        window = UIWindow(frame: UIScreen.main.bounds)
        window?.rootViewController = UINavigationController(rootViewController: LibraryViewController())
        window?.makeKeyAndVisible()
        return true
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        var backupTaskID = UIBackgroundTaskIdentifier.invalid
        backupTaskID = application.beginBackgroundTask(withName: "PhotoBackup") { [weak self] in // expect-finding: never-ended
            self?.logger.notice("Backup interrupted by the system")
            self?.uploader.cancelAll()
        }

        let pending = uploader.pendingAssets()
        guard !pending.isEmpty else {
            logger.debug("Nothing to back up")
            return
        }

        uploader.upload(pending) { [weak self] result in
            DispatchQueue.main.async {
                switch result {
                case .success(let count):
                    self?.logger.info("Backed up \(count) photos")
                case .failure(let error):
                    self?.logger.error("Backup failed: \(error.localizedDescription)")
                }
                application.endBackgroundTask(backupTaskID)
                backupTaskID = .invalid
            }
        }
    }
}

final class PhotoBackupUploader {
    private let session = URLSession(configuration: .default)
    private var tasks: [URLSessionTask] = []

    func pendingAssets() -> [PHAsset] {
        let options = PHFetchOptions()
        options.predicate = NSPredicate(format: "creationDate > %@", Date().addingTimeInterval(-86_400) as NSDate)
        let result = PHAsset.fetchAssets(with: .image, options: options)
        var assets: [PHAsset] = []
        result.enumerateObjects { asset, _, _ in assets.append(asset) }
        return assets
    }

    func upload(_ assets: [PHAsset], completion: @escaping (Result<Int, Error>) -> Void) {
        var request = URLRequest(url: URL(string: "https://backup.example.com/v1/photos")!)
        request.httpMethod = "POST"
        request.httpBody = try? JSONEncoder().encode(assets.map(\.localIdentifier))
        let task = session.dataTask(with: request) { _, _, error in
            if let error {
                completion(.failure(error))
            } else {
                completion(.success(assets.count))
            }
        }
        tasks.append(task)
        task.resume()
    }

    func cancelAll() {
        tasks.forEach { $0.cancel() }
        tasks.removeAll()
    }
}

final class LibraryViewController: UIViewController {}
