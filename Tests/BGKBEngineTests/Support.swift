@_exported import ScenarioSamples
import BGKBEngine
import BGKBModel
import Testing

/// Parses scenario text, recording an issue (at the caller) if it does not parse.
func scenario(_ text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> Scenario? {
    let (scenario, diagnostics) = ScenarioParser.parse(text, at: BGKBModel.SourceLocation(path: "test.md", line: 1, column: 1))
    if scenario == nil {
        Issue.record("scenario does not parse:\n\(diagnostics.all.map(\.description).joined(separator: "\n"))", sourceLocation: sourceLocation)
    }
    return scenario
}

func example(_ text: String, _ intent: Example.Intent) -> Example {
    Example(rule: "test-rule", name: nil, intent: intent, text: text, location: BGKBModel.SourceLocation(path: "test.md", line: 10, column: 1))
}
