import SwiftUI
import UIKit

@main
struct ReadingListApp: App {
    @Environment(\.scenePhase) private var scenePhase
    @StateObject private var model = ReadingListModel()

    var body: some Scene {
        WindowGroup {
            ReadingListView()
                .environmentObject(model)
        }
        .onChange(of: scenePhase) { phase in
            if phase == .background {
                model.syncInBackground()
            }
        }
    }
}

/// One background task, begun on creation and ended exactly once, by the work or by the system.
/// Main-actor isolated: the begin, the store of the identifier and the expiration handler all run on
/// main, so the handler never sees the identifier unset.
@MainActor
final class BackgroundActivity {
    private var identifier: UIBackgroundTaskIdentifier = .invalid
    private var onExpire: (() -> Void)?

    init(name: String, onExpire: @escaping () -> Void) {
        self.onExpire = onExpire
        identifier = UIApplication.shared.beginBackgroundTask(withName: name) { [weak self] in
            MainActor.assumeIsolated {
                self?.onExpire?()
                self?.end()
            }
        }
    }

    func end() {
        guard identifier != .invalid else { return }
        onExpire = nil
        UIApplication.shared.endBackgroundTask(identifier)
        identifier = .invalid
    }
}

@MainActor
final class ReadingListModel: ObservableObject {
    @Published private(set) var articles: [Article] = []
    private var syncTask: Task<Void, Never>?

    func syncInBackground() {
        guard syncTask == nil else { return }
        let sync = Task { [weak self] in
            await self?.pushReadState()
        }
        let activity = BackgroundActivity(name: "ReadingListSync") {
            sync.cancel()
        }
        syncTask = Task { [weak self] in
            await sync.value
            activity.end()
            self?.syncTask = nil
        }
    }

    private func pushReadState() async {
        guard let body = try? JSONEncoder().encode(articles) else { return }
        var request = URLRequest(url: URL(string: "https://reader.example.com/api/state")!)
        request.httpMethod = "POST"
        _ = try? await URLSession.shared.upload(for: request, from: body)
    }
}

struct Article: Codable, Identifiable {
    let id: UUID
    var title: String
    var isRead: Bool
}

struct ReadingListView: View {
    @EnvironmentObject private var model: ReadingListModel

    var body: some View {
        List(model.articles) { article in
            Label(article.title, systemImage: article.isRead ? "checkmark.circle" : "circle")
        }
    }
}
