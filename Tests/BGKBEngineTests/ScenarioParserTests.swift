import BGKBEngine
import BGKBModel
import Testing

@Suite struct ScenarioParserTests {
    struct BadCase: Sendable, CustomStringConvertible {
        var name: String
        var text: String
        var line: Int
        var column: Int
        var id: String
        var message: String
        var description: String { name }
    }

    static let badCases: [BadCase] = [
        BadCase(name: "no expectation", text: "on applicationDidEnterBackground {\n  work 1s\n}", line: 1, column: 1,
                id: "scenario-no-expectation", message: "at least one `expect`"),
        BadCase(name: "unknown call", text: "on applicationDidEnterBackground {\n  frobnicate()\n}\nexpect suspended", line: 2, column: 3,
                id: "scenario-name", message: "unknown call frobnicate"),
        BadCase(name: "unknown variable", text: "on applicationDidEnterBackground {\n  endBackgroundTask(taskID!)\n}\nexpect suspended", line: 2, column: 21,
                id: "scenario-name", message: "unknown name taskID"),
        BadCase(name: "optional passed to end", text: "var id: UIBackgroundTaskIdentifier?\non applicationDidEnterBackground {\n  endBackgroundTask(id)\n}\nexpect suspended",
                line: 3, column: 21, id: "scenario-type", message: "id is an Optional"),
        BadCase(name: "unwrap of non-optional", text: "var id = UIBackgroundTaskIdentifier.invalid\non applicationDidEnterBackground {\n  endBackgroundTask(id!)\n}\nexpect suspended",
                line: 3, column: 21, id: "scenario-type", message: "not an Optional"),
        BadCase(name: "missing brace", text: "on applicationDidEnterBackground {\n  work 1s\nexpect suspended", line: 1, column: 34,
                id: "scenario-syntax", message: "has no closing '}'"),
        BadCase(name: "bad unit", text: "on applicationDidEnterBackground {\n  work 10parsecs\n}\nexpect suspended", line: 2, column: 8,
                id: "scenario-syntax", message: "unknown unit"),
        BadCase(name: "unknown expectation", text: "expect happiness", line: 1, column: 8,
                id: "scenario-syntax", message: "unknown expectation"),
        BadCase(name: "unknown condition", text: "system is sunny\nexpect suspended", line: 1, column: 8,
                id: "scenario-syntax", message: "unknown system condition"),
        BadCase(name: "unterminated string", text: "expect printed \"done", line: 1, column: 16,
                id: "scenario-syntax", message: "no closing quote"),
        BadCase(name: "unknown event", text: "on applicationDidBecomeSleepy {\n}\nexpect suspended", line: 1, column: 4,
                id: "scenario-name", message: "unknown app event"),
        BadCase(name: "unknown queue", text: "on applicationDidEnterBackground {\n  worker.async {\n  }\n}\nexpect suspended", line: 2, column: 10,
                id: "scenario-name", message: "unknown queue"),
    ]

    @Test(arguments: badCases)
    func reportsProblemsAtTheirPlace(_ bad: BadCase) throws {
        // The block starts on line 20 of its file: diagnostics must add that offset.
        let (parsed, diagnostics) = ScenarioParser.parse(bad.text, at: BGKBModel.SourceLocation(path: "doc.md", line: 20, column: 1))
        #expect(parsed == nil)
        let first = try #require(diagnostics.errors.first, "no diagnostic for \(bad.name)")
        #expect(first.id == bad.id, "\(first)")
        #expect(first.message.contains(bad.message), "\(first)")
        #expect(first.location == BGKBModel.SourceLocation(path: "doc.md", line: 20 + bad.line - 1, column: bad.column), "\(first)")
    }

    /// The receivers a call may be written on (`UIApplication.shared.`, `application.`, ...) are
    /// dropped before the call is looked up; any other receiver leaves an unknown call.
    @Test(arguments: [("UIApplication.shared.", true), ("UIApplication.", true), ("application.", true), ("self.", true),
                      ("", true), ("ProcessInfo.processInfo.", true), ("BGTaskScheduler.shared.", true), ("ProcessInfo.", false), ("appliance.", false), ("Application.", false),
                      ("UIApplication.shared.self.", true), ("selfish.", false)])
    func receiversAreDroppedBeforeTheCall(_ receiver: String, _ known: Bool) {
        let text = "var id = UIBackgroundTaskIdentifier.invalid\non applicationDidEnterBackground {\n  id = \(receiver)beginBackgroundTask(withName: \"x\") {\n  }\n  \(receiver)endBackgroundTask(id)\n}\nexpect suspended"
        let (parsed, diagnostics) = ScenarioParser.parse(text, at: BGKBModel.SourceLocation(path: "doc.md", line: 1, column: 1))
        #expect((parsed != nil) == known, "\(diagnostics.all)")
    }

    @Test func processInfoIsDroppedBeforeAnActivity() {
        let text = "on applicationDidEnterBackground {\n  ProcessInfo.processInfo.performExpiringActivity(withReason: \"save\") { expired in\n  }\n}\nexpect suspended"
        let (parsed, diagnostics) = ScenarioParser.parse(text, at: BGKBModel.SourceLocation(path: "doc.md", line: 1, column: 1))
        #expect(parsed != nil, "\(diagnostics.all)")
        let (misspelt, _) = ScenarioParser.parse(text.replacingOccurrences(of: "ProcessInfo.", with: "ProcessInfx."), at: BGKBModel.SourceLocation(path: "doc.md", line: 1, column: 1))
        #expect(misspelt == nil)
    }

