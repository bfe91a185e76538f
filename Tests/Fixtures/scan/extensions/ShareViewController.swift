import UIKit
import Social
import UniformTypeIdentifiers

/// Share extension that posts a shared link to the user's reading queue.
final class ShareViewController: SLComposeServiceViewController {
    private let endpoint = URL(string: "https://queue.example.com/api/items")!
    private var uploadTask: URLSessionDataTask?

    override func isContentValid() -> Bool {
        !(contentText ?? "").isEmpty || !(extensionContext?.inputItems.isEmpty ?? true)
    }

    override func didSelectPost() {
        guard let item = extensionContext?.inputItems.first as? NSExtensionItem,
              let provider = item.attachments?.first(where: { $0.hasItemConformingToTypeIdentifier(UTType.url.identifier) }) else {
            extensionContext?.completeRequest(returningItems: nil)
            return
        }

        provider.loadItem(forTypeIdentifier: UTType.url.identifier) { [weak self] value, _ in
            guard let self, let link = value as? URL else { return }
            self.post(link: link, note: self.contentText)
        }
        extensionContext?.completeRequest(returningItems: nil)
    }

    private func post(link: URL, note: String?) {
        ProcessInfo.processInfo.performExpiringActivity(withReason: "Save shared link") { [weak self] expired in // expect-finding: expiring-activity-returns-early
            guard let self else { return }
            if expired {
                self.uploadTask?.cancel()
                return
            }
            var request = URLRequest(url: self.endpoint)
            request.httpMethod = "POST"
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = try? JSONSerialization.data(withJSONObject: ["url": link.absoluteString, "note": note ?? ""])
            let task = URLSession.shared.dataTask(with: request) { _, response, error in
                if error != nil || (response as? HTTPURLResponse)?.statusCode != 201 {
                    SharedQueue.savePending(link)
                }
            }
            self.uploadTask = task
            task.resume()
        }
    }

    override func configurationItems() -> [Any]! {
        []
    }
}

enum SharedQueue {
    static func savePending(_ link: URL) {
        let defaults = UserDefaults(suiteName: "group.com.example.queue")
        var pending = defaults?.stringArray(forKey: "pendingLinks") ?? []
        pending.append(link.absoluteString)
        defaults?.set(pending, forKey: "pendingLinks")
    }
}
