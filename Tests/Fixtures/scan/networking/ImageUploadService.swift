import UIKit

/// Uploads avatar images with a completion handler. The task is begun on main before the request
/// starts, and the response handler hops to main and ends it in a `defer`, so every exit of that
/// block (success, HTTP error, decoding failure) ends it once; the expiration handler ends it
/// through the same main-thread method.
final class ImageUploadService {
    enum UploadError: Error {
        case encodingFailed
        case server(Int)
    }

    private var taskID: UIBackgroundTaskIdentifier = .invalid
    private var currentUpload: URLSessionUploadTask?

    /// Main thread.
    func uploadAvatar(_ image: UIImage, completion: @escaping (Result<URL, Error>) -> Void) {
        guard taskID == .invalid else {
            completion(.failure(URLError(.cancelled)))
            return
        }
        guard let jpeg = image.jpegData(compressionQuality: 0.8) else {
            completion(.failure(UploadError.encodingFailed))
            return
        }

        taskID = UIApplication.shared.beginBackgroundTask(withName: "AvatarUpload") { [weak self] in
            self?.currentUpload?.cancel()
            self?.endTask()
        }

        var request = URLRequest(url: URL(string: "https://profiles.example.com/api/avatar")!)
        request.httpMethod = "PUT"
        request.setValue("image/jpeg", forHTTPHeaderField: "Content-Type")
        currentUpload = URLSession.shared.uploadTask(with: request, from: jpeg) { [weak self] data, response, error in
            DispatchQueue.main.async {
                defer { self?.endTask() }
                if let error {
                    completion(.failure(error))
                    return
                }
                let status = (response as? HTTPURLResponse)?.statusCode ?? 0
                guard status == 200 else {
                    completion(.failure(UploadError.server(status)))
                    return
                }
                guard let data, let location = String(data: data, encoding: .utf8), let url = URL(string: location) else {
                    completion(.failure(URLError(.cannotParseResponse)))
                    return
                }
                completion(.success(url))
            }
        }
        currentUpload?.resume()
    }

    private func endTask() {
        currentUpload = nil
        guard taskID != .invalid else { return }
        UIApplication.shared.endBackgroundTask(taskID)
        taskID = .invalid
    }
}
