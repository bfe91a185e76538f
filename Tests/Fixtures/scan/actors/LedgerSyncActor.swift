import UIKit

/// Keeps the expense ledger in sync. The actor does the work; background time is taken and given
/// back on the main actor, through a box only the main actor touches, and the end runs on every
/// path out of `sync()` (success, thrown error, cancellation).
actor LedgerSyncActor {
    private var dirtyEntries: [LedgerEntry] = []
    private let endpoint = URL(string: "https://ledger.example.com/api/entries")!

    func markDirty(_ entry: LedgerEntry) {
        dirtyEntries.append(entry)
    }

    func sync() async {
        let work = Task { try await self.pushDirtyEntries() }
        let assertion = await MainActor.run {
            MainActorTaskBox(name: "LedgerSync") { work.cancel() }
        }
        do {
            try await work.value
        } catch {
            print("Ledger sync did not finish: \(error)")
        }
        await MainActor.run {
            assertion.end()
        }
    }

    private func pushDirtyEntries() async throws {
        let batch = dirtyEntries
        guard !batch.isEmpty else { return }
        var request = URLRequest(url: endpoint)
        request.httpMethod = "POST"
        request.httpBody = try JSONEncoder().encode(batch)
        let (_, response) = try await URLSession.shared.data(for: request)
        guard (response as? HTTPURLResponse)?.statusCode == 200 else { throw URLError(.badServerResponse) }
        dirtyEntries.removeFirst(batch.count)
    }
}

@MainActor
final class MainActorTaskBox {
    private var id: UIBackgroundTaskIdentifier = .invalid

    init(name: String, onExpiration: @escaping () -> Void) {
        id = UIApplication.shared.beginBackgroundTask(withName: name) { [weak self] in
            onExpiration()
            MainActor.assumeIsolated { self?.end() }
        }
    }

    func end() {
        guard id != .invalid else { return }
        UIApplication.shared.endBackgroundTask(id)
        id = .invalid
    }
}

struct LedgerEntry: Codable, Sendable {
    let id: UUID
    let amount: Decimal
    let category: String
}
