import UIKit
import UniformTypeIdentifiers

/// Action extension that uploads the selected PDF to the team's document store. The expiring
/// activity's block waits on a semaphore until the upload finishes, or until the system says time
/// is up, in which case the upload is cancelled and the waiting call is released.
final class ActionViewController: UIViewController {
    private let uploader = PDFUploader()

    override func viewDidLoad() {
        super.viewDidLoad()
        guard let item = extensionContext?.inputItems.first as? NSExtensionItem,
              let provider = item.attachments?.first else {
            extensionContext?.completeRequest(returningItems: nil)
            return
        }
        provider.loadFileRepresentation(forTypeIdentifier: UTType.pdf.identifier) { [weak self] url, _ in
            guard let self, let url else { return }
            let copy = FileManager.default.temporaryDirectory.appendingPathComponent(url.lastPathComponent)
            try? FileManager.default.copyItem(at: url, to: copy)
            self.uploader.upload(copy)
            DispatchQueue.main.async {
                self.extensionContext?.completeRequest(returningItems: nil)
            }
        }
    }
}

final class PDFUploader {
    private let lock = NSLock()
    private var task: URLSessionUploadTask?
    private let finished = DispatchSemaphore(value: 0)

    func upload(_ file: URL) {
        ProcessInfo.processInfo.performExpiringActivity(withReason: "Upload PDF") { [self] expired in
            if expired {
                lock.lock()
                let running = task
                lock.unlock()
                running?.cancel()
                finished.signal()
                return
            }

            var request = URLRequest(url: URL(string: "https://docs.example.com/api/upload")!)
            request.httpMethod = "POST"
            request.setValue("application/pdf", forHTTPHeaderField: "Content-Type")
            let upload = URLSession.shared.uploadTask(with: request, fromFile: file) { [self] _, _, _ in
                try? FileManager.default.removeItem(at: file)
                finished.signal()
            }
            lock.lock()
            task = upload
            lock.unlock()
            upload.resume()
            finished.wait()
        }
    }
}
