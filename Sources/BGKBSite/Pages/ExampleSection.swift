import BGKBEngine
import BGKBModel

/// One example on a rule page: what it shows (correct code, buggy code, what happens), the app's
/// code as highlighted Swift, the conditions and expectations as sentences, the outcome the engine
/// found (coloured by what it means for the app), the timeline with a legend of its own, and the
/// replay string tucked into a details element.
enum ExampleSection {
    /// `scenario`: the example's scenario as the engine parsed it, if it kept it.
    static func write(_ example: Example, number: Int, rule: Rule, verdict: ExampleVerdict?, scenario: Scenario?,
                      guideHref: String, diagnostics: inout Diagnostics, into w: inout HTMLWriter) {
        let prose = ExampleProse(example: example, scenario: scenario)
        let trace = verdict.map(\.shownTrace)
        let tone = trace.map(OutcomeTone.init) ?? .good
        let label = ExampleLabel(intent: example.intent, expectsHarm: prose.expectsHarm, outcome: tone)
        // The section's anchor, `example-` and its number, is written where it goes: no String is made for it.
        w.markup("<section class=\"example example-"); w.text(label.rawValue); w.markup("\" aria-labelledby=\"example-"); w.number(number)
        w.markup("\">\n<h3 id=\"example-"); w.number(number); w.markup("\"><span class=\"badge shows-"); w.text(label.rawValue); w.markup("\">")
        w.text(label.title); w.markup("</span> Example "); w.number(number)
        if let name = example.name { w.markup(": "); w.text(name) }
        w.markup("</h3>\n")
        w.markup("<pre class=\"scenario\"><code class=\"language-swift\">")
        let code = SwiftHighlighter.tokens(prose.code)
        SwiftHighlighter.write(code, into: &w)
        w.markup("</code></pre>\n")
        writeCodeNotes(code, into: &w)
        writeExpectation(prose, intent: example.intent, guideHref: guideHref, into: &w)
        guard let verdict, let trace else {
            diagnostics.warning("site-missing-verdict", "example \(example.identifier) has no verdict from the engine", at: example.location)
            w.markup("<p class=\"notice\">No verdict: this example was not run when the site was built.</p>\n</section>\n")
            return
        }
        if !verdict.passed {
            diagnostics.error("site-example-failed", "example \(example.identifier) does not do what it says: \(verdict.summary)", at: example.location)
        }
        // The verdict box and the timeline's caption end with the same sentence: made once.
        let outcome = OutcomeTone.sentenceHTML(trace)
        writeVerdict(verdict, trace: trace, tone: tone, outcome: outcome, rule: rule, guideHref: guideHref, into: &w)
        writeTimeline(trace, outcome: outcome, number: number, rule: rule, broken: verdict.counterexample != nil, into: &w)
        w.markup("</section>\n")
    }

    /// What the scenario's two non-Swift words mean, when the code uses them: `work` once, and
    /// each `on` handler the code has, by its own name, in the order the code has them.
    static func writeCodeNotes(_ code: SwiftHighlighter.TokenizedCode, into w: inout HTMLWriter) {
        var usesWork = false
        var handlers: [ArraySlice<UInt8>] = []
        for token in code.tokens where token.kind == .simulated {
            let text = code.text(token)
            if text.starts(with: "work".utf8) {
                usesWork = true
            } else if text.starts(with: "on ".utf8) {
                let name = text.dropFirst(3)
                if !name.isEmpty, !handlers.contains(name) { handlers.append(name) }
            }
        }
        guard usesWork || !handlers.isEmpty else { return }
        w.markup("<p class=\"code-note\">Swift, with the simulator's shorthand")
        if usesWork { w.markup(": <code>work 10s</code> keeps the thread busy for 10 seconds of simulated time") }
        for (index, name) in handlers.enumerated() {
            if index == 0 {
                w.markup(usesWork ? "; " : ": ")
            } else if index == handlers.count - 1 {
                w.markup(handlers.count == 2 ? " and " : ", and ")
            } else {
                w.markup(", ")
            }
            w.markup("<code>on "); w.text(name); w.markup(" { }</code>")
        }
        if handlers.count > 1 {
            w.markup(" are what the delegate methods of those names do")
        } else if let only = handlers.first {
            // Every handler is an app delegate method but the session delegate's one.
            w.markup(Bytes.equals(only, "urlSessionDidFinishEvents") ? " is what the session delegate's method of that name does"
                                                         : " is what the app delegate's method of that name does")
        }
        w.markup(".</p>\n")
    }

