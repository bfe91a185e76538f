@testable import BGKBEngine
import BGKBModel
import Testing

/// The simulator's own limits (`EngineLimit`): a loop that ends in simulated time runs to its
/// end however many turns it takes; a run the simulator has to stop is undecided, never a crash
/// of the app, and fails its example whatever the example's intent.
@Suite struct EngineLimitTests {
    /// Loops of a hundred thousand turns that end: each takes several hundred thousand steps in
    /// all, which a limit on the steps of a whole run stopped as "an endless loop".
    static let finiteLoops: [(name: String, body: String)] = [
        ("while with work", """
            var n = 0
            func drain() {
              while n < 100000 {
                work 1ms
                n += 1
              }
            }
            """),
        ("for with work", """
            var n = 0
            func drain() {
              for _ in 1...100000 {
                work 1ms
                n += 1
              }
            }
            """),
        ("while without work", """
            var n = 0
            func drain() {
              while n < 100000 {
                n += 1
              }
            }
            """),
    ]

    @Test(arguments: finiteLoops.indices)
    func aLoopThatEndsRunsToItsEnd(index: Int) throws {
        let (name, body) = Self.finiteLoops[index]
        let s = try #require(scenario(body + """

            on applicationDidEnterBackground {
              let id = beginBackgroundTask(withName: "drain")
              DispatchQueue.global().async {
                drain()
                print("drained")
                endBackgroundTask(id)
              }
            }
            system budget 300s
            expect printed "drained"
            expect suspended
            """))
        let explorer = Explorer(scenario: s)
        // The expectations only (suspended, and the print ran): the words of a trace this long
        // are not needed.
        let failure = explorer.failure(explorer.nominalSchedule)
        #expect(failure == nil, "\(name): \(failure ?? "")")
    }

    static let endlessLoop = """
        on applicationDidEnterBackground {
          let id = beginBackgroundTask(withName: "spin")
          DispatchQueue.global().async {
            while true {
              print("spin")
            }
            endBackgroundTask(id)
          }
        }
        expect suspended
        """

    /// The same endless loop fails as a `follows` example and as a `breaks` one: reaching the
    /// limit is no evidence that the rule is broken, nor that it holds.
    @Test(arguments: [Example.Intent.follows, .breaks])
    func anUndecidedRunFailsTheExampleWhateverItsIntent(intent: Example.Intent) throws {
        let (verdict, diagnostics) = check(example(Self.endlessLoop, intent))
        let checked = try #require(verdict, "\(diagnostics.all.map(\.description))")
        #expect(!checked.passed)
        #expect(checked.summary.hasPrefix("undecided"), "\(checked.summary)")
        #expect(checked.summary.contains("500,000 steps without simulated time passing"), "\(checked.summary)")
        #expect(checked.summary.contains("not a verdict about the app"), "\(checked.summary)")
        let shown = try #require(checked.counterexample)
        #expect(shown.outcome == .undecided(limit: .stepsWithoutTimePassing(steps: Machine.standardStepsWithoutTimePassingLimit), at: 1))
        #expect(!TimelineRenderer.render(shown).contains("crashed"))
    }

    /// Each limit stops the run it is about, and the outcome names it. The limits are lowered
    /// so the runs reach them quickly; the standard ones are far above any loop in Content.
    static let limitCases: [(name: String, text: String, expected: EngineLimit)] = [
        ("a loop that takes no simulated time", endlessLoop, .stepsWithoutTimePassing(steps: 2000)),
        ("a loop that takes time and never ends", """
            at 0s: app launches
            on didFinishLaunching {
              DispatchQueue.global().async {
                while true {
                  work 1s
                }
              }
            }
            expect running
            """, .stepsInOneRun(steps: 5000)),
    ]

    @Test(arguments: limitCases.indices)
    func eachLimitIsNamedInTheOutcome(index: Int) throws {
        let (name, text, expected) = Self.limitCases[index]
        let s = try #require(scenario(text))
        var machine = Machine(scenario: s, constants: .standard)
        machine.stepsWithoutTimePassingLimit = 2000
        machine.stepsInOneRunLimit = 5000
        machine.run(Explorer(scenario: s).nominalSchedule)
        guard case let .undecided(limit, _) = machine.modelOutcome else {
            Issue.record("\(name): \(machine.modelOutcome)")
            return
        }
        #expect(limit == expected, "\(name)")
        #expect(machine.modelOutcome.description.contains("the simulator's limit, not a verdict about the app"), "\(name)")
        // The expectation of a still-running app does not pass on a run that was cut short.
        #expect(machine.failedExpectation()?.contains(limit.summary) == true, "\(name)")
        #expect(machine.materializedTrace.events.last?.detail.contains("undecided") == true, "\(name)")
    }
}
