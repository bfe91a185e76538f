import UIKit

/// Async/await upload of voice memos. The background task is begun, checked and ended on the main
/// actor; the upload itself runs off main and is cancelled when the system calls the task in.
@MainActor
final class AsyncUploader {
    enum UploadError: Error {
        case rejected
    }

    private let endpoint = URL(string: "https://memos.example.com/upload")!

    func upload(memo fileURL: URL) async throws {
        var backgroundTaskID = UIBackgroundTaskIdentifier.invalid
        let uploadTask = Task.detached(priority: .utility) { [endpoint] in
            var request = URLRequest(url: endpoint)
            request.httpMethod = "POST"
            request.setValue("audio/m4a", forHTTPHeaderField: "Content-Type")
            let (_, response) = try await URLSession.shared.upload(for: request, fromFile: fileURL)
            guard (response as? HTTPURLResponse)?.statusCode == 201 else { throw UploadError.rejected }
        }
        backgroundTaskID = UIApplication.shared.beginBackgroundTask(withName: "MemoUpload") {
            uploadTask.cancel()
            if backgroundTaskID != .invalid {
                UIApplication.shared.endBackgroundTask(backgroundTaskID)
                backgroundTaskID = .invalid
            }
        }
        defer {
            if backgroundTaskID != .invalid {
                UIApplication.shared.endBackgroundTask(backgroundTaskID)
                backgroundTaskID = .invalid
            }
        }

        try await uploadTask.value
        try? FileManager.default.removeItem(at: fileURL)
    }
}
