import UIKit
import os

/// Persists the podcast player's position. The save may be triggered from the audio thread or from
/// main; the identifier sits behind an unfair lock, and whoever takes it out of the lock ends it,
/// so the save path and the expiration handler cannot both end it.
final class PlaybackStateStore {
    private let pendingTask = OSAllocatedUnfairLock<UIBackgroundTaskIdentifier?>(initialState: nil)
    private let ioQueue = DispatchQueue(label: "com.example.player.state", qos: .utility)
    private let fileURL = FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask)[0]
        .appendingPathComponent("playback.plist")

    /// Main thread, from `sceneWillResignActive(_:)`.
    func savePosition(_ position: PlaybackPosition) {
        dispatchPrecondition(condition: .onQueue(.main))
        guard pendingTask.withLock({ $0 == nil }) else { return }

        let id = UIApplication.shared.beginBackgroundTask(withName: "SavePlaybackPosition") { [weak self] in
            self?.endPendingTask()
        }
        pendingTask.withLock { $0 = id }

        ioQueue.async { [weak self, fileURL] in
            if let data = try? PropertyListEncoder().encode(position) {
                try? data.write(to: fileURL, options: .atomic)
            }
            self?.endPendingTask()
        }
    }

    private func endPendingTask() {
        let id = pendingTask.withLock { state -> UIBackgroundTaskIdentifier? in
            defer { state = nil }
            return state
        }
        if let id, id != .invalid {
            UIApplication.shared.endBackgroundTask(id)
        }
    }
}

struct PlaybackPosition: Codable {
    let episodeID: String
    let seconds: Double
    let rate: Float
}
