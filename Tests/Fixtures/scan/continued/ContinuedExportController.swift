import UIKit
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

/// Renders a photo book to PDF after the user taps Create Book (iOS 26). The work checks a
/// cancellation flag between pages and completes the task exactly once, on every path, including
/// after the system's expiration handler.
final class ContinuedExportController {
    static let shared = ContinuedExportController()
    static let identifierPrefix = "com.example.photobook.render"

    private let lock = NSLock()
    private var books: [String: PhotoBook] = [:]

    /// Called from the Create Book button. A continued-processing handler may be registered after
    /// launch; it is registered here, once per job, under the job's own identifier.
    func createBook(_ book: PhotoBook) {
        let suffix = book.id.uuidString
        let identifier = "\(Self.identifierPrefix).\(suffix)"
        lock.lock()
        books[suffix] = book
        lock.unlock()

        BGTaskScheduler.shared.register(forTaskWithIdentifier: identifier, using: nil) { [weak self] task in
            guard let self, let task = task as? BGContinuedProcessingTask else {
                task.setTaskCompleted(success: false)
                return
            }
            self.render(task)
        }

        let request = BGContinuedProcessingTaskRequest(identifier: identifier,
                                                       title: "Creating \(book.title)",
                                                       subtitle: "\(book.pages.count) pages")
        do {
            try BGTaskScheduler.shared.submit(request)
        } catch {
            lock.lock()
            books[suffix] = nil
            lock.unlock()
        }
    }

    private func render(_ task: BGContinuedProcessingTask) {
        let suffix = String(task.identifier.dropFirst(Self.identifierPrefix.count + 1))
        lock.lock()
        let book = books.removeValue(forKey: suffix)
        lock.unlock()
        guard let book else {
            task.setTaskCompleted(success: false)
            return
        }

        let state = RenderState()
        task.expirationHandler = {
            state.cancel()
            if state.finishOnce() {
                task.setTaskCompleted(success: false)
            }
        }

        task.progress.totalUnitCount = Int64(book.pages.count)
        DispatchQueue.global(qos: .userInitiated).async {
            var success = true
            let renderer = PDFRenderer(destination: book.outputURL)
            for (index, page) in book.pages.enumerated() {
                if state.isCancelled {
                    success = false
                    break
                }
                renderer.draw(page)
                task.progress.completedUnitCount = Int64(index + 1)
            }
            renderer.close()
            if state.finishOnce() {
                task.setTaskCompleted(success: success)
            }
        }
    }
}

final class RenderState: @unchecked Sendable {
    private let lock = NSLock()
    private var cancelled = false
    private var finished = false

    var isCancelled: Bool {
        lock.lock(); defer { lock.unlock() }
        return cancelled
    }

    func cancel() {
        lock.lock(); cancelled = true; lock.unlock()
    }

    /// True for the first caller only.
    func finishOnce() -> Bool {
        lock.lock(); defer { lock.unlock() }
        guard !finished else { return false }
        finished = true
        return true
    }
}

struct PhotoBook {
    let id: UUID
    let title: String
    let pages: [UIImage]
    let outputURL: URL
}

final class PDFRenderer {
    private let context: UIGraphicsPDFRenderer
    private var pages: [UIImage] = []
    private let destination: URL

    init(destination: URL) {
        self.destination = destination
        context = UIGraphicsPDFRenderer(bounds: CGRect(x: 0, y: 0, width: 612, height: 792))
    }

    func draw(_ page: UIImage) {
        pages.append(page)
    }

    func close() {
        try? context.writePDF(to: destination) { ctx in
            for page in pages {
                ctx.beginPage()
                page.draw(in: ctx.pdfContextBounds)
            }
        }
    }
}
