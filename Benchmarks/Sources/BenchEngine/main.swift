import BGKBContent
import BGKBEngine
import BGKBModel
import ScenarioSamples
import Foundation

// Benchmark, not a test: prints simulated events per second (full exploration of every sample,
// repeated), the wall time of `check` over the samples and, with --content DIR, over every
// example in Content, on one thread. Build and run in release:
//     swift run --package-path Benchmarks -c release BenchEngine [repeats] [--content Content] [--verbose] [--show name] [--dump FILE] [--parse] [--work]
// --parse (with --content) times only the scenario parser: `repeats` passes over the examples.
// --work (with --content) also says how the schedules split (simulated, covered), the events
// simulated and replayed, and how many examples were explored depth first.
// --dump FILE writes every verdict (summary, schedule count, rendered traces) and each sample's
// explored runs and events, so an optimisation can be checked for byte-identical results.
let repeats = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 5 : 5
let clock = ContinuousClock()

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

if CommandLine.arguments.contains("--parse"), let index = CommandLine.arguments.firstIndex(of: "--content"),
   index + 1 < CommandLine.arguments.count {
    // The scenario parser alone (a first build parses every example once): `repeats` passes over
    // every example of the Content, and nothing else.
    guard let loaded = try? ContentLoader.load(directory: CommandLine.arguments[index + 1]) else {
        print("cannot load Content")
        exit(1)
    }
    let examples = loaded.corpus.examples
    var parsed = 0
    let time = clock.measure {
        for _ in 0..<repeats {
            for example in examples {
                parsed += ScenarioParser.parse(example.text, at: example.location).0 == nil ? 0 : 1
            }
        }
    }
    let parses = examples.count * repeats
    print("parse: \(parses) scenarios (\(parsed) parsed) in \(seconds(time)) s = \(Int(Double(parses) / seconds(time))) scenarios/s on one thread")
    exit(0)
}

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
var dump = ""
let dumpPath = CommandLine.arguments.firstIndex(of: "--dump").flatMap { $0 + 1 < CommandLine.arguments.count ? CommandLine.arguments[$0 + 1] : nil }
if dumpPath != nil {
    for scenario in scenarios {
        let result = Explorer(scenario: scenario).explore(stopAtFirstFailure: false)
        dump += "sample \(scenario.lines.first ?? ""): runs \(result.runs) events \(result.events) capped \(result.capped) failure \(result.failure.map { "\($0.schedule) \($0.reason)" } ?? "-")\n"
    }
}
@MainActor func dumpVerdict(_ verdict: ExampleVerdict) {
    guard dumpPath != nil else { return }
    dump += "== \(verdict.example.location) \(verdict.example.name ?? "") passed \(verdict.passed) schedules \(verdict.schedulesExplored) events \(verdict.simulatedEvents)\n\(verdict.summary)\n"
    // A verdict keeps the one run it shows: the counterexample when there is one.
    if verdict.isCounterexample { dump += "-- counterexample\n" }
    dump += TimelineRenderer.render(verdict.shownTrace) + "\n"
}
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
verdicts.forEach(dumpVerdict)
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
        print(TimelineRenderer.render(verdict.shownTrace))
    }
}

if let index = CommandLine.arguments.firstIndex(of: "--content"), index + 1 < CommandLine.arguments.count {
    do {
        let loaded = try ContentLoader.load(directory: CommandLine.arguments[index + 1])
        let examples = loaded.corpus.examples
        var contentVerdicts: [ExampleVerdict] = []
        let contentTime = clock.measure {
            for example in examples {
                if let verdict = check(example).0 { contentVerdicts.append(verdict) }
            }
        }
        let contentSeconds = Double(contentTime.components.seconds) + Double(contentTime.components.attoseconds) / 1e18
        contentVerdicts.forEach(dumpVerdict)
        let schedules = contentVerdicts.map(\.schedulesExplored).reduce(0, +)
        let passed = contentVerdicts.filter(\.passed).count
        print("content: \(examples.count) examples (\(passed) as intended), \(schedules) schedules in \(contentSeconds) s on one thread")
        if CommandLine.arguments.contains("--work") {
            // What the explorer did for those verdicts, explored as `check` explores them: the
            // schedules simulated or covered by the memo, the events simulated and replayed, and
            // how many examples went depth first.
            var runs = 0, covered = 0, events = 0, replayed = 0, depthFirst = 0
            for example in examples {
                guard let scenario = ScenarioParser.parse(example.text, at: example.location).0 else { continue }
                let result = Explorer(scenario: scenario).explore(checking: example.intent)
                runs += result.runs
                covered += result.covered
                events += result.events
                replayed += result.replayedEvents
                depthFirst += result.depthFirst ? 1 : 0
                if CommandLine.arguments.contains("--verbose") {
                    print("\(example.location) \(example.intent.rawValue): \(result.runs) schedules (\(result.runs - result.covered) simulated, "
                          + "\(result.covered) covered, \(result.equivalent) left at an explored state), \(result.events) events")
                }
            }
            print("work: \(runs) schedules (\(runs - covered) simulated, \(covered) covered), \(events) events simulated, "
                  + "\(replayed) replayed to reach children; \(depthFirst) of \(examples.count) examples explored depth first")
        }
    } catch {
        print("cannot load Content: \(error)")
    }
}

if let dumpPath {
    do {
        try dump.write(toFile: dumpPath, atomically: true, encoding: .utf8)
    } catch {
        print("cannot write \(dumpPath): \(error)")
    }
}
