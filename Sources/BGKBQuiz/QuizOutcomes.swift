import BGKBEngine
import BGKBModel
import Foundation

/// Where the CLI and the tests get outcome answers: the engine runs the example's scenario under
/// the asked conditions (its nominal schedule, with the budget or the refusal changed).
public enum QuizOutcomes {
    public static let engine: OutcomeSource? = { example, conditions in
        guard let explorer = ExplorerCache.shared.explorer(for: example) else { return nil }
        var schedule = explorer.nominalSchedule
        if let budget = conditions.budget { schedule.budget = budget }
        if conditions.beginRefused { schedule.refusal = .returnsInvalid }
        return explorer.trace(schedule).outcome
    }
}

/// One parsed scenario per example: each is run under several conditions, and parsing it again
/// for each was a third of the start-up time on a large corpus.
private final class ExplorerCache: @unchecked Sendable {
    static let shared = ExplorerCache()

    private let lock = NSLock()
    private var explorers: [Example: Explorer?] = [:]

    func explorer(for example: Example) -> Explorer? {
        lock.lock()
        defer { lock.unlock() }
        if let known = explorers[example] { return known }
        let (parsed, _) = ScenarioParser.parse(example.text, at: example.location)
        let explorer = parsed.map { Explorer(scenario: $0) }
        explorers[example] = explorer
        return explorer
    }
}
