import UIKit
import UserNotifications
import os

@main
final class ChatAppDelegate: UIResponder, UIApplicationDelegate {
    var window: UIWindow?
    private let pushHandler = ChatPushHandler()

    func application(_ application: UIApplication,
                     didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        application.registerForRemoteNotifications()
        return true
    }

    func application(_ application: UIApplication, didReceiveRemoteNotification userInfo: [AnyHashable: Any], // expect-finding: push-completion-skipped
                     fetchCompletionHandler completionHandler: @escaping (UIBackgroundFetchResult) -> Void) {
        Task {
            do {
                let count = try await pushHandler.syncConversation(from: userInfo)
                completionHandler(count > 0 ? .newData : .noData)
            } catch {
                Logger(subsystem: "com.example.chat", category: "push").error("Sync failed: \(error.localizedDescription)")
            }
        }
    }
}

enum ChatPushError: Error {
    case missingConversation
}

actor ChatPushHandler {
    private var lastSyncedMessage: [String: String] = [:]

    func syncConversation(from userInfo: [AnyHashable: Any]) async throws -> Int {
        guard let conversationID = userInfo["conversation_id"] as? String else {
            throw ChatPushError.missingConversation
        }
        var components = URLComponents(string: "https://chat.example.com/api/conversations/\(conversationID)/messages")!
        if let after = lastSyncedMessage[conversationID] {
            components.queryItems = [URLQueryItem(name: "after", value: after)]
        }
        let (data, _) = try await URLSession.shared.data(from: components.url!)
        let messages = try JSONDecoder().decode([ChatMessage].self, from: data)
        if let last = messages.last {
            lastSyncedMessage[conversationID] = last.id
        }
        return messages.count
    }
}

struct ChatMessage: Decodable {
    let id: String
    let sender: String
    let text: String
}
