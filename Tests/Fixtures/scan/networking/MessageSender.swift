import UIKit

/// Sends chat messages over HTTPS with completion handlers.
final class MessageSender {
    typealias Completion = (Result<SentMessage, Error>) -> Void

    private let baseURL = URL(string: "https://chat.example.com/api/v2")!
    private let session: URLSession
    private var backgroundTask: UIBackgroundTaskIdentifier = .invalid

    init(session: URLSession = .shared) {
        self.session = session
    }

    /// Called on the main thread each time the user taps Send.
    func send(_ text: String, to conversationID: String, completion: @escaping Completion) {
        backgroundTask = UIApplication.shared.beginBackgroundTask(withName: "SendMessage") { [weak self] in // expect-finding: overwritten-identifier
            guard let self else { return }
            UIApplication.shared.endBackgroundTask(self.backgroundTask)
            self.backgroundTask = .invalid
        }

        var request = URLRequest(url: baseURL.appendingPathComponent("conversations/\(conversationID)/messages"))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try? JSONSerialization.data(withJSONObject: ["text": text])

        session.dataTask(with: request) { [weak self] data, response, error in
            let result: Result<SentMessage, Error>
            if let error {
                result = .failure(error)
            } else if let data, let message = try? JSONDecoder().decode(SentMessage.self, from: data) {
                result = .success(message)
            } else {
                result = .failure(URLError(.cannotParseResponse))
            }
            DispatchQueue.main.async {
                completion(result)
                guard let self, self.backgroundTask != .invalid else { return }
                UIApplication.shared.endBackgroundTask(self.backgroundTask)
                self.backgroundTask = .invalid
            }
        }.resume()
    }
}

struct SentMessage: Decodable {
    let id: String
    let conversationID: String
    let sentAt: Date
}
