import UIKit
import AVFoundation

/// Exports edited clips to the photo library's import folder.
@MainActor
final class MediaExportCoordinator {
    private var backgroundTask: UIBackgroundTaskIdentifier = .invalid
    private var exporter: ClipExporter?

    func export(_ asset: AVAsset, to url: URL) async {
        guard exporter == nil else { return }
        backgroundTask = UIApplication.shared.beginBackgroundTask(withName: "ClipExport") { [weak self] in
            guard let self else { return }
            self.exporter?.cancel()
            UIApplication.shared.endBackgroundTask(self.backgroundTask)
        }

        let exporter = ClipExporter(asset: asset, outputURL: url)
        self.exporter = exporter
        do {
            try await exporter.run()
            NotificationCenter.default.post(name: .clipExported, object: url)
        } catch {
            NotificationCenter.default.post(name: .clipExportFailed, object: error)
        }

        self.exporter = nil
        UIApplication.shared.endBackgroundTask(backgroundTask) // expect-finding: ended-twice
        backgroundTask = .invalid
    }
}

actor ClipExporter {
    private let session: AVAssetExportSession?

    init(asset: AVAsset, outputURL: URL) {
        session = AVAssetExportSession(asset: asset, presetName: AVAssetExportPresetHEVCHighestQuality)
        session?.outputURL = outputURL
        session?.outputFileType = .mov
    }

    func run() async throws {
        guard let session else { throw CocoaError(.featureUnsupported) }
        await session.export()
        if let error = session.error { throw error }
        if session.status == .cancelled { throw CancellationError() }
    }

    nonisolated func cancel() {
        session?.cancelExport()
    }
}

extension Notification.Name {
    static let clipExported = Notification.Name("ClipExported")
    static let clipExportFailed = Notification.Name("ClipExportFailed")
}
