import UIKit

/// Custom keyboard (with full access): when the keyboard is dismissed, the words the user taught
/// it are merged into the shared lexicon file and sent to the sync service.
final class KeyboardViewController: UIInputViewController {
    private let lexicon = LearnedWords(appGroup: "group.com.example.keys")

    override func viewWillDisappear(_ animated: Bool) {
        super.viewWillDisappear(animated)
        saveLearnedWords()
    }

    private func saveLearnedWords() {
        let words = lexicon.pending()
        guard !words.isEmpty else { return }
        ProcessInfo.processInfo.performExpiringActivity(withReason: "Save learned words") { [lexicon] expired in // expect-finding: expiring-activity-returns-early
            guard !expired else { return }
            DispatchQueue.global(qos: .utility).async {
                lexicon.merge(words)
                lexicon.upload()
            }
        }
    }
}

final class LearnedWords {
    private let container: URL?

    init(appGroup: String) {
        container = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: appGroup)
    }

    func pending() -> [String] {
        guard let url = container?.appendingPathComponent("pending.txt"),
              let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").map(String.init)
    }

    func merge(_ words: [String]) {
        guard let url = container?.appendingPathComponent("lexicon.txt") else { return }
        let existing = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
        let merged = Set(existing.split(separator: "\n").map(String.init) + words).sorted().joined(separator: "\n")
        try? merged.write(to: url, atomically: true, encoding: .utf8)
    }

    func upload() {
        guard let url = container?.appendingPathComponent("lexicon.txt") else { return }
        var request = URLRequest(url: URL(string: "https://keys.example.com/api/lexicon")!)
        request.httpMethod = "PUT"
        URLSession.shared.uploadTask(with: request, fromFile: url).resume()
    }
}
