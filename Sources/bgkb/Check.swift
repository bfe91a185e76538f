import ArgumentParser
import BGKBEngine
import BGKBModel
import Foundation

extension BGKB {
    /// Runs every example of every rule across the explored schedules.
    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "check",
            abstract: "Run every rule's examples in the simulator and report whether each behaves as its rule says.",
            discussion: """
                A `follows` example must hold in every explored schedule; a `breaks` example must fail in \
                some schedule, which is printed as a timeline with the schedule that replays it. \
                Exits with status 1 when an example does not behave as its intent says.
                """
        )

        @OptionGroup var options: ContentOptions

        @Flag(name: .long, help: "Print one JSON object per example (rule, intent, passed, bound, schedules, exhausted, counterexample outcome, seconds) and the totals.")
        var json = false

        @Option(name: .long, help: ArgumentHelp("Only the examples of this rule.", valueName: "rule-id"))
        var rule: String?

        @Option(name: .long, help: ArgumentHelp("Replay one schedule (as printed) for the examples selected with --rule.", valueName: "schedule"))
        var replay: String?

        @Flag(name: .long, help: "Print the timeline of every example, not only of those that break.")
        var timelines = false

        func run() throws {
            let result = try options.loadValid()
            let rules = result.corpus.rules.filter { rule == nil || $0.id == rule }
            if let rule, rules.isEmpty {
                throw ValidationError("no rule with id \(rule)")
            }
            if let replay {
                try replaySchedule(replay, rules: rules)
                return
            }
            let report = CheckReport.run(rules)
            if json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
                let data = try encoder.encode(report.json)
                FileHandle.standardOutput.write(data)
                FileHandle.standardOutput.write(Data("\n".utf8))
            } else {
                print(report.text(timelines: timelines), terminator: "")
            }
            DiagnosticPrinter.standardError.print(report.diagnostics.sorted)
            if !report.allPassed { throw ExitCode(1) }
        }

        private func replaySchedule(_ text: String, rules: [BGKBModel.Rule]) throws {
            guard let schedule = Schedule(parsing: text) else {
                throw ValidationError("cannot read the schedule '\(text)' (expected e.g. budget=30s refusal=none expire=never choices=-)")
            }
            guard rule != nil else { throw ValidationError("--replay needs --rule") }
            var contradicted = false
            for example in rules.flatMap(\.examples) {
                let (scenario, diagnostics) = ScenarioParser.parse(example.text, at: example.location)
                DiagnosticPrinter.standardError.print(diagnostics.all)
                guard let scenario else { continue }
                // A schedule the scenario's pins rule out would replay a run the explorer never
                // considers: refused, with the pin it contradicts.
                let contradictions = schedule.contradictions(pinnedBy: scenario)
                if !contradictions.isEmpty {
                    contradicted = true
                    var problems = Diagnostics()
                    for contradiction in contradictions {
                        let location = contradiction.line.map { line in
                            SourceLocation(path: example.location.path, line: example.location.line + line - 1,
                                           column: example.location.column + (contradiction.column ?? 1) - 1)
                        } ?? example.location
                        problems.error("replay-contradicts-pin", "cannot replay '\(text)' for this example: \(contradiction)", at: location,
                                       notes: ["replay a schedule `bgkb check --rule \(example.rule)` prints for it, or one that keeps the pin"])
                    }
                    DiagnosticPrinter.standardError.print(problems.sorted)
                    continue
                }
                let explorer = Explorer(scenario: scenario)
                print("\(example.location) \(example.intent.rawValue)\(example.name.map { " \"\($0)\"" } ?? "")")
                print(TimelineRenderer.render(explorer.trace(schedule)))
                print(explorer.failure(schedule).map { "expectation failed: \($0)" } ?? "expectations hold")
            }
            if contradicted { throw ExitCode(1) }
        }
    }
}

/// What `bgkb check` found: per-example verdicts, rule counts and the diagnostics of scenarios
/// that did not parse. Kept apart from printing so the JSON and text views agree.
struct CheckReport {
    var verdicts: [ExampleVerdict] = []
    /// The wall time each verdict took, in `verdicts` order.
    var times: [Double] = []
    var diagnostics = Diagnostics()
    var unparsed: [Example] = []
    var simulatedRules = 0
    /// Rules with `not-simulated`, grouped by reason.
    var notSimulated: [String: [String]] = [:]
    /// Rules with neither examples nor a reason.
    var uncovered: [String] = []
    /// Simulated rules missing a `follows` or a `breaks` example.
    var oneSided: [String] = []
    var seconds: Double = 0

    var allPassed: Bool { unparsed.isEmpty && verdicts.allSatisfy(\.passed) }
    var schedules: Int { verdicts.reduce(0) { $0 + $1.schedulesExplored } }

