import UIKit
import Combine

@main
final class PriceAlertsAppDelegate: UIResponder, UIApplicationDelegate {
    var window: UIWindow?
    private let alerts = PriceAlertService()
    private var pushSubscriptions: [UUID: AnyCancellable] = [:]

    func application(_ application: UIApplication,
                     didReceiveRemoteNotification userInfo: [AnyHashable: Any],
                     fetchCompletionHandler completionHandler: @escaping (UIBackgroundFetchResult) -> Void) {
        guard let productID = userInfo["product_id"] as? String else {
            completionHandler(.noData)
            return
        }

        let key = UUID()
        pushSubscriptions[key] = alerts.checkPrice(productID: productID)
            .timeout(.seconds(25), scheduler: DispatchQueue.main, customError: { URLError(.timedOut) })
            .receive(on: DispatchQueue.main)
            .sink(receiveCompletion: { [weak self] completion in
                if case .failure = completion {
                    completionHandler(.failed)
                }
                self?.pushSubscriptions[key] = nil
            }, receiveValue: { dropped in
                completionHandler(dropped ? .newData : .noData)
            })
    }
}

final class PriceAlertService {
    /// Emits exactly one value (whether the price dropped below the alert) or fails.
    func checkPrice(productID: String) -> AnyPublisher<Bool, Error> {
        URLSession.shared.dataTaskPublisher(for: URL(string: "https://deals.example.com/price/\(productID)")!)
            .tryMap { output -> Bool in
                guard let http = output.response as? HTTPURLResponse, http.statusCode == 200 else {
                    throw URLError(.badServerResponse)
                }
                let price = try JSONDecoder().decode(PriceCheck.self, from: output.data)
                return price.current < price.alertThreshold
            }
            .first()
            .eraseToAnyPublisher()
    }
}

struct PriceCheck: Decodable {
    let current: Decimal
    let alertThreshold: Decimal
}
