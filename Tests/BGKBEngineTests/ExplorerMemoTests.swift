import BGKBEngine
import BGKBModel
import Testing

/// The explorer counts a schedule without simulating it when it would repeat a run already made
/// (a refusal the run never read, a budget that could not matter, an early expiry that finds the
/// app suspended). These tests run every such schedule anyway and compare.
@Suite struct ExplorerMemoTests {
    static let texts: [(String, String)] = ScenarioSamples.all.map { ($0.name, $0.text) }
        + SimulatorTests.cases.map { ($0.name, $0.text) }

    @Test(arguments: texts.indices)
    func everyCoveredScheduleRepeatsItsRun(index: Int) throws {
        let (name, text) = Self.texts[index]
        let s = try #require(scenario(text))
        let mismatches = Explorer(scenario: s).reuseMismatches()
        #expect(mismatches.count == 0, "\(name): \(mismatches.prefix(3).joined(separator: "; "))")
    }

    /// Covering is worth having only if it covers: the corrected listing never reads the refusal
    /// on some paths and ends its period well before most budgets.
    @Test func theMemoCoversSchedulesAndCountsThemAll() throws {
        let s = try #require(scenario(ScenarioSamples.applesListingCorrected.text))
        let result = Explorer(scenario: s).explore(stopAtFirstFailure: false)
        #expect(result.covered > 0)
        #expect(result.covered < result.runs)
    }

    /// A scenario with no background task never starts a period: every budget gives the same run,
    /// and only the first is simulated at each level.
    @Test func aRunWithoutAPeriodIsTheSameUnderEveryBudget() throws {
        let s = try #require(scenario("""
            at 0s: app launches
            at 1s: app enters background

            on applicationDidEnterBackground {
              work 1s
            }

            expect suspended
            """))
        var options = Explorer.Options()
        options.randomSchedules = 0
        let result = Explorer(scenario: s, options: options).explore(stopAtFirstFailure: false)
        #expect(result.failure == nil)
        // 3 refusals × 4 budgets of each schedule: at most one of each twelve is simulated.
        #expect(result.runs - result.covered <= result.runs / 12)
    }
}

/// Random schedules whose draws land on runs already made are counted as those runs.
@Suite struct RandomScheduleCoverTests {
    @Test(arguments: [ScenarioSamples.applesListingCorrected, ScenarioSamples.applesListing])
    func someRandomSchedulesRepeatSystematicRuns(sample: ScenarioSamples.Sample) throws {
        let s = try #require(scenario(sample.text))
        var systematic = Explorer.Options()
        systematic.randomSchedules = 0
        let without = Explorer(scenario: s, options: systematic).explore(stopAtFirstFailure: false)
        let with = Explorer(scenario: s).explore(stopAtFirstFailure: false)
        #expect(with.runs == without.runs + Explorer.Options().randomSchedules)
        #expect(with.covered > without.covered, "no random schedule was recognised as a systematic run")
        #expect(with.covered < with.runs)
    }
}
