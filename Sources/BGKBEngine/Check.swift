import BGKBModel

/// Runs one example: parses its scenario, explores its schedules, and says whether it behaves as
/// its intent claims. Diagnostics point into the example's Content file; a verdict is nil when
/// the scenario does not parse.
public func check(_ example: Example, constants: SystemConstants = .standard,
                  options: Explorer.Options = Explorer.Options()) -> (ExampleVerdict?, Diagnostics) {
    let (parsed, diagnostics) = ScenarioParser.parse(example.text, at: example.location)
    guard let scenario = parsed else { return (nil, diagnostics) }
    let explorer = Explorer(scenario: scenario, constants: constants, options: options)
    let result = explorer.explore(stopAtFirstFailure: true)
    let representative = explorer.trace(explorer.nominalSchedule)
    var counterexample: SimulationTrace?
    if let failure = result.failure {
        var trace = explorer.trace(failure.schedule)
        trace.seed = failure.schedule.seed
        counterexample = trace
    }
    let passed: Bool
    let summary: String
    let capped = result.capped ? " (stopped at \(result.runs) schedules)" : ""
    switch (example.intent, result.failure) {
    case (.follows, nil):
        passed = true
        summary = "holds in all \(result.runs) schedules\(capped)"
    case let (.follows, failure?):
        passed = false
        summary = "broken after \(result.runs) schedules: \(failure.reason) [\(failure.schedule)]"
    case let (.breaks, failure?):
        passed = true
        summary = "breaks: \(failure.reason) [\(failure.schedule)]"
    case (.breaks, nil):
        passed = false
        summary = "expected to break, but holds in all \(result.runs) schedules\(capped)"
    }
    let verdict = ExampleVerdict(example: example, passed: passed, schedulesExplored: result.runs,
                                 simulatedEvents: result.events, representative: representative, counterexample: counterexample, summary: summary)
    return (verdict, diagnostics)
}
