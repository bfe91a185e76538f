import BGKBEngine
import BGKBModel

// Benchmark, not a test: prints simulated events per second (full exploration of every sample,
// repeated) and the wall time of `check` over the samples. Build and run in release:
//     swift run -c release BenchEngine [repeats]
let repeats = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 5 : 5
let clock = ContinuousClock()

var scenarios: [Scenario] = []
for sample in ScenarioSamples.all {
    let (parsed, diagnostics) = ScenarioParser.parse(sample.text, at: SourceLocation(path: sample.name, line: 1, column: 1))
    guard let parsed else {
        print("\(sample.name) does not parse: \(diagnostics.all)")
        continue
    }
    scenarios.append(parsed)
}

var events = 0
var runs = 0
let exploreTime = clock.measure {
    for _ in 0..<repeats {
        for scenario in scenarios {
            let result = Explorer(scenario: scenario).explore(stopAtFirstFailure: false)
            events += result.events
            runs += result.runs
        }
    }
}
let seconds = Double(exploreTime.components.seconds) + Double(exploreTime.components.attoseconds) / 1e18
print("explore: \(runs) runs, \(events) simulated events in \(seconds) s = \(Int(Double(events) / seconds)) events/s")

var verdicts: [ExampleVerdict] = []
let checkTime = clock.measure {
    for sample in ScenarioSamples.all {
        if let verdict = check(sample.example).0 { verdicts.append(verdict) }
    }
}
let checkSeconds = Double(checkTime.components.seconds) + Double(checkTime.components.attoseconds) / 1e18
let passed = verdicts.filter(\.passed).count
print("check: \(verdicts.count) examples (\(passed) as intended), \(verdicts.map(\.schedulesExplored).reduce(0, +)) schedules in \(checkSeconds) s")
if CommandLine.arguments.contains("--verbose") {
    for verdict in verdicts {
        print("\(verdict.passed ? "ok  " : "FAIL") \(verdict.example.intent.rawValue) \(verdict.example.name ?? ""): \(verdict.summary)")
    }
}
if let index = CommandLine.arguments.firstIndex(of: "--show"), index + 1 < CommandLine.arguments.count {
    let name = CommandLine.arguments[index + 1]
    for verdict in verdicts where verdict.example.name == name {
        print(TimelineRenderer.render(verdict.counterexample ?? verdict.representative))
    }
}
