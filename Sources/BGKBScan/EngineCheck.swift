import BGKBEngine
import BGKBModel

/// Runs a harness through the engine's public parser and explorer, one scenario per combination
/// of flags, and turns the first schedule that breaks it into a finding.
enum EngineCheck {
    /// Fewer schedules than `bgkb check` explores for a Content example: the scan runs a scenario
    /// per flag combination, and the failures it looks for show within one deviation.
    static var options: Explorer.Options {
        var options = Explorer.Options()
        options.maxRuns = 1200
        options.randomSchedules = 8
        return options
    }

    struct Failure {
        var scenario: String
        var trace: SimulationTrace
        var reason: String
    }

    /// The first failing run over all flag combinations, or nil when every one holds. A scenario
    /// that does not parse is reported as `problem` (a scan bug, never a finding).
    static func firstFailure(_ harness: Harness) -> (failure: Failure?, problem: String?) {
        for combination in harness.flagCombinations {
            let text = harness.text(flags: combination)
            let (parsed, diagnostics) = ScenarioParser.parse(text, at: SourceLocation(path: "scan", line: 1, column: 1))
            guard let scenario = parsed else {
                let messages = diagnostics.all.map { "\($0.location?.line ?? 0): \($0.message)" }.joined(separator: "; ")
                return (nil, "generated scenario does not parse: \(messages)\n\(text)")
            }
            let explorer = Explorer(scenario: scenario, options: options)
            let result = explorer.explore(checking: .follows)
            if let failure = result.failure {
                let trace = result.failureTrace ?? explorer.trace(failure.schedule)
                return (Failure(scenario: text, trace: trace, reason: failure.reason), nil)
            }
        }
        return (nil, nil)
    }
}
