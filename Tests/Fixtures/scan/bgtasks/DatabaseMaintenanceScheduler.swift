import Foundation
import BackgroundTasks
import SQLite3

/// Vacuums the offline database. `register()` is called from
/// `application(_:didFinishLaunchingWithOptions:)`; the handler and the expiration handler both
/// run on `taskQueue`, so `finished` is only touched there.
final class DatabaseMaintenanceScheduler {
    static let identifier = "com.example.maps.db-maintenance"

    private let taskQueue = DispatchQueue(label: "com.example.maps.maintenance")
    private let databasePath: String

    init(databasePath: String) {
        self.databasePath = databasePath
    }

    func register() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: Self.identifier, using: taskQueue) { [weak self] task in
            guard let self else {
                task.setTaskCompleted(success: false)
                return
            }
            var finished = false
            var interrupted = false
            task.expirationHandler = {
                interrupted = true
                if !finished {
                    finished = true
                    task.setTaskCompleted(success: false)
                }
            }
            DispatchQueue.global(qos: .background).async {
                let ok = self.vacuum(shouldStop: { self.taskQueue.sync { interrupted } })
                self.taskQueue.async {
                    guard !finished else { return }
                    finished = true
                    task.setTaskCompleted(success: ok)
                }
            }
            self.schedule()
        }
    }

    func schedule() {
        let request = BGProcessingTaskRequest(identifier: Self.identifier)
        request.requiresExternalPower = true
        request.earliestBeginDate = Date(timeIntervalSinceNow: 7 * 86_400)
        try? BGTaskScheduler.shared.submit(request)
    }

    private func vacuum(shouldStop: () -> Bool) -> Bool {
        var db: OpaquePointer?
        guard sqlite3_open(databasePath, &db) == SQLITE_OK else { return false }
        defer { sqlite3_close(db) }
        if shouldStop() { return false }
        guard sqlite3_exec(db, "PRAGMA incremental_vacuum(2000);", nil, nil, nil) == SQLITE_OK else { return false }
        if shouldStop() { return false }
        return sqlite3_exec(db, "ANALYZE;", nil, nil, nil) == SQLITE_OK
    }
}
