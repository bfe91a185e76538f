import UIKit
import os

enum SyncError: Error {
    case notSignedIn
    case conflict(String)
}

/// Serialises all sync work for the app's records.
actor SyncEngine {
    static let shared = SyncEngine()

    private let logger = Logger(subsystem: "com.example.tasks", category: "sync")
    private var pendingChanges: [RecordChange] = []
    private var accountToken: String?

    func record(_ change: RecordChange) {
        pendingChanges.append(change)
    }

    func signIn(token: String) {
        accountToken = token
    }

    /// Called from `sceneDidEnterBackground(_:)` as `Task { try await SyncEngine.shared.pushPending() }`.
    func pushPending() async throws {
        let taskID = await MainActor.run {
            UIApplication.shared.beginBackgroundTask(withName: "SyncEngine.push") { // expect-finding: never-ended
                Logger(subsystem: "com.example.tasks", category: "sync").warning("push expired")
            }
        }

        guard let token = accountToken else {
            throw SyncError.notSignedIn
        }

        let batch = pendingChanges
        pendingChanges.removeAll()

        var request = URLRequest(url: URL(string: "https://tasks.example.com/api/sync")!)
        request.httpMethod = "POST"
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        request.httpBody = try JSONEncoder().encode(batch)

        let (data, response) = try await URLSession.shared.data(for: request)
        if (response as? HTTPURLResponse)?.statusCode == 409 {
            pendingChanges.insert(contentsOf: batch, at: 0)
            throw SyncError.conflict(String(decoding: data, as: UTF8.self))
        }
        logger.info("Pushed \(batch.count) changes")

        await MainActor.run {
            UIApplication.shared.endBackgroundTask(taskID)
        }
    }
}

struct RecordChange: Codable {
    let recordID: UUID
    let field: String
    let value: String
    let modifiedAt: Date
}
