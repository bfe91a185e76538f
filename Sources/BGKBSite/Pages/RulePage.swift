import BGKBModel

/// A page per rule: the statement, why it matters, numbers, APIs, simulated examples with their
/// timelines, what to do instead, sources, revision history with word diffs, related rules.
enum RulePage {
    static let template = """
    <article class="rule" aria-labelledby="rule-title">
    <header class="rule-header">
    <p class="card-meta"><span class="badge {{kindClass}}">{{kind}}</span>{{#callout}} <span class="badge callout">{{callout}}</span>{{/callout}}{{#removed}} <span class="badge removed">Removed</span>{{/removed}}{{#crashCodes}} <a class="code-chip" href="{{href}}">{{code}}</a>{{/crashCodes}}</p>
    <h1 id="rule-title"{{#longTitle}} class="long"{{/longTitle}}>{{title}}</h1>
    {{#showStatement}}<p class="statement">{{statement}}</p>
    {{/showStatement}}
    <p class="rule-meta">Rule <code>{{id}}</code>{{#hasTopics}} · Topics: {{#topics}}<a href="{{href}}">{{title}}</a>{{^last}}, {{/last}}{{/topics}}{{/hasTopics}}{{#document}} · From <a href="{{href}}">{{title}}</a>{{#version}} ({{version}}){{/version}}{{/document}}</p>
    </header>
    {{#removed}}<p class="notice">This rule is no longer in the latest version of its document. It stays here with its history.</p>
    {{/removed}}{{#hasDetails}}<div class="prose">{{{detailsHtml}}}</div>
    {{/hasDetails}}{{#hasWhy}}<section aria-labelledby="why">
    <h2 id="why">Why it matters</h2>
    <div class="prose">{{{whyHtml}}}</div>
    </section>
    {{/hasWhy}}{{#dispute}}<section class="dispute" aria-labelledby="dispute">
    <h2 id="dispute">The disputed claim</h2>
    <p><span class="badge verdict-{{verdict}}">{{verdictLabel}}</span> {{claim}}</p>
    <p>Claimed by <a href="{{claimedBy.href}}">{{claimedBy.title}}</a>{{#claimedBy.locator}}, in “{{claimedBy.locator}}”{{/claimedBy.locator}}.</p>
    {{#hasCounterSources}}<p>Contradicted by:</p>
    <ul>{{#counterSources}}<li><a href="{{href}}">{{title}}</a>{{#locator}}: {{locator}}{{/locator}}{{#unverified}} <span class="badge unverified">unverified</span>{{/unverified}}</li>{{/counterSources}}</ul>
    {{/hasCounterSources}}{{#hasCorrectedBy}}<p>What is true instead: {{#correctedBy}}<a href="{{href}}">{{title}}</a>{{^last}}; {{/last}}{{/correctedBy}}.</p>
    {{/hasCorrectedBy}}</section>
    {{/dispute}}{{#hasNumbers}}<section aria-labelledby="numbers">
    <h2 id="numbers">Numbers</h2>
    <table class="numbers">
    <caption class="visually-hidden">Numbers this rule states, with how firm they are</caption>
    <thead><tr><th scope="col">Measures</th><th scope="col">Value</th><th scope="col">How firm</th><th scope="col">Note</th></tr></thead>
    <tbody>
    {{#numbers}}<tr><th scope="row">{{measures}}</th><td>{{value}}</td><td><span class="firmness firmness-{{firmness}}">{{firmnessLabel}}</span>{{^guaranteed}}, not guaranteed{{/guaranteed}}</td><td>{{note}}</td></tr>
    {{/numbers}}</tbody>
    </table>
    </section>
    {{/hasNumbers}}{{#hasAPIs}}<section aria-labelledby="apis">
    <h2 id="apis">APIs</h2>
    <ul class="api-list">{{#apis}}<li><a href="{{href}}"><code>{{name}}</code></a></li>{{/apis}}</ul>
    </section>
    {{/hasAPIs}}<section aria-labelledby="examples">
    <h2 id="examples">Examples, run by the simulator</h2>
    {{#notSimulated}}<p class="notice">Not simulated: {{notSimulated}}</p>
    {{/notSimulated}}{{^hasExamples}}{{^notSimulated}}<p>This rule has no examples yet.</p>
    {{/notSimulated}}{{/hasExamples}}{{#examples}}<section class="example example-{{intent}}" aria-labelledby="{{anchor}}">
    <h3 id="{{anchor}}">{{heading}}</h3>
    <p class="example-intent"><span class="badge intent-{{intent}}">{{intentLabel}}</span> {{intentText}}</p>
    <pre class="scenario"><code>{{scenario}}</code></pre>
    {{#hasVerdict}}<div class="verdict {{#passed}}verdict-pass{{/passed}}{{^passed}}verdict-fail{{/passed}}">
    <p><strong>Engine verdict:</strong> {{#passed}}as the example says{{/passed}}{{^passed}}NOT as the example says{{/passed}} — {{summary}}</p>
    <p>{{schedulesText}} explored.{{#hasCounterexample}} The breaking schedule: <code class="schedule">{{counterSchedule}}</code>{{#counterSeed}} (seed {{counterSeed}}){{/counterSeed}}.{{/hasCounterexample}}</p>
    </div>
    <figure class="timeline-figure">
    {{{timelineHtml}}}
    <figcaption><span class="tl-legend" aria-hidden="true"><span class="sw sw-task"></span>task running <span class="sw sw-leak"></span>task never ended <span class="sw sw-expiry"></span>expiry handler called <span class="sw sw-step"></span>code runs <span class="sw sw-log"></span>system logs a warning <span class="sw sw-end"></span>app killed or crashed. Events at one instant are spread out in the order they happened.</span>{{caption}}</figcaption>
    </figure>
    <details class="timeline-text">
    <summary>The timeline as text</summary>
    <ol>
    {{#events}}<li><span class="t">{{time}}</span> <span class="lane">{{lane}}</span> <span class="ev">{{kindLabel}}</span>{{#hasSubject}} <code>{{subject}}</code>{{/hasSubject}}: {{detail}}</li>
    {{/events}}</ol>
    </details>
    {{/hasVerdict}}{{^hasVerdict}}<p class="notice">No verdict: this example was not run when the site was built.</p>
    {{/hasVerdict}}</section>
    {{/examples}}</section>
    {{#hasInstead}}<section aria-labelledby="instead">
    <h2 id="instead">What to do instead</h2>
    <div class="prose">{{{insteadHtml}}}</div>
    </section>
    {{/hasInstead}}{{#hasConflicts}}<section aria-labelledby="conflicts">
    <h2 id="conflicts">Where the sources disagree</h2>
    <ul>{{#conflicts}}<li><a href="{{href}}">{{subject}}</a></li>{{/conflicts}}</ul>
    </section>
    {{/hasConflicts}}<section aria-labelledby="sources">
    <h2 id="sources">Sources</h2>
    {{#hasSources}}<ul class="citations">
    {{#sources}}<li><a href="{{href}}">{{title}}</a>{{#version}}, version {{version}}{{/version}}{{#locator}}: {{locator}}{{/locator}}{{#reliability}} <span class="badge reliability-{{reliability}}">{{reliability}}</span>{{/reliability}}{{#unverified}} <span class="badge unverified">not confirmed by us</span>{{/unverified}}{{#url}} · <a class="external" href="{{url}}" rel="external">original</a>{{/url}}</li>
    {{/sources}}</ul>
    {{/hasSources}}{{^hasSources}}<p>No source is cited.</p>
    {{/hasSources}}</section>
    <section aria-labelledby="history">
    <h2 id="history">Revision history</h2>
    {{#hasHistory}}<ol class="history">
    {{#history}}<li class="history-entry history-{{change}}">
    <p><span class="badge change-{{change}}">{{changeLabel}}</span>{{#version}} in version {{version}}{{/version}}{{#previousVersion}} (compared with {{previousVersion}}){{/previousVersion}}{{#undated}} <span class="entry">No dated revision entry covers it: it has been in the document since it was first written.</span>{{/undated}}</p>
    {{#entry}}<p class="entry"><time datetime="{{date}}">{{date}}</time>{{#showWritten}} (written “{{writtenDate}}”){{/showWritten}} · <a href="{{href}}">{{documentTitle}}</a>: {{text}}</p>
    {{/entry}}{{#hasDiff}}<p class="diff">{{{diffHtml}}}</p>
    {{/hasDiff}}{{#hasOldWording}}<p class="diff"><del>{{oldWording}}</del></p>
    {{/hasOldWording}}</li>
    {{/history}}</ol>
    {{/hasHistory}}{{^hasHistory}}<p>No recorded changes.</p>
    {{/hasHistory}}</section>
    {{#hasRelated}}<section aria-labelledby="related">
    <h2 id="related">Related rules</h2>
    <ul class="rule-list">{{#related}}<li><a href="{{href}}">{{title}}</a> <span class="badge {{kindClass}}">{{kind}}</span></li>{{/related}}</ul>
    </section>
    {{/hasRelated}}<section aria-labelledby="practise">
    <h2 id="practise">Practise</h2>
    <p>Test yourself on this rule in the terminal quiz:</p>
    <pre class="command"><code>{{quizCommand}}</code></pre>
    <p class="source-location">Written in <code>{{location}}</code>.</p>
    </section>
    </article>
    """

