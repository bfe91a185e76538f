import UIKit
import StoreKit

/// Validates the App Store receipt with the app's server after each purchase.
@MainActor
final class ReceiptValidator {
    private let endpoint = URL(string: "https://store.example.com/verify-receipt")!
    private var validation: Task<Void, Never>?
    private var taskID: UIBackgroundTaskIdentifier = .invalid

    func validateAfterPurchase() {
        guard validation == nil else { return }
        taskID = UIApplication.shared.beginBackgroundTask(withName: "ValidateReceipt") { [weak self] in // expect-finding: never-ended
            self?.validation?.cancel()
        }

        validation = Task {
            guard let receiptURL = Bundle.main.appStoreReceiptURL,
                  let receipt = try? Data(contentsOf: receiptURL) else {
                return
            }

            var request = URLRequest(url: endpoint)
            request.httpMethod = "POST"
            request.httpBody = receipt.base64EncodedData()

            do {
                let (data, _) = try await URLSession.shared.data(for: request)
                let status = try JSONDecoder().decode(ReceiptStatus.self, from: data)
                Entitlements.shared.apply(status)
            } catch is CancellationError {
                return
            } catch {
                Entitlements.shared.markPendingValidation()
            }
            validation = nil
            finishBackgroundTask()
        }
    }

    private func finishBackgroundTask() {
        guard taskID != .invalid else { return }
        UIApplication.shared.endBackgroundTask(taskID)
        taskID = .invalid
    }
}

struct ReceiptStatus: Decodable {
    let isPremium: Bool
    let expiresAt: Date?
}

@MainActor
final class Entitlements {
    static let shared = Entitlements()
    private(set) var isPremium = false
    private(set) var needsValidation = false

    func apply(_ status: ReceiptStatus) {
        isPremium = status.isPremium
        needsValidation = false
    }

    func markPendingValidation() {
        needsValidation = true
    }
}
