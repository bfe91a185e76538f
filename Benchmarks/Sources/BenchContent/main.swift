import BGKBContent
import BGKBEngine
import BGKBModel
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Times `ContentLoader.load(directory:)` in process, so the figure is the pipeline's cost
/// without process start-up: `BenchContent DIR [RUNS]` prints the median, min and max in ms.
/// Used by .ci/bench/run.sh for the real Content.
/// `BenchContent --dump DIR` prints the corpus and diagnostics as sorted JSON instead, so an
/// optimisation can be checked to change nothing: dump before, dump after, `cmp`.
/// `BenchContent --check DIR` runs every example through the engine (as `bgkb check` will) and
/// prints examples and simulated events per second, and each example that fails.
var arguments = CommandLine.arguments.dropFirst()
let dump = arguments.first == "--dump"
if checkExamples, let directory = arguments.first {
    let examples: [Example]
    do {
        examples = try ContentLoader.load(directory: directory).corpus.rules.flatMap(\.examples)
    } catch {
        print("\(error)")
        exit(1)
    }
    let clock = ContinuousClock()
    var failed = 0
    let checkTime = clock.measure {
        for example in examples {
            let (verdict, diagnostics) = check(example)
            if verdict?.passed != true {
                failed += 1
                if failed <= 5 { print("FAIL \(example.location) \(example.name ?? ""): \(verdict?.summary ?? diagnostics.all.map(\.description).joined(separator: "; "))") }
            }
        }
    }
    var events = 0, runs = 0
    let exploreTime = clock.measure {
        for example in examples {
            guard let scenario = ScenarioParser.parse(example.text, at: example.location).0 else { continue }
            let result = Explorer(scenario: scenario).explore(stopAtFirstFailure: true)
            events += result.events
            runs += result.runs
        }
    }
    func seconds(_ d: Duration) -> Double { Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18 }
    print("check \(directory): \(examples.count) examples, \(failed) failed, in \(seconds(checkTime)) s: \(Int(Double(examples.count) / seconds(checkTime))) examples/s; explore alone: \(runs) schedules, \(events) events in \(seconds(exploreTime)) s: \(Int(Double(events) / seconds(exploreTime))) events/s")
    exit(failed == 0 ? 0 : 1)
}
if dump { arguments = arguments.dropFirst() }
let checkExamples = arguments.first == "--check"
if checkExamples { arguments = arguments.dropFirst() }
guard let directory = arguments.first else {
    print("usage: BenchContent [--dump] DIR [RUNS]")
    exit(2)
}
if checkExamples, let directory = arguments.first {
    let examples: [Example]
    do {
        examples = try ContentLoader.load(directory: directory).corpus.rules.flatMap(\.examples)
    } catch {
        print("\(error)")
        exit(1)
    }
    let clock = ContinuousClock()
    var failed = 0
    let checkTime = clock.measure {
        for example in examples {
            let (verdict, diagnostics) = check(example)
            if verdict?.passed != true {
                failed += 1
                if failed <= 5 { print("FAIL \(example.location) \(example.name ?? ""): \(verdict?.summary ?? diagnostics.all.map(\.description).joined(separator: "; "))") }
            }
        }
    }
    var events = 0, runs = 0
    let exploreTime = clock.measure {
        for example in examples {
            guard let scenario = ScenarioParser.parse(example.text, at: example.location).0 else { continue }
            let result = Explorer(scenario: scenario).explore(stopAtFirstFailure: true)
            events += result.events
            runs += result.runs
        }
    }
    func seconds(_ d: Duration) -> Double { Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18 }
    print("check \(directory): \(examples.count) examples, \(failed) failed, in \(seconds(checkTime)) s: \(Int(Double(examples.count) / seconds(checkTime))) examples/s; explore alone: \(runs) schedules, \(events) events in \(seconds(exploreTime)) s: \(Int(Double(events) / seconds(exploreTime))) events/s")
    exit(failed == 0 ? 0 : 1)
}
if dump {
    do {
        let result = try ContentLoader.load(directory: directory)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        let data = try encoder.encode(result.corpus)
        FileHandle.standardOutput.write(data)
        print()
        for diagnostic in result.diagnostics.all { print(diagnostic) }
        exit(0)
    } catch {
        print("\(error)")
        exit(1)
    }
}
let runs = arguments.dropFirst().first.flatMap { Int($0) } ?? 21

var samples: [Double] = []
var rules = 0, errors = 0, warnings = 0
let clock = ContinuousClock()
for _ in 0..<max(1, runs) {
    let start = clock.now
    let result: ContentLoadResult
    do {
        result = try ContentLoader.load(directory: directory)
    } catch {
        print("\(error)")
        exit(1)
    }
    let elapsed = clock.now - start
    samples.append(Double(elapsed.components.seconds) * 1e3 + Double(elapsed.components.attoseconds) / 1e15)
    rules = result.corpus.rules.count
    errors = result.diagnostics.errors.count
    warnings = result.diagnostics.all.count - errors
}
samples.sort()
func format(_ ms: Double) -> String { String(Double(Int(ms * 100)) / 100) }
print("load \(directory): median \(format(samples[samples.count / 2])) ms (min \(format(samples[0])), max \(format(samples[samples.count - 1]))) over \(samples.count) runs; \(rules) rules, \(errors) errors, \(warnings) warnings")