    static func run(_ rules: [BGKBModel.Rule]) -> CheckReport {
        var report = CheckReport()
        let start = Date()
        var examples: [Example] = []
        for rule in rules {
            if rule.examples.isEmpty {
                if let reason = rule.notSimulated {
                    report.notSimulated[reason, default: []].append(rule.id)
                } else {
                    report.uncovered.append(rule.id)
                }
                continue
            }
            report.simulatedRules += 1
            let intents = Set(rule.examples.map(\.intent))
            if intents.count < 2 { report.oneSided.append(rule.id) }
            examples.append(contentsOf: rule.examples)
        }
        // Examples are independent and each run is deterministic, so they check on every core;
        // results come back in Content order.
        let results = ParallelMap.map(examples) { example in
            let start = Date()
            let checked = check(example)
            return (checked.0, checked.1, Date().timeIntervalSince(start))
        }
        for (example, (verdict, diagnostics, seconds)) in zip(examples, results) {
            report.diagnostics.append(contentsOf: diagnostics)
            if let verdict {
                report.verdicts.append(verdict)
                report.times.append(seconds)
            } else {
                report.unparsed.append(example)
            }
        }
        report.seconds = Date().timeIntervalSince(start)
        return report
    }

    func text(timelines: Bool) -> String {
        var out = ""
        for verdict in verdicts {
            let example = verdict.example
            let mark = verdict.passed ? "ok  " : "FAIL"
            let name = example.name.map { " \"\($0)\"" } ?? ""
            out += "\(mark) \(example.identifier) \(example.intent.rawValue)\(name): \(verdict.summary)\n"
            if let trace = verdict.counterexample, timelines || example.intent == .breaks || !verdict.passed {
                out += indent(TimelineRenderer.render(trace))
            } else if timelines {
                out += indent(TimelineRenderer.render(verdict.shownTrace))
            }
        }
        for example in unparsed {
            out += "FAIL \(example.identifier) \(example.intent.rawValue): the scenario does not parse (see the diagnostics)\n"
        }
        let failed = verdicts.filter { !$0.passed }.count + unparsed.count
        let notSimulatedCount = notSimulated.values.reduce(0) { $0 + $1.count }
        let events = verdicts.reduce(0) { $0 + $1.simulatedEvents }
        let eventsPerSecond = seconds > 0 ? String(format: ", %.1f M events/s", Double(events) / seconds / 1e6) : ""
        out += "\n\(verdicts.count + unparsed.count) examples, \(schedules) schedules explored in \(String(format: "%.2f", seconds)) s "
        out += "(\(events) simulated events\(eventsPerSecond)): "
        out += failed == 0 ? "all behave as their intent says\n" : "\(failed) do not behave as their intent says\n"
        out += "rules: \(simulatedRules) simulated, \(notSimulatedCount) not simulated, \(uncovered.count) with neither examples nor a reason\n"
        for (reason, ids) in notSimulated.sorted(by: { $0.value.count > $1.value.count || $0.value.count == $1.value.count && $0.key < $1.key }) {
            out += "  not simulated (\(ids.count)): \(reason)\n"
        }
        if !oneSided.isEmpty {
            out += "  simulated with only one intent (\(oneSided.count)): \(oneSided.joined(separator: ", "))\n"
        }
        if !uncovered.isEmpty {
            out += "  no examples and no reason (\(uncovered.count)): \(uncovered.joined(separator: ", "))\n"
        }
        return out
    }

    private func indent(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 }.joined(separator: "\n") + "\n"
    }

    /// One example's verdict in `--json`: what it claims, whether it holds, the space explored
    /// (`bound` preemptions, `schedules` distinct schedules in it, `exhausted` when explored
    /// whole), the counterexample's outcome when one was found, and the time it took.
    struct ExampleJSON: Encodable {
        var rule: String
        var example: String
        var title: String?
        var intent: String
        var passed: Bool
        var summary: String
        var bound: Int
        var schedules: Int
        var randomSchedules: Int
        var exhausted: Bool
        var counterexample: String?
        var counterexampleSchedule: String?
        var seconds: Double
    }

    struct JSON: Encodable {
        var examples: [ExampleJSON]
        var unparsed: [String]
        var schedules: Int
        var simulatedRules: Int
        var notSimulated: [String: [String]]
        var uncovered: [String]
        var passed: Bool
    }

    var json: JSON {
        JSON(examples: zip(verdicts, times).map { verdict, seconds in
                 ExampleJSON(rule: verdict.example.rule, example: verdict.example.identifier, title: verdict.example.name,
                             intent: verdict.example.intent.rawValue, passed: verdict.passed, summary: verdict.summary,
                             bound: verdict.preemptionBound, schedules: verdict.schedules,
                             randomSchedules: verdict.schedulesExplored - verdict.schedules, exhausted: verdict.exhausted,
                             counterexample: verdict.counterexample.map { "\($0.outcome.description) at \($0.outcome.time) s" },
                             counterexampleSchedule: verdict.counterexample?.schedule,
                             seconds: (seconds * 1e6).rounded() / 1e6)
             }, unparsed: unparsed.map(\.identifier), schedules: schedules, simulatedRules: simulatedRules,
             notSimulated: notSimulated, uncovered: uncovered, passed: allPassed)
    }
}
