@testable import BGKBEngine
import BGKBModel
import Testing

/// Explorations take their machines from a pool that machines of earlier explorations, of other
/// scenarios, went back to (`MachinePool`). A pooled machine must run exactly as a fresh one:
/// nothing of its last scenario (its tables, its options) or of its last run may show.
@Suite struct MachinePoolTests {
    /// Everything an exploration reports, the kept runs drawn in full.
    static func summary(_ result: Explorer.Result) -> String {
        """
        runs \(result.runs) covered \(result.covered) capped \(result.capped) events \(result.events) \
        replayed \(result.replayedEvents) depth first \(result.depthFirst)
        failure \(result.failure.map { "\($0.schedule): \($0.reason)" } ?? "none")
        \(result.nominalTrace.map(TimelineRenderer.render) ?? "no nominal trace")
        \(result.failureTrace.map(TimelineRenderer.render) ?? "no failure trace")
        """
    }

    static func explore(_ s: Scenario, pool: MachinePool?, options: Explorer.Options, likelyToPass: Bool) -> String {
        var explorer = Explorer(scenario: s, options: options)
        explorer.pool = pool
        return summary(explorer.explore(stopAtFirstFailure: true, likelyToPass: likelyToPass))
    }

    /// Every sample and simulator case, one after another through one pool (forwards, then
    /// backwards, so machines pass from large scenarios to small and back), both ways of
    /// exploring, with options that differ from one exploration to the next: each result is the
    /// one machines made afresh give.
    @Test(arguments: [false, true])
    func pooledMachinesExploreAsFreshOnesDo(likelyToPass: Bool) throws {
        let scenarios = try ExplorerMemoTests.texts.map { ($0.0, try #require(scenario($0.1))) }
        let pool = MachinePool()
        var optionsCycle: [Explorer.Options] = []
        for variant in 0..<3 {
            var options = Explorer.Options()
            options.takesSilentExitsAtOnce = variant != 1
            options.dropsSettledRoundChecks = variant != 2
            options.takesQuietDidEnterBackgroundExitsAtOnce = variant != 1
            options.randomSchedules = 8
            optionsCycle.append(options)
        }
        var turn = 0
        for (name, s) in scenarios + scenarios.reversed() {
            let options = optionsCycle[turn % optionsCycle.count]
            turn += 1
            let fresh = Self.explore(s, pool: nil, options: options, likelyToPass: likelyToPass)
            let pooled = Self.explore(s, pool: pool, options: options, likelyToPass: likelyToPass)
            #expect(pooled == fresh, "\(name), turn \(turn)")
        }
        #expect(pool.count > 0)
    }

    /// A machine that grew past the pool's limit (a loop that runs towards the step limit) is
    /// not kept: the pool's memory stays small whatever a scenario did.
    @Test func aMachineThatGrewLargeIsNotKept() throws {
        let s = try #require(scenario("""
            var n = 0
            on applicationDidEnterBackground {
              for _ in 1...30000 {
                n = 1
              }
            }
            expect suspended
            """))
        let template = Machine(scenario: s, constants: .standard)
        let pool = MachinePool()
        let box = pool.take(like: template)
        box.machine.run(Explorer(scenario: s).nominalSchedule)
        #expect(box.machine.largestCapacity > MachinePool.largestKept)
        pool.give(box)
        #expect(pool.count == 0)
    }

    /// A machine given back is the one taken next, with its arrays' capacity: the pool is what
    /// spares the allocations.
    @Test func aMachineGivenBackIsTakenAgainWithItsCapacity() throws {
        let s = try #require(scenario(ScenarioSamples.applesListingCorrected.text))
        let template = Machine(scenario: s, constants: .standard)
        let pool = MachinePool()
        let box = pool.take(like: template)
        box.machine.run(Explorer(scenario: s).nominalSchedule)
        let capacity = box.machine.trace.capacity
        #expect(capacity > 0)
        pool.give(box)
        #expect(pool.count == 1)
        let again = pool.take(like: template)
        #expect(again === box)
        #expect(again.machine.trace.capacity == capacity)
        #expect(pool.count == 0)
    }
}