    static func renderAll(_ context: SiteContext) -> StepOutput {
        let rules = context.corpus.rules
        // Pages are independent, so they render on every core; each result goes to its rule's
        // slot and is merged in corpus order, so the output does not depend on thread timing.
        let results = ParallelMap.map(rules) { rule -> (String, String, Diagnostics)? in
            guard let path = context.rulePath(rule.id) else { return nil }
            let (html, diagnostics) = render(rule, context: context, path: path)
            return (path, html, diagnostics)
        }
        var output = StepOutput()
        for case let (path, html, diagnostics)? in results where output.files[path] == nil {
            output.files[path] = html
            output.diagnostics.append(contentsOf: diagnostics)
        }
        return output
    }

    static func render(_ rule: Rule, context: SiteContext, path: String) -> (String, Diagnostics) {
        var diagnostics = Diagnostics()
        let corpus = context.corpus
        func lastFlagged(_ items: [[String: Any]]) -> [[String: Any]] {
            items.enumerated().map { index, item in
                var item = item
                item["last"] = index == items.count - 1
                return item
            }
        }
        func references(_ ids: [String], what: String) -> [[String: Any]] {
            var seen = Set<String>()
            return ids.compactMap { id in
                guard seen.insert(id).inserted else { return nil }
                guard let reference = context.ruleReference(id, from: path) else {
                    diagnostics.warning("site-unknown-rule", "rule \(rule.id) names \(what) rule \(id), which does not exist", at: rule.location)
                    return nil
                }
                return reference
            }
        }

        let topics = lastFlagged(rule.topics.compactMap { context.topicReference($0, from: path) })
        var object: [String: Any] = [
            "id": rule.id,
            "title": SiteContext.heading(rule),
            "longTitle": SiteContext.heading(rule).count > 90,
            "showStatement": SiteContext.heading(rule) != rule.statement,
            "statement": rule.statement,
            "kind": KindLabel.text(rule.kind),
            "kindClass": KindLabel.cssClass(rule.kind),
            "removed": context.removedRuleIDs.contains(rule.id),
            "topics": topics,
            "hasTopics": !topics.isEmpty,
            "crashCodes": rule.crashCodes.map { code -> [String: Any] in
                ["code": code, "href": context.link(from: path, to: SitePaths.crashCodes, anchor: CrashCodesPage.anchor(code))]
            },
            "hasDetails": !rule.details.isEmpty,
            "detailsHtml": context.markdown(rule.details, from: path),
            "hasWhy": rule.why != nil,
            "whyHtml": rule.why.map { context.markdown($0, from: path) } ?? "",
            "hasInstead": rule.instead != nil,
            "insteadHtml": rule.instead.map { context.markdown($0, from: path) } ?? "",
            "location": context.configuration.display(rule.location),
            "quizCommand": rule.topics.first.map { "bgkb quiz --topic \($0)" } ?? "bgkb quiz",
        ]
        if let callout = rule.callout { object["callout"] = callout.rawValue }
        if let notSimulated = rule.notSimulated { object["notSimulated"] = notSimulated }
        if let document = context.documentsByID[rule.document], let documentPath = context.documentPath(document.id) {
            var value: [String: Any] = ["href": context.link(from: path, to: documentPath), "title": document.title]
            if let version = rule.version { value["version"] = version }
            object["document"] = value
        }

        let numbers: [[String: Any]] = rule.numbers.map { number in
            ["measures": number.measures, "value": numberText(number), "firmness": number.firmness.rawValue,
             "firmnessLabel": firmnessLabel(number.firmness), "guaranteed": number.guaranteed, "note": number.note ?? ""]
        }
        object["numbers"] = numbers
        object["hasNumbers"] = !numbers.isEmpty
        object["apis"] = rule.apis.map { api -> [String: Any] in
            ["name": api, "href": context.link(from: path, to: SitePaths.apis, anchor: context.apiAnchor(api))]
        }
        object["hasAPIs"] = !rule.apis.isEmpty

        if let dispute = rule.dispute {
            let counter = dispute.counterSources.map { context.citation($0, from: path) }
            let corrected = lastFlagged(references(dispute.correctedBy, what: "as corrected-by"))
            object["dispute"] = [
                "claim": dispute.claim, "verdict": dispute.verdict.rawValue,
                "verdictLabel": dispute.verdict == .wrong ? "Wrong" : "Doubtful",
                "claimedBy": context.citation(dispute.claimedBy, from: path),
                "counterSources": counter, "hasCounterSources": !counter.isEmpty,
                "correctedBy": corrected, "hasCorrectedBy": !corrected.isEmpty,
            ] as [String: Any]
        }

        var examples: [[String: Any]] = []
        for (index, example) in rule.examples.enumerated() {
            let anchor = "example-\(index + 1)"
            var value: [String: Any] = [
                "anchor": anchor,
                "heading": example.name.map { "Example \(index + 1): \($0)" } ?? "Example \(index + 1)",
                "intent": example.intent.rawValue,
                "intentLabel": example.intent == .follows ? "Follows the rule" : "Breaks the rule",
                "intentText": example.intent == .follows
                    ? "The simulator must find no schedule in which this goes wrong."
                    : "The simulator must find a schedule in which this goes wrong.",
                "scenario": example.text,
            ]
            if let verdict = context.verdicts[example.identifier] {
                let trace = verdict.counterexample ?? verdict.representative
                let drawing = TimelineSVG.render(trace, id: "tl-\(index + 1)",
                                                 title: "Timeline of example \(index + 1) of rule \(rule.id)",
                                                 templates: context.templates)
                value["hasVerdict"] = true
                value["passed"] = verdict.passed
                value["summary"] = shortSummary(verdict)
                value["schedulesText"] = Format.count(verdict.schedulesExplored, "schedule")
                value["hasCounterexample"] = verdict.counterexample != nil
                value["counterSchedule"] = verdict.counterexample?.schedule ?? ""
                if let seed = verdict.counterexample?.seed { value["counterSeed"] = String(seed) }
                value["timelineHtml"] = drawing.svg
                value["caption"] = (verdict.counterexample != nil ? "The breaking schedule. " : "A typical run. ") + drawing.description
                value["events"] = drawing.textEvents
                if !verdict.passed {
                    diagnostics.error("site-example-failed", "example \(example.identifier) does not do what it says: \(verdict.summary)", at: example.location)
                }
            } else {
                value["hasVerdict"] = false
                diagnostics.warning("site-missing-verdict", "example \(example.identifier) has no verdict from the engine", at: example.location)
            }
            examples.append(value)
        }
        object["examples"] = examples
        object["hasExamples"] = !examples.isEmpty

        let sources = rule.sources.map { context.citation($0, from: path) }
        object["sources"] = sources
        object["hasSources"] = !sources.isEmpty

        let conflicts: [[String: Any]] = corpus.conflicts.filter { $0.rules.contains(rule.id) }.map { conflict in
            ["subject": conflict.subject, "href": context.link(from: path, to: SitePaths.sources, anchor: SourcesPage.conflictAnchor(conflict.id))]
        }
        object["conflicts"] = conflicts
        object["hasConflicts"] = !conflicts.isEmpty

        let history: [[String: Any]] = rule.history.map { revision in historyValue(revision, context: context, from: path) }
        object["history"] = history
        object["hasHistory"] = !history.isEmpty

        let related = references(rule.related, what: "as related")
        object["related"] = related
        object["hasRelated"] = !related.isEmpty

        let body = context.templates.render("rule", object)
        let html = Layout.page(context, path: path, title: rule.title, description: rule.statement,
                               section: SitePaths.rulesIndex, body: body)
        return (html, diagnostics)
    }

