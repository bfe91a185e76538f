import BGKBEngine
import BGKBModel

/// libFuzzer calls this with arbitrary bytes: parse them as a scenario and, when they parse,
/// run the nominal schedule, so neither the parser nor the simulator may trap on any input; then
/// explore the first schedules and run every one the explorer counted without simulating, which
/// must repeat the run it was counted as (a mismatch traps, so the fuzzer keeps the input).
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
    }
    return 0
}
