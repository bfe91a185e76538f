import SwiftUI
import BackgroundTasks
import WidgetKit

@main
struct StocksApp: App {
    @Environment(\.scenePhase) private var scenePhase
    @StateObject private var watchlist = Watchlist()

    var body: some Scene {
        WindowGroup {
            WatchlistView()
                .environmentObject(watchlist)
        }
        .onChange(of: scenePhase) { phase in
            if phase == .background {
                scheduleQuoteRefresh()
            }
        }
        .backgroundTask(.appRefresh("com.example.stocks.quotes")) {
            await scheduleQuoteRefresh()
            await refreshQuotes()
        }
        .backgroundTask(.urlSession("com.example.stocks.charts")) {
            await ChartDownloader.shared.reconnect()
        }
    }

    private func scheduleQuoteRefresh() {
        let request = BGAppRefreshTaskRequest(identifier: "com.example.stocks.quotes")
        request.earliestBeginDate = .now.addingTimeInterval(15 * 60)
        try? BGTaskScheduler.shared.submit(request)
    }

    /// Cancellation-aware: when the system expires the task, SwiftUI cancels this task and the
    /// URLSession call throws.
    private func refreshQuotes() async {
        do {
            let symbols = await watchlist.symbols
            let url = URL(string: "https://quotes.example.com/v1?symbols=\(symbols.joined(separator: ","))")!
            let (data, _) = try await URLSession.shared.data(from: url)
            let quotes = try JSONDecoder().decode([Quote].self, from: data)
            await watchlist.update(quotes)
            WidgetCenter.shared.reloadAllTimelines()
        } catch {
            print("Quote refresh failed: \(error)")
        }
    }
}

actor ChartDownloader {
    static let shared = ChartDownloader()
    private var session: URLSession?

    func reconnect() {
        if session == nil {
            let configuration = URLSessionConfiguration.background(withIdentifier: "com.example.stocks.charts")
            session = URLSession(configuration: configuration)
        }
    }
}

struct Quote: Codable, Identifiable {
    var id: String { symbol }
    let symbol: String
    let price: Double
}

@MainActor
final class Watchlist: ObservableObject {
    @Published private(set) var quotes: [Quote] = []
    var symbols: [String] { quotes.isEmpty ? ["AAPL", "MSFT"] : quotes.map(\.symbol) }

    func update(_ quotes: [Quote]) {
        self.quotes = quotes
    }
}

struct WatchlistView: View {
    @EnvironmentObject private var watchlist: Watchlist

    var body: some View {
        List(watchlist.quotes) { quote in
            HStack {
                Text(quote.symbol)
                Spacer()
                Text(quote.price, format: .currency(code: "USD"))
            }
        }
    }
}
