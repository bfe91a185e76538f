import UIKit
import Combine

@main
final class FeedRefreshAppDelegate: UIResponder, UIApplicationDelegate {
    var window: UIWindow?
    private let feed = FeedService()
    private var cancellables = Set<AnyCancellable>()

    func application(_ application: UIApplication,
                     didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        application.registerForRemoteNotifications()
        return true
    }

    func application(_ application: UIApplication, didReceiveRemoteNotification userInfo: [AnyHashable: Any], // expect-finding: push-completion-skipped
                     fetchCompletionHandler completionHandler: @escaping (UIBackgroundFetchResult) -> Void) {
        let since = (userInfo["since"] as? TimeInterval).map(Date.init(timeIntervalSince1970:)) ?? .distantPast
        feed.latestPosts(since: since)
            .timeout(.seconds(20), scheduler: DispatchQueue.main)
            .receive(on: DispatchQueue.main)
            .sink(receiveCompletion: { completion in
                if case .failure(let error) = completion {
                    print("Feed refresh failed: \(error)")
                }
            }, receiveValue: { [weak self] posts in
                self?.feed.store(posts)
                completionHandler(posts.isEmpty ? .noData : .newData)
            })
            .store(in: &cancellables)
    }
}

final class FeedService {
    private let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }()
    private(set) var cached: [Post] = []

    func latestPosts(since date: Date) -> AnyPublisher<[Post], Error> {
        var components = URLComponents(string: "https://social.example.com/api/feed")!
        components.queryItems = [URLQueryItem(name: "since", value: ISO8601DateFormatter().string(from: date))]
        return URLSession.shared.dataTaskPublisher(for: components.url!)
            .map(\.data)
            .decode(type: [Post].self, decoder: decoder)
            .eraseToAnyPublisher()
    }

    func store(_ posts: [Post]) {
        cached = (posts + cached).prefix(500).map { $0 }
    }
}

struct Post: Codable, Identifiable {
    let id: String
    let author: String
    let body: String
    let createdAt: Date
}
