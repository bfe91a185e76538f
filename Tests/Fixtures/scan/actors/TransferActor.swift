import UIKit

/// Uploads large attachments one at a time. Background time is taken through a main-actor helper,
/// so the begin, the store and the expiration handler share one thread.
actor TransferActor {
    private var queue: [Attachment] = []
    private var isDraining = false

    func enqueue(_ attachment: Attachment) async {
        queue.append(attachment)
        guard !isDraining else { return }
        isDraining = true
        await drain()
        isDraining = false
    }

    private func drain() async {
        let guardTask = await BackgroundTime.begin(name: "AttachmentUpload")
        while !queue.isEmpty {
            if await guardTask.isExpired { break }
            let next = queue.removeFirst()
            do {
                try await upload(next)
            } catch {
                queue.insert(next, at: 0)
                break
            }
        }
        await guardTask.end()
    }

    private func upload(_ attachment: Attachment) async throws {
        var request = URLRequest(url: URL(string: "https://chat.example.com/attachments/\(attachment.id)")!)
        request.httpMethod = "PUT"
        _ = try await URLSession.shared.upload(for: request, fromFile: attachment.fileURL)
    }
}

@MainActor
final class BackgroundTime {
    private var identifier: UIBackgroundTaskIdentifier = .invalid
    private(set) var isExpired = false

    private init() {}

    static func begin(name: String) -> BackgroundTime {
        let time = BackgroundTime()
        time.identifier = UIApplication.shared.beginBackgroundTask(withName: name) { [weak time] in
            MainActor.assumeIsolated {
                time?.isExpired = true
                time?.end()
            }
        }
        return time
    }

    func end() {
        guard identifier != .invalid else { return }
        UIApplication.shared.endBackgroundTask(identifier)
        identifier = .invalid
    }
}

struct Attachment: Sendable {
    let id: UUID
    let fileURL: URL
}
