import BGKBEngine
import BGKBModel
import Testing

/// `bgkb check --replay` refuses a schedule the scenario's pins rule out: the explorer never runs
/// one, so its run would show something the scenario says cannot happen.
@Suite struct ReplayPinTests {
    static let pinned = """
        var done = false
        system grants beginBackgroundTask   // the time is granted
        system budget 5s
          system expires tasks only when time runs out
        on applicationDidEnterBackground {
          done = true
        }
        expect done
        """

    /// A schedule, and the pins it contradicts with their lines in the scenario's text.
    static let cases: [(schedule: String, pins: [String], lines: [Int])] = [
        ("budget=5s refusal=none expire=never choices=-", [], []),
        ("budget=5s refusal=none expire=never choices=0:1", [], []),
        ("budget=30s refusal=none expire=never choices=-", ["system budget 5s"], [3]),
        ("budget=5s refusal=returns-invalid expire=never choices=-", ["system grants beginBackgroundTask"], [2]),
        ("budget=5s refusal=calls-expiration-handler expire=never choices=-", ["system grants beginBackgroundTask"], [2]),
        ("budget=5s refusal=none expire=1s choices=-", ["system expires tasks only when time runs out"], [4]),
        ("budget=0s refusal=returns-invalid expire=1.001s choices=-",
         ["system budget 5s", "system grants beginBackgroundTask", "system expires tasks only when time runs out"], [3, 2, 4]),
    ]

    @Test(arguments: cases.indices)
    func aScheduleThatContradictsAPinIsNamed(index: Int) throws {
        let (text, pins, lines) = Self.cases[index]
        let s = try #require(scenario(Self.pinned))
        let schedule = try #require(Schedule(parsing: text))
        let found = schedule.contradictions(pinnedBy: s)
        #expect(found.map(\.pin) == pins, "\(text)")
        #expect(found.map(\.line) == lines, "\(text)")
        for contradiction in found {
            // The message says what the schedule says instead.
            #expect(text.contains(contradiction.scheduled), "\(contradiction)")
        }
    }

    /// A refusal pinned to both refusing ways rules out only the grant.
    @Test(arguments: [(Conditions.Refusal.none, true), (.returnsInvalid, false), (.callsExpirationHandler, false)])
    func refusesPinsTheRefusingWays(refusal: Conditions.Refusal, contradicts: Bool) throws {
        let s = try #require(scenario("""
            system refuses beginBackgroundTask
            on applicationDidEnterBackground {
              let id = beginBackgroundTask(withName: "x")
              endBackgroundTask(id)
            }
            expect suspended
            """))
        let found = Schedule(budget: 30, refusal: refusal).contradictions(pinnedBy: s)
        #expect(found.isEmpty == !contradicts)
        #expect(found.first?.column == (contradicts ? 1 : nil))
    }
}
