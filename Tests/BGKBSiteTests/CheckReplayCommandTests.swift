import Foundation
import Testing

/// `bgkb check --replay` end to end, on the real Content: a schedule that contradicts an
/// example's pins is refused for that example, at the pin's line, with a non-zero exit; the
/// rule's other examples (which pin nothing) are still replayed.
@Suite struct CheckReplayCommandTests {
    static let rule = ["check", "--rule", "expiring-activity-block-semantics", "--replay"]

    @Test(.enabled(if: BuildCommandTests.binary != nil, "the bgkb executable is not built"),
          arguments: [("budget=30s refusal=none expire=never choices=-", "system budget 5s"),
                      ("budget=5s refusal=returns-invalid expire=never choices=-", "system grants beginBackgroundTask"),
                      ("budget=5s refusal=none expire=2s choices=-", "system expires tasks only when time runs out")])
    func aContradictingScheduleIsRefusedAtThePin(schedule: String, pin: String) throws {
        let run = try BuildCommandTests.run(Self.rule + [schedule])
        #expect(run.status == 1, "\(run.errors)")
        let content = try String(contentsOf: BuildCommandTests.packageRoot.appendingPathComponent("Content/documents/extensions-and-watchos.md"),
                                 encoding: .utf8)
        let line = try #require(content.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.hasPrefix(pin) }) + 1
        #expect(run.errors.contains("Content/documents/extensions-and-watchos.md:\(line):1: error: cannot replay"), "\(run.errors)")
        #expect(run.errors.contains("the scenario pins `\(pin)`"), "\(run.errors)")
        #expect(run.errors.contains("[replay-contradicts-pin]"))
        // The example that pins nothing is replayed all the same.
        #expect(run.output.contains("breaks \"written as if the block ran once, to the end\""), "\(run.output)")
    }

    @Test(.enabled(if: BuildCommandTests.binary != nil, "the bgkb executable is not built"))
    func aScheduleThatKeepsThePinsReplays() throws {
        let run = try BuildCommandTests.run(Self.rule + ["budget=5s refusal=none expire=never choices=-"])
        #expect(run.status == 0, "\(run.errors)")
        #expect(!run.errors.contains("replay-contradicts-pin"))
        #expect(run.output.contains("follows \"a second call, with true, while the first is still working\""))
    }
}
