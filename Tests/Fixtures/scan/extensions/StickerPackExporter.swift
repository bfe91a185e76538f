import Messages
import UIKit

/// iMessage app: exports the selected stickers to the shared album, downloading the full-size
/// images first.
final class StickerExportController {
    private let album = SharedAlbum()

    func export(_ stickers: [URL]) {
        ProcessInfo.processInfo.performExpiringActivity(withReason: "Export stickers") { [album] expired in // expect-finding: expiring-activity-returns-early
            if expired { return }
            let group = DispatchGroup()
            var images: [UIImage] = []
            let imagesLock = NSLock()
            for url in stickers {
                group.enter()
                URLSession.shared.dataTask(with: url) { data, _, _ in
                    if let data, let image = UIImage(data: data) {
                        imagesLock.lock()
                        images.append(image)
                        imagesLock.unlock()
                    }
                    group.leave()
                }.resume()
            }
            group.notify(queue: .main) {
                album.save(images)
            }
        }
    }
}

final class SharedAlbum {
    func save(_ images: [UIImage]) {
        let folder = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: "group.com.example.stickers")
        for (index, image) in images.enumerated() {
            guard let data = image.pngData(), let url = folder?.appendingPathComponent("export-\(index).png") else { continue }
            try? data.write(to: url)
        }
    }
}
