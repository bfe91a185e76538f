import SwiftUI
import BackgroundTasks

@main
struct JournalingApp: App {
    @UIApplicationDelegateAdaptor(JournalingAppDelegate.self) private var appDelegate

    var body: some Scene {
        WindowGroup {
            ContentView()
        }
    }
}

final class JournalingAppDelegate: NSObject, UIApplicationDelegate {
    static let backupIdentifier = "com.example.journaling.backup"
    private let backupQueue = DispatchQueue(label: "com.example.journaling.backup-task")

    func application(_ application: UIApplication,
                     didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]? = nil) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: Self.backupIdentifier, using: backupQueue) { [weak self] task in
            self?.runBackup(task as! BGProcessingTask) ?? task.setTaskCompleted(success: false)
        }
        return true
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        let request = BGProcessingTaskRequest(identifier: Self.backupIdentifier)
        request.requiresNetworkConnectivity = true
        request.requiresExternalPower = true
        try? BGTaskScheduler.shared.submit(request)
    }

    /// Runs on `backupQueue`, like the expiration handler; `completed` is only touched there.
    private func runBackup(_ task: BGProcessingTask) {
        var completed = false
        let complete: (Bool) -> Void = { success in
            guard !completed else { return }
            completed = true
            task.setTaskCompleted(success: success)
        }

        let work = Task.detached(priority: .background) {
            try await JournalBackup().uploadChangedEntries()
        }
        task.expirationHandler = {
            work.cancel()
            complete(false)
        }
        Task.detached { [backupQueue] in
            let result = await work.result
            backupQueue.async {
                if case .success = result {
                    complete(true)
                } else {
                    complete(false)
                }
            }
        }
    }
}

struct JournalBackup {
    func uploadChangedEntries() async throws {
        let folder = FileManager.default.urls(for: .documentDirectory, in: .userDomainMask)[0]
        let entries = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
        for entry in entries where entry.pathExtension == "journal" {
            try Task.checkCancellation()
            var request = URLRequest(url: URL(string: "https://backup.example.com/journal/\(entry.lastPathComponent)")!)
            request.httpMethod = "PUT"
            _ = try await URLSession.shared.upload(for: request, fromFile: entry)
        }
    }
}

struct ContentView: View {
    var body: some View {
        Text("Journal")
    }
}
