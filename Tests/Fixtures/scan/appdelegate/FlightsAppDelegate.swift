import UIKit
import BackgroundTasks

@main
final class FlightsAppDelegate: UIResponder, UIApplicationDelegate {
    static let boardingPassRefresh = "com.example.flights.boarding-passes"

    var window: UIWindow?
    private let wallet = BoardingPassWallet()

    /// Registered in `willFinishLaunching`, which also runs before launch ends.
    func application(_ application: UIApplication,
                     willFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]? = nil) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: Self.boardingPassRefresh, using: DispatchQueue.main) { task in
            self.refreshBoardingPasses(task: task as! BGAppRefreshTask)
        }
        return true
    }

    func application(_ application: UIApplication,
                     didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]? = nil) -> Bool {
        window = UIWindow(frame: UIScreen.main.bounds)
        window?.rootViewController = UIViewController()
        window?.makeKeyAndVisible()
        return true
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        guard wallet.hasUpcomingFlight else { return }
        let request = BGAppRefreshTaskRequest(identifier: Self.boardingPassRefresh)
        request.earliestBeginDate = Date(timeIntervalSinceNow: 20 * 60)
        try? BGTaskScheduler.shared.submit(request)
    }

    /// Runs on main (the queue given to register), like its expiration handler and the
    /// wallet's callback, so `done` needs no lock.
    private func refreshBoardingPasses(task: BGAppRefreshTask) {
        var done = false
        let refresh = wallet.refresh { changed in
            guard !done else { return }
            done = true
            task.setTaskCompleted(success: changed != nil)
        }
        task.expirationHandler = {
            refresh.cancel()
            guard !done else { return }
            done = true
            task.setTaskCompleted(success: false)
        }
    }
}

final class BoardingPassWallet {
    var hasUpcomingFlight: Bool { true }

    /// Calls back on the main queue with whether anything changed, or nil on failure (including
    /// cancellation).
    func refresh(completion: @escaping (Bool?) -> Void) -> URLSessionDataTask {
        let task = URLSession.shared.dataTask(with: URL(string: "https://flights.example.com/api/passes")!) { data, _, error in
            DispatchQueue.main.async {
                completion(error == nil ? (data?.isEmpty == false) : nil)
            }
        }
        task.resume()
        return task
    }
}
