import Foundation
import Testing
import SwiftParser
import SwiftSyntax
@testable import BGKBScan
import BGKBEngine

@Test func dumpDev() throws {
    let dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/scan-dev")
    for name in try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() {
        let text = try String(contentsOf: dir.appendingPathComponent(name), encoding: .utf8)
        let tree = Parser.parse(source: text)
        let converter = SourceLocationConverter(fileName: name, tree: tree)
        for model in TypeCollector.collect(tree) {
            guard let harness = HarnessBuilder.build(model, converter: converter) else { continue }
            print("=== \(name) \(model.name) flags=\(harness.flags) unmodelled=\(harness.unmodelled ?? "-")")
            print(harness.text(flags: []))
            let (failure, problem) = EngineCheck.firstFailure(harness)
            if let problem { print("PROBLEM", problem) }
            if let failure { print("FAIL", failure.reason); print(TimelineRenderer.render(failure.trace)) }
            for combination in harness.flagCombinations.prefix(2) {
                let (scenario, _) = ScenarioParser.parse(harness.text(flags: combination), at: .init(path: "s", line: 1, column: 1))
                guard let scenario else { continue }
                let explorer = Explorer(scenario: scenario)
                let trace = explorer.trace(explorer.nominalSchedule)
                print("NOMINAL \(combination) \(trace.schedule)")
                for event in trace.events where event.kind != .step { print("  \(event.time) \(event.kind) \(event.lane) \(event.subject ?? "-") \(event.detail)") }
                print("  => \(trace.outcome)")
            }
        }
    }
}
