import UIKit
import BackgroundTasks

/// The Storage settings screen, where the user turns automatic cleanup on or off.
final class CleanupSettingsViewController: UITableViewController {
    static let cleanupIdentifier = "com.example.files.cleanup"

    private let autoCleanupSwitch = UISwitch()
    private let defaults = UserDefaults.standard

    override func viewDidLoad() {
        super.viewDidLoad()
        title = "Storage"
        autoCleanupSwitch.isOn = defaults.bool(forKey: "autoCleanup")
        autoCleanupSwitch.addTarget(self, action: #selector(autoCleanupChanged), for: .valueChanged)

        BGTaskScheduler.shared.register(forTaskWithIdentifier: Self.cleanupIdentifier, using: .main) { task in // expect-finding: late-registration
            let cleaner = TrashCleaner()
            task.expirationHandler = {
                cleaner.stop()
            }
            cleaner.emptyTrash(olderThan: 30) { removed in
                task.setTaskCompleted(success: true)
            }
        }
    }

    @objc private func autoCleanupChanged() {
        defaults.set(autoCleanupSwitch.isOn, forKey: "autoCleanup")
        if autoCleanupSwitch.isOn {
            let request = BGProcessingTaskRequest(identifier: Self.cleanupIdentifier)
            request.requiresExternalPower = true
            try? BGTaskScheduler.shared.submit(request)
        } else {
            BGTaskScheduler.shared.cancel(taskRequestWithIdentifier: Self.cleanupIdentifier)
        }
    }

    override func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int { 1 }

    override func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
        let cell = UITableViewCell(style: .default, reuseIdentifier: nil)
        cell.textLabel?.text = "Empty trash automatically"
        cell.accessoryView = autoCleanupSwitch
        return cell
    }
}

/// Always calls its completion on the main queue, also after `stop()`.
final class TrashCleaner {
    private var stopped = false

    func stop() { stopped = true }

    func emptyTrash(olderThan days: Int, completion: @escaping (Int) -> Void) {
        DispatchQueue.global(qos: .background).async {
            let trash = FileManager.default.urls(for: .documentDirectory, in: .userDomainMask)[0]
                .appendingPathComponent(".Trash", isDirectory: true)
            let cutoff = Date().addingTimeInterval(TimeInterval(-days * 86_400))
            var removed = 0
            for file in (try? FileManager.default.contentsOfDirectory(at: trash, includingPropertiesForKeys: [.creationDateKey])) ?? [] {
                if self.stopped { break }
                if let created = try? file.resourceValues(forKeys: [.creationDateKey]).creationDate, created < cutoff {
                    try? FileManager.default.removeItem(at: file)
                    removed += 1
                }
            }
            DispatchQueue.main.async { completion(removed) }
        }
    }
}
