@testable import BGKBEngine
import BGKBModel
import Testing

/// A child schedule deviates from its parent's at one decision, so the explorer runs the parent's
/// run up to that decision once, pauses it there, and copies it into each child
/// (`Explorer.Options.resumesChildrenFromTheirParent`). That must change nothing but the work:
/// every run, in order, drawn the same; the same counts and verdict; fewer simulated events.
@Suite struct ResumedRunTests {
    /// Every run of the exploration in order, each drawn in full (its schedule line included).
    static func runs(_ s: Scenario, resuming: Bool, randomSchedules: Int = 0) -> [String] {
        var options = Explorer.Options()
        options.randomSchedules = randomSchedules
        options.maxRuns = 200_000
        options.resumesChildrenFromTheirParent = resuming
        var drawn: [String] = []
        _ = Explorer(scenario: s, options: options).firstTrace { trace in
            drawn.append(TimelineRenderer.render(trace))
            return false
        }
        return drawn
    }

    @Test(arguments: ExplorerMemoTests.texts.indices)
    func resumedChildrenMakeTheRunsTheyMadeFromTheStart(index: Int) throws {
        let (name, text) = ExplorerMemoTests.texts[index]
        let s = try #require(scenario(text))
        let fromStart = Self.runs(s, resuming: false, randomSchedules: 8)
        let resumed = Self.runs(s, resuming: true, randomSchedules: 8)
        #expect(resumed.count == fromStart.count, "\(name)")
        let first = resumed.indices.first { $0 < fromStart.count && resumed[$0] != fromStart[$0] }
        #expect(first == nil, "\(name): run \(first ?? -1) differs:\n\(first.map { resumed[$0] } ?? "")\n-- from the start:\n\(first.map { fromStart[$0] } ?? "")")
    }

    /// The verdict and its counts are the same whether children resume or start over, both
    /// stopping at the first failure and exploring whole; only the simulated events fall.
    @Test(arguments: ExplorerMemoTests.texts.indices, [false, true])
    func resumingKeepsTheResult(index: Int, stopAtFirstFailure: Bool) throws {
        let (name, text) = ExplorerMemoTests.texts[index]
        let s = try #require(scenario(text))
        var options = Explorer.Options()
        options.resumesChildrenFromTheirParent = false
        let fromStart = Explorer(scenario: s, options: options).explore(stopAtFirstFailure: stopAtFirstFailure)
        let resumed = Explorer(scenario: s).explore(stopAtFirstFailure: stopAtFirstFailure)
        #expect(resumed.runs == fromStart.runs, "\(name)")
        #expect(resumed.covered == fromStart.covered, "\(name)")
        #expect(resumed.capped == fromStart.capped, "\(name)")
        #expect(resumed.failure?.schedule == fromStart.failure?.schedule, "\(name)")
        #expect(resumed.failure?.reason == fromStart.failure?.reason, "\(name)")
        #expect(resumed.nominalTrace.map(TimelineRenderer.render) == fromStart.nominalTrace.map(TimelineRenderer.render), "\(name)")
        #expect(resumed.failureTrace.map(TimelineRenderer.render) == fromStart.failureTrace.map(TimelineRenderer.render), "\(name)")
        #expect(resumed.events <= fromStart.events, "\(name)")
    }

    /// Resuming earns its place: on the benchmark corpus's upload pattern most of a child's run
    /// is its parent's.
    @Test func resumingSimulatesFewerEvents() throws {
        let s = try #require(scenario(ScenarioSamples.applesListingCorrected.text))
        var options = Explorer.Options()
        options.resumesChildrenFromTheirParent = false
        let fromStart = Explorer(scenario: s, options: options).explore(stopAtFirstFailure: false)
        let resumed = Explorer(scenario: s).explore(stopAtFirstFailure: false)
        #expect(resumed.events * 4 < fromStart.events * 3, "\(resumed.events) of \(fromStart.events)")
    }
}

/// `Machine.copyState(from:)` lists the run's fields one by one (to copy into storage the machine
/// already has): a field added to `Machine` and not to it would leak one run's state into the
/// next. Every stored property, read by reflection, must come out equal.
@Suite struct MachineCopyTests {
    /// Fields that are not the run's state: the copy's own spare threads, and how much of its
    /// trace it inherited.
    static let notCopied: Set<String> = ["spareThreads", "inheritedEvents"]

