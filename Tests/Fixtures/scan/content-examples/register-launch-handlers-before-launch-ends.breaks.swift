// Mirrors Content rule `register-launch-handlers-before-launch-ends`, example "registered when a
// screen first appears" (scenario breaks, Content/documents/bgtaskscheduler.md).
import UIKit
import BackgroundTasks

final class SettingsViewController: UIViewController {
    override func viewDidAppear(_ animated: Bool) {
        super.viewDidAppear(animated)
        settingsScreenDidAppear()
    }

    private func settingsScreenDidAppear() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.refresh", using: nil) { task in // expect-finding: late-registration
            task.setTaskCompleted(success: true)
        }
    }
}
