@testable import BGKBEngine
import BGKBModel
import Testing

/// The state cache (`StateCache`) leaves a run where it reaches a state explored already with as
/// many preemptions left. That must change no verdict and lose no outcome: compared with the
/// exploration without it, on every sample, breadth first and depth first.
@Suite struct StateCacheTests {
    /// Every stored property of `Machine` is either hashed into its fingerprint or left out for
    /// a stated reason: a field added to `Machine` and to neither list fails here.
    @Test func theFingerprintNamesEveryField() throws {
        let machine = Machine(scenario: try #require(scenario(ScenarioSamples.all[0].text)), constants: .standard)
        let labels = Set(Mirror(reflecting: machine).children.compactMap(\.label))
        #expect(labels.subtracting(Machine.fingerprinted).subtracting(Machine.notFingerprinted).isEmpty,
                "not in the fingerprint and not excused: \(labels.subtracting(Machine.fingerprinted).subtracting(Machine.notFingerprinted).sorted())")
        #expect(Machine.fingerprinted.isDisjoint(with: Machine.notFingerprinted))
        #expect(Machine.fingerprinted.union(Machine.notFingerprinted).subtracting(labels).isEmpty, "names of fields that no longer exist")
    }

    static func options(caching: Bool) -> Explorer.Options {
        var options = Explorer.Options()
        options.maxRuns = 300_000
        options.cachesStates = caching
        // The cache from the first schedule, not after an attempt without it.
        options.uncachedAttempt = 0
        return options
    }

    @Test(arguments: ExplorerMemoTests.texts.indices)
    func theCacheKeepsEveryVerdictAndOutcome(index: Int) throws {
        let (name, text) = ExplorerMemoTests.texts[index]
        let s = try #require(scenario(text))
        let whole = Explorer(scenario: s, options: Self.options(caching: false)).reachableOutcomes()
        #expect(whole.result.exhausted, "\(name)")
        for depthFirst in [false, true] {
            let cached = Explorer(scenario: s, options: Self.options(caching: true)).reachableOutcomes(depthFirst: depthFirst)
            let label = "\(name), depth first \(depthFirst)"
            #expect(cached.result.exhausted, "\(label)")
            #expect(cached.outcomes == whole.outcomes, "\(label): \(cached.outcomes.symmetricDifference(whole.outcomes))")
            #expect((cached.result.failure == nil) == (whole.result.failure == nil), "\(label)")
            #expect(cached.result.systematicRuns <= whole.result.systematicRuns, "\(label)")
        }
        // Stopping at the first failure, as `check` does, gives the same verdict too.
        for intent in [Example.Intent.follows, .breaks] {
            let cached = Explorer(scenario: s, options: Self.options(caching: true)).explore(checking: intent)
            let plain = Explorer(scenario: s, options: Self.options(caching: false)).explore(checking: intent)
            #expect((cached.failure == nil) == (plain.failure == nil), "\(name), \(intent)")
        }
    }

    /// With no preemption to spare the explorer still switches wherever the current thread
    /// cannot go on (it sleeps, waits or finished): those switches are free, as in CHESS, so
    /// bound 0 explores more than one interleaving of a scenario with two workers.
    @Test func switchesTheCurrentThreadForcesAreFree() throws {
        let s = try #require(scenario(ScenarioSamples.applesListingCorrected.text))
        var options = Explorer.Options()
        options.preemptionBound = 0
        options.randomSchedules = 0
        options.cachesStates = false
        var choices = 0
        _ = Explorer(scenario: s, options: options).firstTrace { trace in
            if !trace.schedule.contains("choices=-") { choices += 1 }
            return false
        }
        #expect(choices > 0)
    }

    /// An exploration its budget cuts short says so, and the verdict fails for either intent.
    @Test(arguments: [Example.Intent.follows, .breaks])
    func anExplorationCutShortIsIncomplete(intent: Example.Intent) throws {
        let s = try #require(scenario(ScenarioSamples.applesListingCorrected.text))
        var options = Explorer.Options()
        options.maxRuns = 3
        let result = Explorer(scenario: s, options: options).explore(checking: intent)
        #expect(!result.exhausted && result.failure == nil)
        let (passed, summary) = judge(intent, result)
        #expect(!passed)
        #expect(summary == "incomplete (3 schedules, space not exhausted): " + incompleteAdvice)
        let whole = Explorer(scenario: s).explore(checking: intent)
        #expect(whole.exhausted)
        #expect(judge(intent, whole).summary.hasPrefix(intent == .follows ? "holds in all \(whole.systematicRuns) schedules within \(Explorer.Options().preemptionBound) preemptions"
                                                                           : "expected to break, but holds in all"))
    }
}
