import UIKit

/// A small completion-handler API client. Requests marked `finishInBackground` hold their own
/// background task: each call keeps its identifier in a local captured by its own closures, and
/// both the completion and the expiration handler end it on main.
final class APIClient {
    enum APIError: Error {
        case status(Int)
        case emptyBody
    }

    private let baseURL: URL
    private let session: URLSession

    init(baseURL: URL = URL(string: "https://api.example.com")!, session: URLSession = .shared) {
        self.baseURL = baseURL
        self.session = session
    }

    /// Call on the main thread.
    func send<T: Decodable>(_ path: String, method: String = "GET", body: Data? = nil,
                            finishInBackground: Bool = false,
                            completion: @escaping (Result<T, Error>) -> Void) {
        var request = URLRequest(url: baseURL.appendingPathComponent(path))
        request.httpMethod = method
        request.httpBody = body

        var taskID = UIBackgroundTaskIdentifier.invalid
        var dataTask: URLSessionDataTask?
        let endTask = {
            if taskID != .invalid {
                UIApplication.shared.endBackgroundTask(taskID)
                taskID = .invalid
            }
        }
        if finishInBackground {
            taskID = UIApplication.shared.beginBackgroundTask(withName: "API \(method) \(path)") {
                dataTask?.cancel()
                endTask()
            }
        }

        dataTask = session.dataTask(with: request) { data, response, error in
            let result: Result<T, Error>
            if let error {
                result = .failure(error)
            } else if let status = (response as? HTTPURLResponse)?.statusCode, !(200..<300).contains(status) {
                result = .failure(APIError.status(status))
            } else if let data {
                result = Result { try JSONDecoder().decode(T.self, from: data) }
            } else {
                result = .failure(APIError.emptyBody)
            }
            DispatchQueue.main.async {
                completion(result)
                endTask()
            }
        }
        dataTask?.resume()
    }
}
