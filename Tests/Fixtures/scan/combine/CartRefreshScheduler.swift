import Foundation
import BackgroundTasks
import Combine

/// Refreshes prices in the saved cart from a BGAppRefreshTask, with a Combine pipeline.
/// `register()` is called from `application(_:didFinishLaunchingWithOptions:)`. The launch
/// handler, the expiration handler and the pipeline's output all run on the main queue.
final class CartRefreshScheduler {
    static let identifier = "com.example.shop.cart-prices"

    private let cart: SavedCart
    private var subscription: AnyCancellable?

    init(cart: SavedCart) {
        self.cart = cart
    }

    func register() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: Self.identifier, using: .main) { [weak self] task in
            guard let self else {
                task.setTaskCompleted(success: false)
                return
            }
            self.refresh(task)
        }
    }

    func schedule() {
        let request = BGAppRefreshTaskRequest(identifier: Self.identifier)
        request.earliestBeginDate = Date(timeIntervalSinceNow: 2 * 3600)
        try? BGTaskScheduler.shared.submit(request)
    }

    private func refresh(_ task: BGTask) {
        schedule()
        var completed = false
        func complete(_ success: Bool) {
            guard !completed else { return }
            completed = true
            task.setTaskCompleted(success: success)
        }

        task.expirationHandler = { [weak self] in
            self?.subscription?.cancel()
            complete(false)
        }

        subscription = cart.latestPrices()
            .receive(on: DispatchQueue.main)
            .sink(receiveCompletion: { result in
                if case .failure = result {
                    complete(false)
                }
            }, receiveValue: { [weak self] prices in
                self?.cart.apply(prices)
                complete(true)
            })
    }
}

final class SavedCart {
    private(set) var prices: [String: Decimal] = [:]

    func latestPrices() -> AnyPublisher<[String: Decimal], Error> {
        URLSession.shared.dataTaskPublisher(for: URL(string: "https://shop.example.com/api/cart/prices")!)
            .map(\.data)
            .decode(type: [String: Decimal].self, decoder: JSONDecoder())
            .first()
            .eraseToAnyPublisher()
    }

    func apply(_ prices: [String: Decimal]) {
        self.prices = prices
    }
}
