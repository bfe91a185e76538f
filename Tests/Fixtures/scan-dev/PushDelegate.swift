import UIKit

final class PushDelegate: NSObject, UIApplicationDelegate {
    func application(_ application: UIApplication, didReceiveRemoteNotification userInfo: [AnyHashable: Any], // expect-finding: push-completion-skipped
                     fetchCompletionHandler completionHandler: @escaping (UIBackgroundFetchResult) -> Void) {
        guard let id = userInfo["id"] as? String else { return }
        Inbox.shared.fetch(id) { _ in
            completionHandler(.newData)
        }
    }
}