    static func writeExpectation(_ prose: ExampleProse, intent: Example.Intent, guideHref: String, into w: inout HTMLWriter) {
        guard !prose.expectation.isEmpty else { return }
        w.markup("<p class=\"expectation\">")
        ExampleProse.writeTimeline(prose.timeline, into: &w); w.markup(" ")
        switch intent {
        case .follows:
            w.text(prose.conditions); w.markup(", "); w.text(prose.expectation)
            w.markup(". The simulator checks that this holds in every schedule it tries.")
        case .breaks:
            w.markup("What the rule wants: "); w.text(lowercasedFirst(prose.conditions)); w.markup(", ")
            w.text(prose.expectation); w.markup(". This code breaks the rule: the simulator must find a schedule in which that fails.")
        }
        w.markup("</p>\n")
    }

    /// `outcome`: `OutcomeTone.sentenceHTML(trace)`.
    static func writeVerdict(_ verdict: ExampleVerdict, trace: SimulationTrace, tone: OutcomeTone, outcome: [UInt8], rule: Rule,
                             guideHref: String, into w: inout HTMLWriter) {
        w.markup("<div class=\"verdict tone-"); w.text(tone.rawValue); w.markup("\">\n<p class=\"tl-outcome\"><span class=\"tone-label\">")
        switch tone {
        case .good: w.markup("Good for the app")
        case .warning: w.markup("Survives, with a warning")
        case .bad: w.markup("Bad for the app")
        case .undecided: w.markup("Undecided")
        }
        w.markup("</span> "); w.escaped(outcome[...]); w.markup("</p>\n<p>")
        let schedules = Format.count(verdict.schedulesExplored, "schedule")
        if !verdict.passed {
            w.markup("<strong>The simulator disagrees with this example</strong> after "); w.text(schedules); w.markup(".")
        } else if verdict.counterexample != nil, verdict.schedulesExplored == 1 {
            w.markup("The simulator agrees with the example: the first schedule it tried, the default one, shows it.")
        } else if verdict.counterexample != nil {
            w.markup("The simulator agrees with the example: it found this run among "); w.text(schedules); w.markup(".")
        } else {
            w.markup("The simulator agrees with the example: the expectation held in "); w.text(verdict.coverage); w.markup("; this is the default run.")
        }
        w.markup(" <a href=\""); w.text(guideHref); w.markup("\">How examples are checked</a>")
        w.markup("</p>\n<details class=\"replay\"><summary>Replay this run</summary>\n<p>The run is fully determined by its schedule string; <code>bgkb check</code> replays it exactly (<a href=\"")
        w.text(guideHref); w.markup("#replay\">what the string means</a>):</p>\n<pre class=\"command\"><code>bgkb check --rule ")
        w.text(rule.id); w.markup(" --replay \""); w.text(trace.schedule); w.markup("\"</code></pre>\n")
        if let seed = trace.seed { w.markup("<p>From the random schedule with seed "); w.text(String(seed)); w.markup(".</p>\n") }
        w.markup("</details>\n</div>\n")
    }

    static func writeTimeline(_ trace: SimulationTrace, outcome: [UInt8], number: Int, rule: Rule, broken: Bool, into w: inout HTMLWriter) {
        let timeline = TimelineSVG.Layout(trace: trace, outcome: outcome)
        w.markup("<figure class=\"timeline-figure\">\n<ul class=\"tl-legend\" aria-label=\"Legend\">")
        for item in timeline.legend {
            w.markup("<li><span class=\""); w.markup(item.swatchClass); w.markup("\" aria-hidden=\"true\"></span>"); w.markup(item.label); w.markup("</li>")
        }
        w.markup("</ul>\n<p class=\"tl-scroll-cue\" aria-hidden=\"true\">Scroll sideways to see the whole chart →</p>\n<div class=\"timeline-scroll\" tabindex=\"0\" role=\"group\" aria-label=\"Timeline chart\">\n")
        timeline.write(example: number, rule: rule.id, into: &w)
        w.markup("\n</div>\n<figcaption>")
        w.markup(broken ? "The run that breaks the rule. " : "The default run. ")
        w.escaped(timeline.descriptionHTML[...])
        w.markup("</figcaption>\n</figure>\n<details class=\"timeline-text\">\n<summary>The timeline as text</summary>\n<ol>\n")
        timeline.writeTextList(into: &w)
        w.markup("</ol>\n</details>\n")
    }

    /// The clause with its first letter lowered, unless it starts a name (`If` and `Whether`
    /// are the only openings `ExampleProse.conditions` writes).
    static func lowercasedFirst(_ text: String) -> String {
        text.prefix(1).lowercased() + text.dropFirst()
    }
}
