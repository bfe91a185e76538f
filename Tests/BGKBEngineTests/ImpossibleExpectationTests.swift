@testable import BGKBEngine
import BGKBModel
import Testing

/// Expectations no run can meet are lint errors at the expectation's line and column, not
/// examples that pass or fail for a reason nobody meant.
@Suite struct ImpossibleExpectationTests {
    struct Case: Sendable, CustomStringConvertible {
        var text: String
        /// Words the error must contain, and where it points (line, column).
        var message: String
        var line: Int
        var column: Int
        var description: String { message }
    }

    static let cases: [Case] = [
        Case(text: """
            on applicationDidEnterBackground {
              print("saved")
            }
            expect suspended
            expect terminated 0xdeadbeef
            """, message: "never terminated with 0xdeadbeef", line: 5, column: 19),
        Case(text: """
            on applicationDidEnterBackground {
              print("Saved")
            }
            expect printed "saved"
            """, message: "the scenario prints \"Saved\" (the comparison is case-sensitive)", line: 4, column: 8),
        Case(text: """
            on applicationDidEnterBackground {
              print("started")
            }
            expect printed "finished" around 3s
            """, message: "no print in the scenario prints it", line: 4, column: 8),
        Case(text: """
            var done = false
            on applicationDidEnterBackground {
              print("started")
            }
            expect suspended
            expect done
            """, message: "`done` is never assigned", line: 6, column: 8),
        Case(text: """
            var count = 0
            var done = false
            on applicationDidEnterBackground {
              done = true
            }
            expect done && count == 1
            """, message: "`count` is never assigned", line: 6, column: 8),
    ]

    @Test(arguments: cases)
    func isAnErrorAtTheExpectation(_ c: Case) {
        let (parsed, diagnostics) = ScenarioParser.parse(c.text, at: BGKBModel.SourceLocation(path: "doc.md", line: 1, column: 1))
        #expect(parsed == nil)
        let errors = diagnostics.all.filter { $0.id == "scenario-impossible-expectation" }
        #expect(errors.count == 1, "\(diagnostics.all.map(\.description))")
        #expect(errors.first?.message.contains(c.message) == true, "\(errors.map(\.message))")
        #expect(errors.first?.location?.line == c.line && errors.first?.location?.column == c.column,
                "\(errors.map(\.description))")
    }

    /// What can hold parses: known codes, a printed text some print produces, conditions on
    /// variables the code assigns (also with `+=`).
    @Test func possibleExpectationsParse() {
        let text = """
            var count = 0
            var done = false
            on applicationDidEnterBackground {
              count += 1
              done = true
              print("saved")
            }
            expect suspended
            expect printed "saved"
            expect done && count == 1
            """
        let (parsed, diagnostics) = ScenarioParser.parse(text, at: BGKBModel.SourceLocation(path: "doc.md", line: 1, column: 1))
        #expect(parsed != nil, "\(diagnostics.all.map(\.description))")
        for code in Reason.terminationCodes {
            let (withCode, _) = ScenarioParser.parse(text + "\nexpect terminated \(code)", at: BGKBModel.SourceLocation(path: "doc.md", line: 1, column: 1))
            #expect(withCode != nil, "\(code)")
        }
    }

    /// Every code a termination can carry is one the parser accepts.
    @Test func everyTerminationCodeIsKnown() {
        let reasons: [Reason] = [.leakedTask(task: 0), .expiryHandlerTooSlow(task: 0), .expiryHandlersBlocked, .didEnterBackgroundTooSlow,
                                 .tooManyAssertions, .forceUnwrapNil(variable: 0), .registerAfterLaunch(identifier: 0),
                                 .registerTwice(identifier: 0), .noLaunchHandler(identifier: 0), .bgTaskNotCompleted(task: 0),
                                 .pushNotCompleted, .mainSyncOnMain]
        for reason in reasons {
            if let code = reason.code { #expect(Reason.terminationCodes.contains(code)) }
        }
    }
}
