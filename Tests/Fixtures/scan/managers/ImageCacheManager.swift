import UIKit

/// An LRU image cache that trims itself on memory warnings and when the app goes to the background.
final class ImageCacheManager {
    static let shared = ImageCacheManager()

    private let memoryCache = NSCache<NSURL, UIImage>()
    private let diskQueue = DispatchQueue(label: "com.example.imagecache.disk", qos: .utility)
    private let directory: URL
    private let maxDiskBytes = 200 * 1024 * 1024

    private init() {
        directory = FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask)[0]
            .appendingPathComponent("images", isDirectory: true)
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        memoryCache.countLimit = 300

        let center = NotificationCenter.default
        center.addObserver(forName: UIApplication.didReceiveMemoryWarningNotification, object: nil, queue: .main) { [weak self] _ in
            self?.memoryCache.removeAllObjects()
        }
        center.addObserver(forName: UIApplication.didEnterBackgroundNotification, object: nil, queue: .main) { [weak self] _ in
            self?.trimDiskCache()
        }
    }

    func image(for url: URL) -> UIImage? {
        memoryCache.object(forKey: url as NSURL)
    }

    func store(_ image: UIImage, for url: URL) {
        memoryCache.setObject(image, forKey: url as NSURL)
        diskQueue.async { [directory] in
            let file = directory.appendingPathComponent(String(url.absoluteString.hashValue))
            try? image.pngData()?.write(to: file)
        }
    }

    private func trimDiskCache() {
        let taskID = UIApplication.shared.beginBackgroundTask() // expect-finding: no-expiration-handler
        diskQueue.async { [directory, maxDiskBytes] in
            let keys: [URLResourceKey] = [.contentAccessDateKey, .totalFileAllocatedSizeKey]
            let files = (try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: keys)) ?? []
            let sorted = files.sorted {
                let a = (try? $0.resourceValues(forKeys: Set(keys)))?.contentAccessDate ?? .distantPast
                let b = (try? $1.resourceValues(forKeys: Set(keys)))?.contentAccessDate ?? .distantPast
                return a > b
            }
            var total = 0
            for file in sorted {
                total += (try? file.resourceValues(forKeys: Set(keys)))?.totalFileAllocatedSize ?? 0
                if total > maxDiskBytes {
                    try? FileManager.default.removeItem(at: file)
                }
            }
            DispatchQueue.main.async {
                UIApplication.shared.endBackgroundTask(taskID)
            }
        }
    }
}
