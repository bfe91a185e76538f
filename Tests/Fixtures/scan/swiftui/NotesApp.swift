import SwiftUI

@main
struct NotesApp: App {
    @Environment(\.scenePhase) private var scenePhase
    @StateObject private var notebook = Notebook()

    var body: some Scene {
        WindowGroup {
            NotebookView()
                .environmentObject(notebook)
        }
        .onChange(of: scenePhase) { newPhase in
            guard newPhase == .background else { return }
            let taskID = UIApplication.shared.beginBackgroundTask(withName: "SaveNotebook", expirationHandler: nil) // expect-finding: no-expiration-handler
            notebook.save {
                UIApplication.shared.endBackgroundTask(taskID)
            }
        }
    }
}

final class Notebook: ObservableObject {
    @Published var notes: [Note] = []
    private let ioQueue = DispatchQueue(label: "com.example.notes.io", qos: .userInitiated)

    private var fileURL: URL {
        FileManager.default.urls(for: .documentDirectory, in: .userDomainMask)[0].appendingPathComponent("notes.json")
    }

    /// Calls `completion` on the main queue once the notes are on disk.
    func save(completion: @escaping () -> Void) {
        let snapshot = notes
        ioQueue.async { [fileURL] in
            if let data = try? JSONEncoder().encode(snapshot) {
                try? data.write(to: fileURL, options: .atomic)
            }
            DispatchQueue.main.async(execute: completion)
        }
    }
}

struct Note: Codable, Identifiable {
    var id = UUID()
    var text: String
}

struct NotebookView: View {
    @EnvironmentObject private var notebook: Notebook

    var body: some View {
        NavigationStack {
            List($notebook.notes) { $note in
                TextField("Note", text: $note.text)
            }
            .toolbar {
                Button("Add") { notebook.notes.append(Note(text: "")) }
            }
            .navigationTitle("Notes")
        }
    }
}