    static func fields(_ machine: Machine) -> [String: String] {
        var fields: [String: String] = [:]
        for child in Mirror(reflecting: machine).children {
            guard let label = child.label, !notCopied.contains(label) else { continue }
            fields[label] = String(reflecting: child.value)
        }
        return fields
    }

    @Test(arguments: ExplorerMemoTests.texts.indices)
    func aCopyHoldsEveryFieldOfTheRun(index: Int) throws {
        let (name, text) = ExplorerMemoTests.texts[index]
        let s = try #require(scenario(text))
        let explorer = Explorer(scenario: s)
        // A copy made over a longer, different run (a forced expiry, another budget and refusal),
        // so arrays shrink as well as grow.
        var other = Machine(scenario: s, constants: .standard)
        other.run(Schedule(budget: 0, refusal: .callsExpirationHandler, forcedExpiry: 0.5))
        var source = Machine(scenario: s, constants: .standard)
        source.reset(explorer.nominalSchedule)
        var pause = 0
        while source.proceed(pausingAt: pause) {
            var copy = other
            copy.copyState(from: &source)
            let (expected, actual) = (Self.fields(source), Self.fields(copy))
            #expect(Set(actual.keys) == Set(expected.keys))
            for (label, value) in expected where actual[label] != value {
                Issue.record("\(name): `\(label)` not copied at decision \(pause)")
            }
            #expect(copy.inheritedEvents == source.trace.count)
            // Both go on to the same end.
            var ahead = source
            _ = ahead.proceed(pausingAt: -1)
            _ = copy.proceed(pausingAt: -1)
            #expect(Self.fields(copy) == Self.fields(ahead), "\(name): the copy ran on differently from decision \(pause)")
            pause += 1
        }
        #expect(source.outcome != nil)
    }
}

/// `Explorer.outcome` is `trace(_:).outcome` without building the trace's words: the same
/// outcome for every sample under the conditions the quiz asks about and an early expiry.
@Suite struct OutcomeOnlyTests {
    @Test(arguments: ExplorerMemoTests.texts.indices)
    func theOutcomeIsTheTracesOutcome(index: Int) throws {
        let (name, text) = ExplorerMemoTests.texts[index]
        let s = try #require(scenario(text))
        let explorer = Explorer(scenario: s)
        var schedules = [explorer.nominalSchedule]
        for budget in [0.0, 1, 5] {
            var schedule = explorer.nominalSchedule
            schedule.budget = budget
            schedules.append(schedule)
        }
        var refused = explorer.nominalSchedule
        refused.refusal = .returnsInvalid
        schedules.append(refused)
        var early = explorer.nominalSchedule
        early.forcedExpiry = 1.5
        schedules.append(early)
        for schedule in schedules {
            #expect(explorer.outcome(schedule) == explorer.trace(schedule).outcome, "\(name) [\(schedule)]")
        }
    }
}

/// `explore(stopAtFirstFailure:likelyToPass:)` visits the schedules depth first when told the
/// exploration will likely pass: each child runs from its parent's run as that run goes by.
/// Without the state cache (which of two runs meeting in one state goes on depends on the order)
/// it must give the breadth-first result exactly wherever the space is explored whole (it starts
/// over breadth first on a failure, where the order would show); cut short by the cap, both say
/// so. And it must actually save the parents' replays.
@Suite struct DepthFirstTests {
    struct Variant: Sendable, CustomStringConvertible {
        var bound: Int
        var maxRuns: Int
        var randomSchedules: Int
        var description: String { "bound \(bound), maxRuns \(maxRuns), random \(randomSchedules)" }
    }

