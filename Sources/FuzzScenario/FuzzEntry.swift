import BGKBEngine
import BGKBModel

/// libFuzzer calls this with arbitrary bytes: parse them as a scenario and, when they parse,
/// run the nominal schedule, so neither the parser nor the simulator may trap on any input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzScenario(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let (scenario, _) = ScenarioParser.parse(text, at: SourceLocation(path: "fuzz", line: 1, column: 1))
    if let scenario {
        var options = Explorer.Options()
        options.maxRuns = 3
        options.randomSchedules = 0
        let explorer = Explorer(scenario: scenario, options: options)
        _ = explorer.trace(explorer.nominalSchedule)
    }
    return 0
}
