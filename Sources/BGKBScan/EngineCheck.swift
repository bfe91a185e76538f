import BGKBEngine
import BGKBModel

/// Runs a harness through the engine's public parser and explorer, one scenario per combination
/// of flags, and turns the first schedule that breaks it into a finding.
enum EngineCheck {
    /// Fewer schedules than `bgkb check` explores for a Content example: the scan runs a scenario
    /// per flag combination, and the failures it looks for show within one deviation (so two
    /// preemptions, not the three a Content example is checked with).
    static var options: Explorer.Options {
        var options = Explorer.Options()
        options.maxRuns = 500
        options.randomSchedules = 8
        options.preemptionBound = 2
        return options
    }

    /// The walk that looks for a second rule broken after the first: the systematic schedules
    /// of the first deviations, no random ones.
    static var lookOnOptions: Explorer.Options {
        var options = options
        options.maxRuns = 100
        options.randomSchedules = 0
        return options
    }

    struct Failure {
        var scenario: String
        var trace: SimulationTrace
        var reason: String
    }

    /// The findings of one harness: each concern's scenarios, one per combination of flags, are
    /// explored; a failing schedule the classifier can attribute is a finding, and so is a task
    /// the default schedule shows held until its time ran out. `problems` holds scenarios that
    /// did not parse (a scan bug, never reported as a finding of the app).
    static func findings(_ harness: Harness, path: String) -> (findings: [Finding], problems: [String]) {
        let classifier = Classifier(path: path, harness: harness)
        var findings: [Finding] = []
        var problems: [String] = []
        for concern in Harness.Concern.allCases where harness.applies(concern) {
            // Looking on past the first failure walks the schedules again: once per concern, at its
            // first failing combination of flags; later combinations report their first failure
            // (or, when the scan cannot attribute it, the first it can).
            var lookedOn = false
            for (variant, combination) in harness.scenarioChoices(for: concern) {
                let text = harness.text(flags: combination, concern: concern, variant: variant)
                let (parsed, diagnostics) = ScenarioParser.parse(text, at: SourceLocation(path: "scan", line: 1, column: 1))
                guard let scenario = parsed else {
                    let messages = diagnostics.all.map { "\($0.location?.line ?? 0): \($0.message)" }.joined(separator: "; ")
                    problems.append("\(path): generated scenario does not parse: \(messages)\n\(text)")
                    break
                }
                let explorer = Explorer(scenario: scenario, options: options)
                let result = explorer.explore(checking: .follows)
                if let failure = result.failure {
                    let trace = result.failureTrace ?? explorer.trace(failure.schedule)
                    var found: [Finding] = classifier.classify(trace, concern: concern).map { [$0] } ?? []
                    // One scenario may break several rules, on different schedules: look on for a
                    // schedule that breaks a rule (or the same rule elsewhere) not reported yet. The
                    // first failure may also be none the scan attributes (the system's own race).
                    let everyRule = !lookedOn
                    lookedOn = true
                    // Another rule shows within fewer schedules than the first failure needed, or
                    // not at all: the walk that looks on (a trace made of every run) is shorter.
                    let lookOn = found.isEmpty ? explorer : Explorer(scenario: scenario, options: lookOnOptions)
                    while everyRule || found.isEmpty, let next = lookOn.firstFailingTrace(where: { trace in
                        classifier.classify(trace, concern: concern).map { finding in !found.contains { $0.sameDefect(as: finding) } } ?? false
                    }), let finding = classifier.classify(next, concern: concern) {
                        found.append(finding)
                    }
                    for finding in found { add(finding, to: &findings) }
                }
                let nominal = result.nominalTrace ?? explorer.trace(explorer.nominalSchedule)
                if let finding = classifier.heldUntilTimeRunsOut(nominal, concern: concern) { add(finding, to: &findings) }
            }
        }
        // A handler called off main can also race its own store on main and be missed: one
        // defect, whose fix (call it on main) cures both; the off-main call is what is reported.
        if findings.contains(where: { $0.family == .sessionCompletionOffMain }) {
            findings.removeAll { $0.family == .sessionCompletionNotCalled }
        }
        return (findings, problems)
    }

    /// One finding per place and rule: the first schedule found is the one shown.
    private static func add(_ finding: Finding, to findings: inout [Finding]) {
        if !findings.contains(where: { $0.sameDefect(as: finding) }) { findings.append(finding) }
    }
}

extension EngineCheck {
    /// A begin with no expiration handler breaks its rule whatever the code around it does: the
    /// system may call the task in before it ends. The smallest scenario with such a begin,
    /// run through the engine, gives the schedule that shows it. Used for the begins the
    /// type's harness did not reach (code it could not model, callers it cannot see).
    static func beginWithoutHandler(at place: SourcePlace, path: String) -> Finding? {
        let text = """
            on applicationDidEnterBackground {
              let id = UIApplication.shared.beginBackgroundTask(expirationHandler: nil)   \(place.marker)
              work 100ms   \(place.marker)
              UIApplication.shared.endBackgroundTask(id)
            }
            expect suspended

            """
        guard let scenario = ScenarioParser.parse(text, at: SourceLocation(path: "scan", line: 1, column: 1)).0 else { return nil }
        let explorer = Explorer(scenario: scenario, options: options)
        guard let failure = explorer.explore(checking: .follows).failure else { return nil }
        let trace = explorer.trace(failure.schedule)
        let harness = Harness()
        return Classifier(path: path, harness: harness).leak(of: 1, in: trace)
    }
}
