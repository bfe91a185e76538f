import SwiftUI
import BackgroundTasks

@main
struct RecipesApp: App {
    @UIApplicationDelegateAdaptor(AppDelegate.self) private var appDelegate
    @Environment(\.scenePhase) private var scenePhase

    var body: some Scene {
        WindowGroup {
            RecipeListView()
                .environmentObject(appDelegate.catalog)
        }
        .onChange(of: scenePhase) { phase in
            if phase == .background {
                appDelegate.scheduleCatalogRefresh()
            }
        }
    }
}

final class AppDelegate: NSObject, UIApplicationDelegate {
    static let refreshIdentifier = "com.example.recipes.catalog-refresh"
    let catalog = RecipeCatalog()

    func application(_ application: UIApplication,
                     didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]? = nil) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: Self.refreshIdentifier, using: nil) { [catalog] task in // expect-finding: bgtask-no-expiration-handler
            Task {
                let updated = await catalog.refresh()
                task.setTaskCompleted(success: updated)
            }
        }
        return true
    }

    func scheduleCatalogRefresh() {
        let request = BGAppRefreshTaskRequest(identifier: Self.refreshIdentifier)
        request.earliestBeginDate = .now.addingTimeInterval(6 * 3600)
        try? BGTaskScheduler.shared.submit(request)
    }
}

@MainActor
final class RecipeCatalog: ObservableObject {
    @Published private(set) var recipes: [Recipe] = []

    /// Returns whether the download succeeded.
    func refresh() async -> Bool {
        do {
            let (data, _) = try await URLSession.shared.data(from: URL(string: "https://recipes.example.com/catalog.json")!)
            recipes = try JSONDecoder().decode([Recipe].self, from: data)
            return true
        } catch {
            return false
        }
    }
}

struct Recipe: Codable, Identifiable {
    let id: Int
    let title: String
}

struct RecipeListView: View {
    @EnvironmentObject private var catalog: RecipeCatalog

    var body: some View {
        NavigationStack {
            List(catalog.recipes) { recipe in
                Text(recipe.title)
            }
            .navigationTitle("Recipes")
            .refreshable { _ = await catalog.refresh() }
        }
    }
}