    /// A deeply nested scenario, shown in test output by its kind alone (the text is 10,000 levels).
    struct DeepNesting: Sendable, CustomTestStringConvertible {
        var kind: String
        var text: String
        var testDescription: String { kind }
    }

    static let deepNestings: [DeepNesting] = [
        .init(kind: "parentheses", text: "expect " + String(repeating: "(", count: 10_000) + "x" + String(repeating: ")", count: 10_000)),
        .init(kind: "not", text: "expect " + String(repeating: "!", count: 10_000) + "x"),
        .init(kind: "or chain", text: "expect x" + String(repeating: " || x", count: 10_000)),
        .init(kind: "and chain", text: "expect x" + String(repeating: " && x", count: 10_000)),
        .init(kind: "closures", text: "on applicationDidEnterBackground {\n" + String(repeating: "DispatchQueue.main.async {\n", count: 5_000)
            + String(repeating: "}\n", count: 5_001)),
        .init(kind: "ifs", text: "on applicationDidEnterBackground {\n" + String(repeating: "if x {\n", count: 5_000)
            + String(repeating: "}\n", count: 5_001)),
        .init(kind: "else ifs", text: "on applicationDidEnterBackground {\nif x {\n" + String(repeating: "} else if x {\n", count: 5_000)
            + "}\n}\n"),
    ]

    /// Deep nesting of each kind gets one clear error, not a stack overflow (FuzzScenario found
    /// 10,000 parentheses overflowing it; without the limit this test dies of signal 11).
    @Test(arguments: deepNestings)
    func deepNestingIsAnErrorNotACrash(_ nesting: DeepNesting) {
        let (parsed, diagnostics) = ScenarioParser.parse("var x = true\n" + nesting.text, at: BGKBModel.SourceLocation(path: "s", line: 1, column: 1))
        #expect(parsed == nil)
        let deep = diagnostics.errors.filter { $0.message.contains("nests too deeply") }
        #expect(deep.count == 1, "\(diagnostics.errors.prefix(3).map { String($0.description.prefix(200)) })")
    }

    /// The limit leaves room: 90 levels of each kind still parse.
    @Test func ninetyLevelsStillParse() {
        // `x` is assigned, so the condition can hold (see `ImpossibleExpectationTests`).
        let text = "var x = true\non applicationDidEnterBackground {\n  x = false\n}\nexpect " + String(repeating: "(", count: 90) + "x" + String(repeating: ")", count: 90)
        let (parsed, diagnostics) = ScenarioParser.parse(text, at: BGKBModel.SourceLocation(path: "s", line: 1, column: 1))
        #expect(parsed != nil, "\(diagnostics.all)")
    }

    @Test(arguments: ScenarioSamples.all)
    func samplesParseWithoutDiagnostics(_ sample: ScenarioSamples.Sample) {
        let (parsed, diagnostics) = ScenarioParser.parse(sample.text, at: BGKBModel.SourceLocation(path: "s", line: 1, column: 1))
        #expect(parsed != nil)
        #expect(diagnostics.isEmpty, "\(diagnostics.all)")
    }

    @Test func readsConditionsTimelineAndExpectations() throws {
        let s = try #require(scenario("""
            system budget 5s
            system refuses beginBackgroundTask by returning .invalid
            system expires tasks only when time runs out
            at 0s: app launches
            at 3s: app enters background
            at 1min: app enters foreground
            expect terminated 0x8badf00d around 8s
            expect warning "no background task exists"
            """))
        #expect(s.conditions.budget == 5)
        #expect(s.conditions.refusal == [.returnsInvalid])
        #expect(s.conditions.expiryOnlyAtEnd)
        #expect(s.timeline.map(\.time) == [0, 3, 60])
        #expect(s.expectations.map(\.text) == ["terminated 0x8badf00d around 8s", "warning \"no background task exists\""])
    }

    @Test func blocksMayCloseOnTheirOwnLine() throws {
        // One-line closures and `} else {` are both Swift; both must parse.
        let s = scenario("""
            var done = false
            on applicationDidEnterBackground {
              let id = beginBackgroundTask(withName: "x") { done = true }
              if done { print("early") } else {
                endBackgroundTask(id)
              }
            }
            expect suspended
            """)
        #expect(s != nil)
    }
}

@Suite struct ScenarioRobustnessTests {
    /// Found by the fuzzer: a 100-digit number once trapped converting to Int.
    @Test(arguments: [
        "var id: UIBackgroundTaskIdentifier = 66666666666666666666666666666666666666666666666666666666666666666666666666666666\nexpect suspended",
        "on applicationDidEnterBackground {\n  for _ in 1...99999999999999999999999999 {\n  }\n  work 99999999999999999999999999999s\n}\nexpect suspended",
        "var n = 0\non applicationDidEnterBackground {\n  n += 9999999999999999999999999999\n  n += 9999999999999999999999999999\n}\nexpect suspended",
    ])
    func hugeNumbersDoNotTrap(_ text: String) {
        let (parsed, _) = ScenarioParser.parse(text, at: BGKBModel.SourceLocation(path: "f", line: 1, column: 1))
        if let parsed {
            let explorer = Explorer(scenario: parsed)
            let trace = explorer.trace(explorer.nominalSchedule)
            #expect(!TimelineRenderer.render(trace).isEmpty)
        }
    }
}
