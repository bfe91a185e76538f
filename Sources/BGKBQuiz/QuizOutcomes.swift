import BGKBEngine
import BGKBModel

/// Where the CLI and the tests get outcome answers: the engine runs the example's scenario under
/// the asked conditions (its nominal schedule, with the budget or the refusal changed).
public enum QuizOutcomes {
    public static let engine: OutcomeSource? = { example, conditions in
        let (parsed, _) = ScenarioParser.parse(example.text, at: example.location)
        guard let scenario = parsed else { return nil }
        let explorer = Explorer(scenario: scenario)
        var schedule = explorer.nominalSchedule
        if let budget = conditions.budget { schedule.budget = budget }
        if conditions.beginRefused { schedule.refusal = .returnsInvalid }
        return explorer.trace(schedule).outcome
    }
}