    static let variants = [
        Variant(bound: 2, maxRuns: 4000, randomSchedules: 48),
        Variant(bound: 1, maxRuns: 4000, randomSchedules: 0),
        Variant(bound: 3, maxRuns: 4000, randomSchedules: 8),
        Variant(bound: 2, maxRuns: 60, randomSchedules: 8),
        Variant(bound: 0, maxRuns: 4000, randomSchedules: 8),
        // Caps that fall in level 0, level 1 and level 2 of the samples, and one in the random
        // schedules (breadth first stops at the same schedule depth first must settle at).
        Variant(bound: 2, maxRuns: 5, randomSchedules: 0),
        Variant(bound: 2, maxRuns: 25, randomSchedules: 0),
        Variant(bound: 2, maxRuns: 150, randomSchedules: 48),
        Variant(bound: 3, maxRuns: 400, randomSchedules: 48),
    ]

    static func explore(_ s: Scenario, _ variant: Variant, stopAtFirstFailure: Bool, likelyToPass: Bool) -> Explorer.Result {
        var options = Explorer.Options()
        options.preemptionBound = variant.bound
        options.maxRuns = variant.maxRuns
        options.randomSchedules = variant.randomSchedules
        options.cachesStates = false
        return Explorer(scenario: s, options: options).explore(stopAtFirstFailure: stopAtFirstFailure, likelyToPass: likelyToPass)
    }

    @Test(arguments: ExplorerMemoTests.texts.indices, variants)
    func depthFirstGivesTheBreadthFirstResult(index: Int, variant: Variant) throws {
        let (name, text) = ExplorerMemoTests.texts[index]
        let s = try #require(scenario(text))
        for stop in [true, false] {
            let breadth = Self.explore(s, variant, stopAtFirstFailure: stop, likelyToPass: false)
            let depth = Self.explore(s, variant, stopAtFirstFailure: stop, likelyToPass: true)
            let label = "\(name), \(variant), stop \(stop)"
            #expect(!breadth.depthFirst, "\(label)")
            // Cut short, each order stops at its own schedule: only that it was cut short, or
            // that a failure came first, is common to both.
            if breadth.capped || depth.capped {
                #expect(depth.capped || depth.failure != nil, "\(label)")
                #expect(breadth.capped || breadth.failure != nil, "\(label)")
                continue
            }
            #expect(depth.runs == breadth.runs, "\(label)")
            #expect(depth.covered == breadth.covered, "\(label)")
            #expect(depth.capped == breadth.capped, "\(label)")
            #expect(depth.events == breadth.events, "\(label)")
            #expect(depth.failure?.schedule == breadth.failure?.schedule, "\(label)")
            #expect(depth.failure?.reason == breadth.failure?.reason, "\(label)")
            #expect(depth.nominalTrace.map(TimelineRenderer.render) == breadth.nominalTrace.map(TimelineRenderer.render), "\(label)")
            #expect(depth.failureTrace.map(TimelineRenderer.render) == breadth.failureTrace.map(TimelineRenderer.render), "\(label)")
            // Depth first wherever nothing fails; never where breadth first meets a failure. Cut
            // short by the cap, the depth-first pass may run a failing schedule breadth first
            // never reaches (a later visit can turn out to lie past the cap) and start over.
            if breadth.failure != nil { #expect(!depth.depthFirst, "\(label)") }
            if breadth.failure == nil && !breadth.capped { #expect(depth.depthFirst, "\(label)") }
            // (Cut short by the cap, the walk may have replayed for schedules it then left out.)
            if depth.depthFirst && !breadth.capped && breadth.replayedEvents > 0 {
                #expect(depth.replayedEvents < breadth.replayedEvents, "\(label): replayed \(depth.replayedEvents) of \(breadth.replayedEvents)")
            }
        }
    }

    /// On the benchmark corpus's upload pattern, which holds, depth first replays nothing: every
    /// parent of a simulated child was itself simulated.
    @Test func aPassingExplorationReplaysLittle() throws {
        let s = try #require(scenario(ScenarioSamples.applesListingCorrected.text))
        let breadth = Explorer(scenario: s).explore(stopAtFirstFailure: true)
        let depth = Explorer(scenario: s).explore(stopAtFirstFailure: true, likelyToPass: true)
        #expect(breadth.failure == nil && depth.depthFirst)
        #expect(breadth.replayedEvents > 0)
        #expect(depth.replayedEvents * 4 < breadth.replayedEvents, "\(depth.replayedEvents) of \(breadth.replayedEvents)")
    }
}
