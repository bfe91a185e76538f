import BGKBEngine
import BGKBModel

/// libFuzzer calls this with arbitrary bytes: parse them as a scenario and, when they parse,
/// run the nominal schedule, so neither the parser nor the simulator may trap on any input; then
/// explore the first schedules and run every one the explorer counted without simulating, which
/// must repeat the run it was counted as (a mismatch traps, so the fuzzer keeps the input).
/// When a small space is explored whole both ways, the explorer's reductions (silent exits and
/// quiet didEnterBackground exits taken at once, settled round checks dropped, the state cache)
/// must keep the verdict and every distinct outcome reached without them. Children resumed
/// from their parents' runs, and the depth-first order, must change nothing.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzScenario(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let (scenario, _) = ScenarioParser.parse(text, at: SourceLocation(path: "fuzz", line: 1, column: 1))
    if let scenario {
        var options = Explorer.Options()
        options.maxRuns = 80
        options.randomSchedules = 0
        let explorer = Explorer(scenario: scenario, options: options)
        _ = explorer.trace(explorer.nominalSchedule)
        let mismatches = explorer.reuseMismatches()
        precondition(mismatches.isEmpty, "explorer memo: \(mismatches.first ?? "")")
        if case let .differs(problem)? = compareReductions(scenario) { preconditionFailure("reductions: \(problem)") }
        if let problem = compareResumedChildren(scenario) { preconditionFailure("resumed children: \(problem)") }
        if let problem = compareDepthFirst(scenario) { preconditionFailure("depth first: \(problem)") }
    }
    return 0
}

/// The depth-first pass (`explore(stopAtFirstFailure:likelyToPass:)`) must give the
/// breadth-first result, field for field, stopping at the first failure or not, wherever the
/// space is explored whole (without the state cache, whose savings depend on the order): nil
/// when it does.
func compareDepthFirst(_ scenario: Scenario) -> String? {
    var options = Explorer.Options()
    options.maxRuns = 300
    options.randomSchedules = 4
    options.cachesStates = false
    let explorer = Explorer(scenario: scenario, options: options)
    for stop in [true, false] {
        let breadth = explorer.explore(stopAtFirstFailure: stop)
        let depth = explorer.explore(stopAtFirstFailure: stop, likelyToPass: true)
        if breadth.capped || depth.capped { continue }
        let same = depth.runs == breadth.runs && depth.covered == breadth.covered && depth.capped == breadth.capped
            && depth.events == breadth.events && depth.failure?.schedule == breadth.failure?.schedule
            && depth.failure?.reason == breadth.failure?.reason && depth.nominalTrace == breadth.nominalTrace
            && depth.failureTrace == breadth.failureTrace
        if !same {
            return "stop \(stop): \(depth.runs) runs, \(depth.covered) covered, \(depth.events) events, failure \(depth.failure.map { "\($0.schedule)" } ?? "-")"
                + " against \(breadth.runs), \(breadth.covered), \(breadth.events), \(breadth.failure.map { "\($0.schedule)" } ?? "-")"
        }
    }
    return nil
}

/// Children resumed from their parent's paused run (`Explorer.Options.resumesChildrenFromTheirParent`)
/// must make, in order, the very runs that children started over make: nil when they do. Runs
/// are compared by hash, so an input whose runs hit the step limit does not hold them all.
func compareResumedChildren(_ scenario: Scenario) -> String? {
    func runs(resuming: Bool) -> [Int] {
        var options = Explorer.Options()
        options.maxRuns = 80
        options.randomSchedules = 4
        options.resumesChildrenFromTheirParent = resuming
        var hashes: [Int] = []
        _ = Explorer(scenario: scenario, options: options).firstTrace { trace in
            hashes.append(trace.hashValue)
            return false
        }
        return hashes
    }
    let (resumed, fromStart) = (runs(resuming: true), runs(resuming: false))
    if resumed == fromStart { return nil }
    let index = resumed.indices.first { $0 >= fromStart.count || resumed[$0] != fromStart[$0] } ?? resumed.count
    return "run \(index) of \(fromStart.count) differs (\(resumed.count) runs resumed)"
}

/// What exploring a scenario whole with the reductions on and off found: nothing to compare (a
/// space over 1,000 schedules), the same verdict and every outcome (how many), or a difference.
enum ReductionComparison {
    case same(outcomes: Int)
    case differs(String)
}

func compareReductions(_ scenario: Scenario) -> ReductionComparison? {
    guard let offered = distinctOutcomes(scenario, reducing: false), let reduced = distinctOutcomes(scenario, reducing: true) else { return nil }
    if offered.failed != reduced.failed { return .differs("the verdict changed") }
    let lost = offered.outcomes.subtracting(reduced.outcomes)
    if let outcome = lost.first { return .differs("an ending is no longer reached: \(outcome.outcome) at \(outcome.outcome.time), \(outcome.failure ?? "holding")") }
    return .same(outcomes: offered.outcomes.count)
}

/// Every distinct end (outcome and failed expectation) of a whole exploration of up to 1,000
/// schedules and whether one failed; nil when the cap cut the exploration short.
private func distinctOutcomes(_ scenario: Scenario, reducing: Bool) -> (outcomes: Set<ReachedEnd>, failed: Bool)? {
    var options = Explorer.Options()
    options.maxRuns = 1000
    options.randomSchedules = 0
    options.takesSilentExitsAtOnce = reducing
    options.dropsSettledRoundChecks = reducing
    options.takesQuietDidEnterBackgroundExitsAtOnce = reducing
    options.takesHiddenStepsFirst = reducing
    options.cachesStates = reducing
    let (outcomes, result) = Explorer(scenario: scenario, options: options).reachableOutcomes()
    guard !result.capped else { return nil }
    return (outcomes, result.failure != nil)
}
