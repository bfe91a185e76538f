import UIKit
import Combine

/// Uploads profile edits. Every stage that touches the background task is received on main, so the
/// identifier is stored, read and cleared on one thread.
final class ProfileSyncController {
    private let api: ProfileAPI
    private var taskID = UIBackgroundTaskIdentifier.invalid
    private var subscription: AnyCancellable?

    init(api: ProfileAPI = ProfileAPI()) {
        self.api = api
    }

    /// Called on main by the profile editor's Save button.
    func save(_ profile: Profile) {
        subscription?.cancel()
        endTask()
        taskID = UIApplication.shared.beginBackgroundTask(withName: "ProfileSave") { [weak self] in
            self?.subscription?.cancel()
            self?.endTask()
        }

        subscription = api.update(profile)
            .receive(on: DispatchQueue.main)
            .handleEvents(receiveCancel: { [weak self] in
                self?.endTask()
            })
            .sink(receiveCompletion: { [weak self] completion in
                if case .failure(let error) = completion {
                    NotificationCenter.default.post(name: .profileSaveFailed, object: error)
                }
                self?.endTask()
            }, receiveValue: { saved in
                NotificationCenter.default.post(name: .profileSaved, object: saved)
            })
    }

    private func endTask() {
        guard taskID != .invalid else { return }
        UIApplication.shared.endBackgroundTask(taskID)
        taskID = .invalid
    }
}

struct Profile: Codable {
    var displayName: String
    var bio: String
}

struct ProfileAPI {
    func update(_ profile: Profile) -> AnyPublisher<Profile, Error> {
        var request = URLRequest(url: URL(string: "https://social.example.com/api/me")!)
        request.httpMethod = "PATCH"
        request.httpBody = try? JSONEncoder().encode(profile)
        return URLSession.shared.dataTaskPublisher(for: request)
            .map(\.data)
            .decode(type: Profile.self, decoder: JSONDecoder())
            .eraseToAnyPublisher()
    }
}

extension Notification.Name {
    static let profileSaved = Notification.Name("ProfileSaved")
    static let profileSaveFailed = Notification.Name("ProfileSaveFailed")
}
