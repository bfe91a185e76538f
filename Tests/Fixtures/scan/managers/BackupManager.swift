import Foundation
import BackgroundTasks
import CoreData

/// Exports the Core Data store to iCloud Drive overnight. `registerTasks()` is called from
/// `application(_:didFinishLaunchingWithOptions:)`.
final class BackupManager {
    static let shared = BackupManager()
    static let taskIdentifier = "com.example.ledger.nightly-backup"

    private let container: NSPersistentContainer

    init(container: NSPersistentContainer = NSPersistentContainer(name: "Ledger")) {
        self.container = container
    }

    func registerTasks() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: Self.taskIdentifier, using: nil) { task in // expect-finding: bgtask-no-expiration-handler
            self.performBackup(task: task as! BGProcessingTask)
        }
    }

    func scheduleBackup() {
        let request = BGProcessingTaskRequest(identifier: Self.taskIdentifier)
        request.requiresExternalPower = true
        request.requiresNetworkConnectivity = true
        request.earliestBeginDate = Calendar.current.nextDate(after: Date(), matching: DateComponents(hour: 2),
                                                              matchingPolicy: .nextTime)
        do {
            try BGTaskScheduler.shared.submit(request)
        } catch {
            NSLog("Backup scheduling failed: %@", error.localizedDescription)
        }
    }

    private func performBackup(task: BGProcessingTask) {
        scheduleBackup()
        let context = container.newBackgroundContext()
        context.perform {
            do {
                let request = NSFetchRequest<NSManagedObject>(entityName: "Transaction")
                let rows = try context.fetch(request)
                let export = rows.map { $0.dictionaryWithValues(forKeys: ["amount", "date", "payee"]) }
                let data = try JSONSerialization.data(withJSONObject: export.map { $0.mapValues { "\($0)" } })
                guard let drive = FileManager.default.url(forUbiquityContainerIdentifier: nil) else {
                    task.setTaskCompleted(success: false)
                    return
                }
                try data.write(to: drive.appendingPathComponent("Documents/ledger-backup.json"), options: .atomic)
                task.setTaskCompleted(success: true)
            } catch {
                task.setTaskCompleted(success: false)
            }
        }
    }
}
