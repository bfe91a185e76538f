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

    /// A budget whose event would fall due just as a forced expiry ends a period repeats the run
    /// (the forced expiry is queued first), but only if no other period lasted as long: here the
    /// first trip's period lasts 0 s, so a budget of 0 falls due inside it and must be simulated.
    @Test func aBudgetTiedWithTheForcedExpiryIsSharedOnlyWhenNoOtherPeriodWasAsLong() throws {
        let s = try #require(scenario("""
            at 0s: app launches
            at 1s: app enters background
            at 10s: app enters foreground
            at 20s: app enters background

            var id: UIBackgroundTaskIdentifier = .invalid

            on applicationDidEnterBackground {
              id = beginBackgroundTask(withName: "trip") {
                endBackgroundTask(id)
                id = .invalid
              }
              endBackgroundTask(id)
              id = .invalid
            }

            expect suspended
            """))
        let mismatches = Explorer(scenario: s).reuseMismatches()
        #expect(mismatches.isEmpty, "\(mismatches.prefix(3).joined(separator: "; "))")
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

/// A thread whose next step only leaves blocks nothing observes takes it at once rather than
/// standing as an alternative. That must change no verdict and no outcome: every distinct way a
/// run ends with the alternative offered, it still ends in without it. (Runs drawn step by step
/// are not compared: taken at once, such an exit can leave its thread unable to go on a step
/// sooner, so a switch there is not a preemption, and the preemption bound admits a few more
/// or other interleavings than with the exit offered.)
@Suite struct SilentExitTests {
    /// The explorer's reductions, each of which a test can switch off alone.
    enum Reduction: Sendable, CaseIterable {
        case silentExits, settledRoundChecks, quietDidEnterBackgroundExits, hiddenStepsFirst
    }

    /// Explores `s` whole (no random schedules), with every reduction but `reduction`: the runs
    /// as drawn, whether one failed, and how many schedules were counted.
    static func explore(_ s: Scenario, without reduction: Reduction? = nil) -> (runs: Set<String>, failed: Bool, schedules: Int) {
        var options = Explorer.Options()
        options.randomSchedules = 0
        options.maxRuns = 200_000
        switch reduction {
        case .silentExits?: options.takesSilentExitsAtOnce = false
        case .settledRoundChecks?: options.dropsSettledRoundChecks = false
        case .quietDidEnterBackgroundExits?: options.takesQuietDidEnterBackgroundExitsAtOnce = false
        case .hiddenStepsFirst?: options.takesHiddenStepsFirst = false
        case nil: break
        }
        let explorer = Explorer(scenario: s, options: options)
        var runs = Set<String>()
        _ = explorer.firstTrace { trace in
            // How the run ended, and when, and whether it failed an expectation.
            runs.insert("\(trace.outcome) at \(trace.outcome.time)")
            return false
        }
        for end in explorer.reachableOutcomes().outcomes {
            runs.insert("\(end.outcome): \(end.failure ?? "holds")")
        }
        let result = explorer.explore(stopAtFirstFailure: false)
        return (runs, result.failure != nil, result.runs)
    }

    /// With `reduction` the whole space gives the same verdict and reaches every outcome it
    /// reached without. (Not in fewer schedules always: see the suite's note on preemptions.)
    static func expectNoRunLost(_ reduction: Reduction, _ s: Scenario, _ name: String) {
        let offered = explore(s, without: reduction)
        let reduced = explore(s)
        #expect(offered.failed == reduced.failed, "\(name): the verdict changed")
        let lost = offered.runs.subtracting(reduced.runs)
        #expect(lost.isEmpty, "\(name): \(lost.count) outcomes no longer reached, e.g.\n\(lost.sorted().first ?? "")")
    }

    /// Each reduction alone: silent exits (only the thread that just ran), settled leak checks
    /// dropped (a round's tasks start expiring when it starts and an ended task stays ended, so a
    /// check that finds no leak never will; `Machine.isDead`), and `applicationDidEnterBackground`
    /// left while something else holds the app up (`Machine.didEnterBackgroundExitIsSilent`).
    @Test(arguments: Reduction.allCases, ExplorerMemoTests.texts.indices)
    func aReductionLosesNoRun(_ reduction: Reduction, index: Int) throws {
        let (name, text) = ExplorerMemoTests.texts[index]
        Self.expectNoRunLost(reduction, try #require(scenario(text)), name)
    }

    /// Each reduction earns its place on the benchmark corpus's upload pattern: a worker ends with
    /// `work`, and an early expiry, its leak check and the exit from `applicationDidEnterBackground`
    /// fall due at instants where they only repeated runs.
    @Test(arguments: Reduction.allCases)
    func aReductionCutsTheSchedules(_ reduction: Reduction) throws {
        let s = try #require(scenario(ScenarioSamples.applesListingCorrected.text))
        #expect(Self.explore(s).schedules < Self.explore(s, without: reduction).schedules)
    }

    /// Found by FuzzScenario: the second worker wakes from its `work` with nothing left to do
    /// while the first stays current. Taken at once, its exit left `current` on the first worker,
    /// so after the expiry the default went to that worker rather than to the expiry handler on
    /// main, and the run drawn here took three choices instead of two.
    @Test func aWakingWorkersExitKeepsTheDefaultsItHadOffered() throws {
        let s = try #require(scenario("""
            system grants beginBackgroundTask
            var taskID: UIBackgroundTaskIdentifier = .invalid

            on applicationDidEnterBackground {
              taskID = beginBackgroundTask(withName: "Sync") {
                endBackgroundTask(taskID)
                taskID = .invalid
              }
              DispatchQueue.global().async {
                work 21s
                taskID = .invalid
              }
              DispatchQueue.global().async {
                work 20s
              }
            }

            expect suspended
            """))
        Self.expectNoRunLost(.silentExits, s, "two workers")
    }
}

/// Leaving `applicationDidEnterBackground` while something else holds the app up, before the
/// handler's deadline, is taken at once like other silent exits (`Machine.didEnterBackgroundExitIsSilent`);
/// `SilentExitTests.aReductionLosesNoRun` covers the samples, this the deadline's edge.
@Suite struct QuietDidEnterBackgroundExitTests {
    /// The handler leaves at the very instant its 5 s deadline falls due, while a task holds the
    /// app up: the deadline may still come first, so that exit must stay an alternative.
    @Test func anExitAtItsDeadlineStaysAChoice() throws {
        let s = try #require(scenario("""
            on applicationDidEnterBackground {
              let id = beginBackgroundTask(withName: "slow")
              work 5s
            }
            expect suspended
            """))
        let offered = SilentExitTests.explore(s, without: .quietDidEnterBackgroundExits)
        #expect(offered.runs.contains { $0.contains("applicationDidEnterBackground") && $0.contains("0x8badf00d") })
        SilentExitTests.expectNoRunLost(.quietDidEnterBackgroundExits, s, "an exit at its deadline")
    }
}
