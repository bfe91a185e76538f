import UIKit

@main
final class BankingAppDelegate: UIResponder, UIApplicationDelegate {
    var window: UIWindow?
    let accounts = AccountsService()
    let cards = CardsService()

    func application(_ application: UIApplication,
                     didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        application.registerForRemoteNotifications()
        return true
    }

    func application(_ application: UIApplication,
                     didReceiveRemoteNotification userInfo: [AnyHashable: Any],
                     fetchCompletionHandler completionHandler: @escaping (UIBackgroundFetchResult) -> Void) {
        guard let aps = userInfo["aps"] as? [String: Any], aps["content-available"] as? Int == 1 else {
            completionHandler(.noData)
            return
        }

        let group = DispatchGroup()
        var changed = false
        var failed = false
        let lock = NSLock()

        group.enter()
        accounts.refreshBalances(timeout: 10) { result in
            lock.lock()
            switch result {
            case .success(let didChange): changed = changed || didChange
            case .failure: failed = true
            }
            lock.unlock()
            group.leave()
        }

        group.enter()
        cards.refreshTransactions(timeout: 10) { result in
            lock.lock()
            switch result {
            case .success(let didChange): changed = changed || didChange
            case .failure: failed = true
            }
            lock.unlock()
            group.leave()
        }

        group.notify(queue: .main) {
            if changed {
                completionHandler(.newData)
            } else if failed {
                completionHandler(.failed)
            } else {
                completionHandler(.noData)
            }
        }
    }
}

final class AccountsService {
    func refreshBalances(timeout: TimeInterval, completion: @escaping (Result<Bool, Error>) -> Void) {
        var request = URLRequest(url: URL(string: "https://bank.example.com/v2/balances")!)
        request.timeoutInterval = timeout
        URLSession.shared.dataTask(with: request) { data, _, error in
            if let error { completion(.failure(error)) } else { completion(.success(data?.isEmpty == false)) }
        }.resume()
    }
}

final class CardsService {
    func refreshTransactions(timeout: TimeInterval, completion: @escaping (Result<Bool, Error>) -> Void) {
        var request = URLRequest(url: URL(string: "https://bank.example.com/v2/cards/transactions")!)
        request.timeoutInterval = timeout
        URLSession.shared.dataTask(with: request) { data, _, error in
            if let error { completion(.failure(error)) } else { completion(.success(data?.isEmpty == false)) }
        }.resume()
    }
}
