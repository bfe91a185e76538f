import BGKBEngine
import BGKBModel

/// "How examples are checked": what the simulator models, what an example's labels and colours
/// mean, which schedules it explores and where that stops, and how a schedule string replays a
/// run. The figures come from the engine's own tables (`SystemConstants`, `Explorer.Options`),
/// so the page cannot drift from what was run.
enum ExamplesGuidePage {
    static func render(_ context: SiteContext) -> StepOutput {
        let page = SitePaths.examplesGuide
        let options = Explorer.Options()
        let rules = context.corpus.rules
        let simulated = rules.filter { !$0.examples.isEmpty }
        let exampleCount = simulated.reduce(0) { $0 + $1.examples.count }
        let html = Layout.page(path: page, title: "How examples are checked",
                               description: "What the simulator behind every example models, which schedules it tries, and how to replay a run.") { w in
            w.markup("<h1>How examples are checked</h1>\n<p class=\"lead\">")
            w.text("\(Format.count(exampleCount, "example")) on \(Format.count(simulated.count, "rule page")) were run by bgkb's simulator of iOS background execution when this site was built. Every outcome, timeline and colour on those pages comes from those runs; none is typed in.")
            w.markup("</p>\n")
            w.markup("""
            <h2 id="reading">Reading an example</h2>
            <p>Each example shows the app's code as Swift, then says in a sentence under which system conditions it runs and what should happen. Two words in the code are the simulator's shorthand, not Swift: <code>work 10s</code> keeps a thread busy for ten seconds of simulated time, and <code>on applicationDidEnterBackground { }</code> is the body of the app delegate's method of that name.</p>
            <p>The badge says what the example is there to show:</p>
            <ul>
            <li><span class="badge shows-correct">Correct code</span> follows the rule, and the app comes out well in every schedule tried.</li>
            <li><span class="badge shows-buggy">Buggy code</span> breaks the rule, and the simulator found a schedule in which the app is killed, crashes or gets a warning logged.</li>
            <li><span class="badge shows-happens">What happens</span> shows how the system behaves, for instance that a leaked task gets the app killed, or that a belief about the system is wrong. Such code is not there to be copied.</li>
            </ul>
            <p>The box under the code gives the outcome of the run shown and is coloured by what that outcome means for the app, not by whether the simulator agreed: <span class="tone-chip tone-good">green</span> the app was suspended or kept running with nothing logged, <span class="tone-chip tone-warning">amber</span> it survived but iOS logged a warning, <span class="tone-chip tone-bad">red</span> it was killed or crashed.</p>
            <h2 id="follows-breaks">What “follows” and “breaks” mean</h2>
            <p>In Content every example is marked <code>follows</code> or <code>breaks</code> and states what should happen (its expectations). A <strong>follows</strong> example passes when its expectations hold in <em>every</em> schedule the simulator tries: the page then shows the default run. A <strong>breaks</strong> example passes when <em>some</em> schedule violates them: the page shows the first such schedule, the one with the fewest departures from the default run. Besides its expectations, every run must log no warning the example does not expect. An example that does not behave as it says fails the build, so a page never shows one. A run the simulator has to stop at one of its own limits (a loop that takes no simulated time never ends) is <strong>undecided</strong>: it is not a verdict about the app, and the example fails whatever its intent.</p>
            <h2 id="model">What the simulator models</h2>
            <p>The app's lifecycle (launching, foreground, background, suspended, terminated); background task identifiers, <code>.invalid</code> and refusal (both the older way, returning <code>.invalid</code>, and the newer, calling the expiration handler at once); tasks begun in the foreground staying dormant until the app is in the background; one budget per background period shared by all tasks; expiry at any moment; expiration handlers on the main thread, one after another; the watchdog's kills; suspension once nothing is outstanding; <code>performExpiringActivity</code>; BGTaskScheduler registration, permitted identifiers, submission errors and pending limits, launch conditions and budgets; background pushes. It models time, threads and queues, not memory, networking or the real scheduler's heuristics: a rule about those is marked “not simulated” on its page.</p>
            <p>The numbers it uses, each with how firm it is and where it comes from:</p>
            <table class="numbers constants">
            <caption class="visually-hidden">The simulator's constants</caption>
            <thead><tr><th scope="col">Constant</th><th scope="col">Value</th><th scope="col">How firm</th><th scope="col">Source</th></tr></thead>
            <tbody>

            """)
            for row in SystemConstants.standard.table {
                w.markup("<tr><th scope=\"row\">"); w.text(row.name); w.markup("</th><td>")
                w.text(Format.number(row.value) + (row.unit == "count" ? "" : "\u{00A0}" + row.unit))
                w.markup("</td><td>"); w.text(row.firmness); w.markup("</td><td>"); w.text(row.source); w.markup("</td></tr>\n")
            }
            w.markup("</tbody>\n</table>\n<h2 id=\"explored\">Which schedules are tried</h2>\n<p>")
            let budgets = options.budgets.sorted().map(Format.seconds)
            w.text("A run is fully determined by the example, the constants above and a schedule: the system's choices (the budget, whether it refuses a task, when it expires tasks) and which thread runs next. Where an example does not pin a condition, the simulator varies it: budgets of \(ExampleProse.join(budgets, with: "and")); granting and refusing tasks; expiring them early at every instant where something happens in the background, and just before and after; and under each of those every thread interleaving with up to \(options.preemptionBound) preemptions (switching away from a thread that could go on; a switch where the running thread sleeps, waits or finished is free), skipping a run once it reaches a state already explored with as many preemptions to spare; then \(options.randomSchedules) seeded random schedules. A step nothing else can see or disturb (entering a function or a loop, starting work or a dispatched block, reading or writing a variable that only main-thread code mentions) is taken before anything that could go first, since the order could not change how the run ends: a partial-order reduction, which the test suite checks, on every example, loses no ending. A verdict says how many distinct schedules that space held (“holds in all N schedules within \(options.preemptionBound) preemptions”), so “every schedule” means every schedule in that bounded space, not every schedule a real device could take. An exploration that would need more than \(Format.number(Double(options.maxRuns))) schedules stops, says “incomplete”, and fails its test.")
            w.markup("</p>\n<h2 id=\"replay\">Replaying a run</h2>\n<p>Under each example, “Replay this run” gives the run's schedule string, such as <code>budget=30s refusal=none expire=11s choices=4:1</code>: the budget, the refusal mode, when the system expired tasks (<code>never</code> when only at the end of the budget) and the thread choices that differ from the default (<code>-</code> for none). Passed to <code>bgkb check --rule ID --replay \"…\"</code>, it reruns exactly that run and prints it as a timeline. A schedule the example's own conditions rule out (another budget than the one it pins, a refusal where it pins a grant, an early expiry where it pins none) is refused, with the line of the condition it contradicts.</p>\n")
        }
        return StepOutput(page, html)
    }
}
