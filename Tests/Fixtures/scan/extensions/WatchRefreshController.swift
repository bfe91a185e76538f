import WatchKit
import Foundation

/// watchOS app delegate: saves the workout summary to the phone-side server when the app is
/// deactivated.
final class ExtensionDelegate: NSObject, WKApplicationDelegate {
    private let summaries = SummaryUploader()

    func applicationWillResignActive() {
        ProcessInfo.processInfo.performExpiringActivity(withReason: "Upload workout summary") { expired in // expect-finding: expiring-activity-returns-early
            if expired {
                Task { await self.summaries.cancel() }
            } else {
                Task {
                    await self.summaries.uploadLatest()
                }
            }
        }
    }

    func handle(_ backgroundTasks: Set<WKRefreshBackgroundTask>) {
        for task in backgroundTasks {
            task.setTaskCompletedWithSnapshot(false)
        }
    }
}

actor SummaryUploader {
    private var current: Task<Void, Never>?

    func uploadLatest() async {
        let upload = Task {
            guard let summary = WorkoutLog.latestSummary() else { return }
            var request = URLRequest(url: URL(string: "https://fitness.example.com/api/summaries")!)
            request.httpMethod = "POST"
            request.httpBody = summary
            _ = try? await URLSession.shared.data(for: request)
        }
        current = upload
        await upload.value
        current = nil
    }

    func cancel() {
        current?.cancel()
    }
}

enum WorkoutLog {
    static func latestSummary() -> Data? {
        let url = FileManager.default.urls(for: .documentDirectory, in: .userDomainMask)[0]
            .appendingPathComponent("latest-summary.json")
        return try? Data(contentsOf: url)
    }
}