    /// The engine's one-line summary without the trailing `[schedule]`, which the page shows
    /// on its own line.
    static func shortSummary(_ verdict: ExampleVerdict) -> String {
        guard let schedule = verdict.counterexample?.schedule, !schedule.isEmpty else { return verdict.summary }
        let suffix = " [\(schedule)]"
        return verdict.summary.hasSuffix(suffix) ? String(verdict.summary.dropLast(suffix.count)) : verdict.summary
    }

    static func historyValue(_ revision: RuleRevision, context: SiteContext, from path: String) -> [String: Any] {
        var value: [String: Any] = [
            "change": revision.change.rawValue,
            "changeLabel": revision.change.rawValue.prefix(1).uppercased() + revision.change.rawValue.dropFirst(),
        ]
        value["undated"] = revision.change == .added && revision.entry == nil && revision.previousVersion == nil
        value["version"] = revision.version ?? false
        value["previousVersion"] = revision.previousVersion ?? false
        value["entry"] = false
        if let entry = revision.entry {
            value["entry"] = RevisionTimelinePage.entryValue(entry, context: context, from: path)
        }
        if let old = revision.previousWording, let new = revision.wording, old != new {
            value["hasDiff"] = true
            // Compare what a reader sees, not the Markdown: backticks and list markers are noise here.
            value["diffHtml"] = WordDiff.html(context.plainText(old), context.plainText(new), templates: context.templates)
        } else {
            value["hasDiff"] = false
        }
        let oldOnly = revision.change == .removed && revision.previousWording != nil && revision.wording == nil
        value["hasOldWording"] = oldOnly
        value["oldWording"] = oldOnly ? context.plainText(revision.previousWording ?? "") : ""
        return value
    }

    static func numberText(_ number: StatedNumber) -> String {
        let amount = Format.number(number.value)
        let unit: String
        switch number.unit {
        case .count: unit = ""
        case .perHour: unit = "\u{00A0}per hour"
        case .weeks: unit = number.value == 1 ? "\u{00A0}week" : "\u{00A0}weeks"
        default: unit = "\u{00A0}" + number.unit.rawValue
        }
        switch number.firmness {
        case .exact: return amount + unit
        case .about: return "about " + amount + unit
        case .atMost: return "at most " + amount + unit
        case .atLeast: return "at least " + amount + unit
        case .vague: return "roughly " + amount + unit
        }
    }

    static func firmnessLabel(_ firmness: StatedNumber.Firmness) -> String {
        switch firmness {
        case .exact: return "Exact"
        case .about: return "Approximate"
        case .atMost: return "Upper bound"
        case .atLeast: return "Lower bound"
        case .vague: return "Vague, no figure given"
        }
    }
}
