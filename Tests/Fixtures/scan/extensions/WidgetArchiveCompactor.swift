import Foundation
import WidgetKit

/// Widget extension helper: compacts the widget's history archive when a timeline is requested.
/// The work runs in the block itself, one chunk at a time, and stops as soon as the system calls
/// the block again with `expired`.
final class ArchiveCompactor {
    private let lock = NSLock()
    private var stopRequested = false
    private let archive: URL

    init(archive: URL) {
        self.archive = archive
    }

    func compact() {
        ProcessInfo.processInfo.performExpiringActivity(withReason: "Compact widget archive") { [self] expired in
            if expired {
                lock.lock()
                stopRequested = true
                lock.unlock()
                return
            }
            for chunk in chunks() {
                lock.lock()
                let stop = stopRequested
                lock.unlock()
                if stop { break }
                rewrite(chunk)
            }
            WidgetCenter.shared.reloadTimelines(ofKind: "History")
        }
    }

    private func chunks() -> [Range<Int>] {
        let size = (try? FileManager.default.attributesOfItem(atPath: archive.path)[.size] as? Int) ?? 0
        return stride(from: 0, to: size, by: 64 * 1024).map { $0..<min($0 + 64 * 1024, size) }
    }

    private func rewrite(_ chunk: Range<Int>) {
        guard let handle = try? FileHandle(forUpdating: archive) else { return }
        defer { try? handle.close() }
        try? handle.seek(toOffset: UInt64(chunk.lowerBound))
        _ = try? handle.read(upToCount: chunk.count)
    }
}
