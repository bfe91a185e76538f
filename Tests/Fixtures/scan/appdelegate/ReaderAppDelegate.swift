import UIKit

@main
class ReaderAppDelegate: UIResponder, UIApplicationDelegate {
    var window: UIWindow?
    let library = ReadingLibrary()

    func applicationDidEnterBackground(_ application: UIApplication) {
        var taskID = UIBackgroundTaskIdentifier.invalid
        taskID = application.beginBackgroundTask(withName: "PersistReadingPositions") {
            application.endBackgroundTask(taskID)
            taskID = .invalid
        }
        defer {
            if taskID != .invalid {
                application.endBackgroundTask(taskID) // expect-finding: ended-twice
            }
        }

        do {
            try library.persistPositions()
            application.endBackgroundTask(taskID)
        } catch {
            print("Could not persist reading positions: \(error)")
        }
    }
}

final class ReadingLibrary {
    private var positions: [String: Double] = [:]

    func persistPositions() throws {
        let url = FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask)[0]
            .appendingPathComponent("positions.json")
        let data = try JSONEncoder().encode(positions)
        try data.write(to: url, options: [.atomic, .completeFileProtectionUntilFirstUserAuthentication])
    }

    func updatePosition(_ position: Double, forBook bookID: String) {
        positions[bookID] = position
    }

    func position(forBook bookID: String) -> Double {
        positions[bookID] ?? 0
    }

    func reset() {
        positions.removeAll()
    }
}
