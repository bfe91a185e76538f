import UIKit
import Security

/// Refreshes the OAuth token before the app is suspended, so the next launch starts signed in.
final class SessionTokenRefresher {
    private let tokenURL = URL(string: "https://auth.example.com/oauth/token")!
    private let workQueue = DispatchQueue(label: "com.example.auth.refresh")
    private var refreshTaskID = UIBackgroundTaskIdentifier.invalid
    private var dataTask: URLSessionDataTask?

    /// Called on the main thread from `sceneWillResignActive(_:)`. The identifier is stored before
    /// any work is dispatched, and every later read and write happens on main.
    func refreshIfNeeded(refreshToken: String) {
        guard refreshTaskID == .invalid else { return }
        refreshTaskID = UIApplication.shared.beginBackgroundTask(withName: "TokenRefresh") { [weak self] in
            self?.dataTask?.cancel()
            self?.endRefreshTask()
        }

        workQueue.async { [weak self] in
            guard let self else { return }
            var request = URLRequest(url: self.tokenURL)
            request.httpMethod = "POST"
            request.httpBody = "grant_type=refresh_token&refresh_token=\(refreshToken)".data(using: .utf8)
            let task = URLSession.shared.dataTask(with: request) { data, _, _ in
                if let data, let token = String(data: data, encoding: .utf8) {
                    Keychain.save(token, account: "access-token")
                }
                DispatchQueue.main.async {
                    self.endRefreshTask()
                }
            }
            DispatchQueue.main.async { self.dataTask = task }
            task.resume()
        }
    }

    private func endRefreshTask() {
        dispatchPrecondition(condition: .onQueue(.main))
        guard refreshTaskID != .invalid else { return }
        UIApplication.shared.endBackgroundTask(refreshTaskID)
        refreshTaskID = .invalid
    }
}

enum Keychain {
    static func save(_ value: String, account: String) {
        let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword,
                                    kSecAttrAccount as String: account]
        SecItemDelete(query as CFDictionary)
        var attributes = query
        attributes[kSecValueData as String] = Data(value.utf8)
        attributes[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlock
        SecItemAdd(attributes as CFDictionary, nil)
    }
}
