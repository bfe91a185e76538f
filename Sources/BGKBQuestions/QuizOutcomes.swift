import BGKBEngine
import BGKBModel
import Foundation

/// Where the CLI and the tests get outcome answers: the engine runs the example's scenario under
/// the asked conditions (its nominal schedule, with the budget or the refusal changed).
public enum QuizOutcomes {
    public static let engine: OutcomeSource? = { example, conditions in
        guard let scenario = ScenarioCache.shared.scenario(for: example),
              conditionsApply(conditions, to: scenario, text: example.text) else { return nil }
        // A fresh explorer per run: its machine is mutable state, and banks may be built on
        // several threads at once (the tests do).
        let explorer = Explorer(scenario: scenario)
        var schedule = explorer.nominalSchedule
        if let budget = conditions.budget { schedule.budget = budget }
        if conditions.beginRefused { schedule.refusal = conditions.refusedThroughHandler ? .callsExpirationHandler : .returnsInvalid }
        if conditions.earlyExpiry {
            guard let entered = backgroundEntry(scenario) else { return nil }
            schedule.forcedExpiry = entered + RunConditions.earlyExpiryDelay
        }
        return explorer.outcome(schedule)
    }

    /// A variation is run only where the scenario leaves it open and it can matter: never a
    /// budget against a pinned `system budget`, never a refusal against a pinned grant or refusal
    /// or for code that begins no task. A question would otherwise name conditions its own
    /// listing contradicts.
    static func conditionsApply(_ conditions: RunConditions, to scenario: Scenario, text: String) -> Bool {
        if conditions.budget != nil, scenario.conditions.budget != nil { return false }
        if conditions.beginRefused {
            if scenario.conditions.refusal != nil { return false }
            if !text.contains("beginBackgroundTask") { return false }
        }
        if conditions.earlyExpiry {
            // Only for code that holds a task the system could call in, and a scenario that
            // does not pin expiry to the end of the budget.
            if scenario.conditions.expiryOnlyAtEnd { return false }
            if !["beginBackgroundTask", "register(", "performExpiringActivity"].contains(where: text.contains) { return false }
            if backgroundEntry(scenario) == nil { return false }
        }
        return true
    }

    /// When the app first enters the background: its timeline's event, or 1 s without a
    /// timeline (the scenario language's default).
    static func backgroundEntry(_ scenario: Scenario) -> Double? {
        if scenario.timeline.isEmpty { return 1 }
        return scenario.timeline.first { $0.event == .enterBackground }?.time
    }
}

/// One parse per example: each is run under several conditions, and parsing it again for each
/// would repeat the same work. Scenarios are values, safe to share.
private final class ScenarioCache: @unchecked Sendable {
    static let shared = ScenarioCache()

    private let lock = NSLock()
    private var scenarios: [ExampleKey: Scenario?] = [:]

    func scenario(for example: Example) -> Scenario? {
        lock.lock()
        if let known = scenarios[ExampleKey(example)] {
            lock.unlock()
            return known
        }
        lock.unlock()
        // Parsed outside the lock so that threads warming the cache parse in parallel.
        let scenario = ScenarioParser.parse(example.text, at: example.location).0
        lock.lock()
        scenarios[ExampleKey(example)] = scenario
        lock.unlock()
        return scenario
    }
}
