import UIKit
import Combine

/// Saves the document a few seconds after the last edit, off the main thread.
final class AutosaveController {
    private let document: DrawingDocument
    private var cancellables = Set<AnyCancellable>()
    private var saveTaskID: UIBackgroundTaskIdentifier = .invalid
    private let saveQueue = DispatchQueue(label: "com.example.sketch.autosave", qos: .utility)

    init(document: DrawingDocument) {
        self.document = document

        document.changes
            .debounce(for: .seconds(2), scheduler: saveQueue)
            .sink { [weak self] snapshot in
                self?.save(snapshot)
            }
            .store(in: &cancellables)
    }

    /// Runs on `saveQueue`.
    private func save(_ snapshot: Data) {
        saveTaskID = UIApplication.shared.beginBackgroundTask(withName: "Autosave") { [weak self] in // expect-finding: identifier-race
            guard let self, self.saveTaskID != .invalid else { return }
            UIApplication.shared.endBackgroundTask(self.saveTaskID)
            self.saveTaskID = .invalid
        }

        do {
            try snapshot.write(to: document.fileURL, options: .atomic)
        } catch {
            document.saveFailed.send(error)
        }

        DispatchQueue.main.sync {
            guard self.saveTaskID != .invalid else { return }
            UIApplication.shared.endBackgroundTask(self.saveTaskID)
            self.saveTaskID = .invalid
        }
    }
}

final class DrawingDocument {
    let fileURL: URL
    let changes = PassthroughSubject<Data, Never>()
    let saveFailed = PassthroughSubject<Error, Never>()

    init(fileURL: URL) {
        self.fileURL = fileURL
    }

    func strokesDidChange(_ encoded: Data) {
        changes.send(encoded)
    }
}
