import SwiftUI

@main
struct MessagesApp: App {
    @UIApplicationDelegateAdaptor(MessagesAppDelegate.self) private var appDelegate

    var body: some Scene {
        WindowGroup {
            InboxView(inbox: appDelegate.inbox)
        }
    }
}

/// The async form of the background-push callback: UIKit calls the completion handler with the
/// value this method returns, on every path.
final class MessagesAppDelegate: NSObject, UIApplicationDelegate {
    let inbox = Inbox()

    func application(_ application: UIApplication,
                     didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]? = nil) -> Bool {
        application.registerForRemoteNotifications()
        return true
    }

    func application(_ application: UIApplication,
                     didReceiveRemoteNotification userInfo: [AnyHashable: Any]) async -> UIBackgroundFetchResult {
        guard let threadID = userInfo["thread"] as? String else { return .noData }
        do {
            let added = try await inbox.fetchNewMessages(in: threadID)
            return added > 0 ? .newData : .noData
        } catch {
            return .failed
        }
    }
}

@MainActor
final class Inbox: ObservableObject {
    @Published private(set) var threads: [String: [String]] = [:]

    func fetchNewMessages(in threadID: String) async throws -> Int {
        let url = URL(string: "https://messages.example.com/api/threads/\(threadID)/new")!
        var request = URLRequest(url: url)
        request.timeoutInterval = 20
        let (data, _) = try await URLSession.shared.data(for: request)
        let messages = try JSONDecoder().decode([String].self, from: data)
        threads[threadID, default: []].append(contentsOf: messages)
        return messages.count
    }
}

struct InboxView: View {
    @ObservedObject var inbox: Inbox

    var body: some View {
        List(inbox.threads.keys.sorted(), id: \.self) { thread in
            Text("\(thread): \(inbox.threads[thread]?.count ?? 0) messages")
        }
    }
}
