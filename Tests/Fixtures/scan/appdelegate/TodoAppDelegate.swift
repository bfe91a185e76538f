import UIKit

@main
@MainActor
final class TodoAppDelegate: UIResponder, UIApplicationDelegate {
    var window: UIWindow?
    let repository = TodoRepository()

    func applicationDidEnterBackground(_ application: UIApplication) {
        Task {
            await saveAndSync()
        }
    }

    /// Main actor: the expiration handler, the `defer` and the store of `taskID` all run on main,
    /// so whichever ends the task first leaves `.invalid` for the other.
    func saveAndSync() async {
        var taskID = UIBackgroundTaskIdentifier.invalid
        taskID = UIApplication.shared.beginBackgroundTask(withName: "SaveTodos") {
            UIApplication.shared.endBackgroundTask(taskID)
            taskID = .invalid
        }
        defer {
            if taskID != .invalid {
                UIApplication.shared.endBackgroundTask(taskID)
                taskID = .invalid
            }
        }

        do {
            try repository.saveLocally()
            try await repository.pushChanges()
        } catch {
            repository.recordSyncFailure(error)
        }
    }
}

@MainActor
final class TodoRepository {
    private var items: [TodoItem] = []
    private var lastError: Error?

    func saveLocally() throws {
        let url = FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask)[0]
            .appendingPathComponent("todos.json")
        try JSONEncoder().encode(items).write(to: url, options: .atomic)
    }

    func pushChanges() async throws {
        var request = URLRequest(url: URL(string: "https://todo.example.com/api/items")!)
        request.httpMethod = "PUT"
        request.httpBody = try JSONEncoder().encode(items)
        let (_, response) = try await URLSession.shared.data(for: request)
        guard (response as? HTTPURLResponse)?.statusCode == 204 else {
            throw URLError(.badServerResponse)
        }
    }

    func recordSyncFailure(_ error: Error) {
        lastError = error
    }
}

struct TodoItem: Codable {
    var id: UUID
    var title: String
    var done: Bool
}
