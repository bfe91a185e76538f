import BGKBEngine
import BGKBExamples
import BGKBModel

/// A page per rule: the statement, why it matters, numbers, APIs, simulated examples with their
/// timelines, what to do instead, sources, revision history with word diffs, related rules.
enum RulePage {
    static func renderAll(_ context: SiteContext, sink: SiteSink) -> StepOutput {
        // Pages are independent, so they render on every core and go to the sink (disk) as soon as
        // each is made; only their diagnostics come back, merged in corpus order, so the output
        // does not depend on thread timing. Rules are read by position from the corpus, not
        // copied into pairs.
        // The streaming build's pages also write the search index (`SearchIndexFeed`).
        let feed = context.ledger == nil ? nil : SearchIndexFeed(ruleCount: context.corpus.rules.count, sink: sink, closing: SearchItems.closing(context))
        let results = ParallelMap.map(Array(context.corpus.rules.indices)) { index -> Diagnostics? in
            renderOne(context.corpus.rules[index], index: index, context: context, sink: sink, feed: feed)
        }
        var output = StepOutput()
        for case let diagnostics? in results {
            output.diagnostics.append(contentsOf: diagnostics)
            output.streamedCount += 1
        }
        if let feed { output.streamed(SitePaths.searchIndex, new: feed.finish()) }
        return output
    }

    /// One rule's page (running its examples first in the streaming build); nil when the rule has
    /// no page. The rule is borrowed from the corpus, not copied.
    private static func renderOne(_ rule: Rule, index: Int, context: SiteContext, sink: SiteSink, feed: SearchIndexFeed?) -> Diagnostics? {
        guard let path = context.rulePath(rule.id) else {
            feed?.deliver(index, [])
            return nil
        }
        guard let ledger = context.ledger else {
            var diagnostics = Diagnostics()
            sink.emit(path, write(rule, index: index, context: context, path: path, verdicts: context.verdicts, diagnostics: &diagnostics))
            return diagnostics
        }
        // The streaming build: run this rule's examples now and drop their traces as soon as
        // the page is written, so at most a few rules' traces are in memory at once.
        let (verdicts, scenarios, exampleDiagnostics) = ledger.check(rule: index, rule)
        // The page's prose, parsed to render it, also gives the search index its text.
        var plainTexts: [String]? = feed == nil ? nil : []
        var diagnostics = Diagnostics()
        sink.emit(path, write(rule, index: index, context: context, path: path, verdicts: verdicts, scenarios: scenarios,
                              plainTexts: &plainTexts, diagnostics: &diagnostics))
        if let feed, let plainTexts {
            feed.deliver(index, SearchPage.entry(rule, index: index, path: path, text: plainTexts.joined(separator: " "), context: context))
        }
        ledger.record(rule: index, verdicts: verdicts, diagnostics: exampleDiagnostics)
        return diagnostics
    }

    /// `index`: the rule's position in the corpus.
    /// `verdicts`: this rule's examples' verdicts by `Example.identifier` (more are fine).
    /// `scenarios`: their scenarios as the engine parsed them, by the same key; an example missing
    /// there is parsed again for its sentences.
    /// `plainTexts`, when not nil, gets the plain text of the details, why and instead the page
    /// renders (those not empty, in that order).
    /// `diagnostics` gets what the page found wrong (an example it could not draw, a related rule
    /// that is not there).
    static func write(_ rule: Rule, index: Int, context: SiteContext, path: String,
                      verdicts: [String: ExampleVerdict], diagnostics: inout Diagnostics) -> HTMLWriter {
        var none: [String]?
        return write(rule, index: index, context: context, path: path, verdicts: verdicts, scenarios: [:], plainTexts: &none,
                     diagnostics: &diagnostics)
    }

    static func write(_ rule: Rule, index: Int, context: SiteContext, path: String, verdicts: [String: ExampleVerdict],
                      scenarios: [String: Scenario], plainTexts: inout [String]?, diagnostics: inout Diagnostics) -> HTMLWriter {
        var w = HTMLWriter(capacity: 48 * 1024)
        Layout.write(path: path, title: rule.title, description: rule.statement, section: SitePaths.rulesIndex, into: &w) { w in
            writeBody(rule, index: index, context: context, path: path, verdicts: verdicts, scenarios: scenarios, diagnostics: &diagnostics,
                      plainTexts: &plainTexts, into: &w)
        }
        return w
    }

    /// The page body, in the order the reader meets it. Every value goes through `text` (escaped);
    /// only cmark's safe-mode HTML, the timeline SVG and the word diff go through `trusted`.
    private static func writeBody(_ rule: Rule, index: Int, context: SiteContext, path: String, verdicts: [String: ExampleVerdict],
                                  scenarios: [String: Scenario], diagnostics: inout Diagnostics, plainTexts: inout [String]?,
                                  into w: inout HTMLWriter) {
        let page = Page(rule: rule, heading: context.headings[index], context: context, path: path)
        w.markup("<article class=\"rule\" aria-labelledby=\"rule-title\">\n")
        page.writeHeader(into: &w)
        page.writeProse(plainTexts: &plainTexts, into: &w)
        page.writeNotSimulated(into: &w)
        page.writeDispute(diagnostics: &diagnostics, into: &w)
        page.writeNumbers(into: &w)
        page.writeAPIs(into: &w)
        page.writeExamples(verdicts: verdicts, scenarios: scenarios, diagnostics: &diagnostics, into: &w)
        page.writeInstead(plainTexts: &plainTexts, into: &w)
        page.writeScanChecks(into: &w)
        page.writeConflicts(into: &w)
        page.writeSources(into: &w)
        page.writeHistory(into: &w)
        page.writeRelated(diagnostics: &diagnostics, into: &w)
        page.writePractise(into: &w)
        w.markup("</article>")
    }

    /// One rule's page while it is written: what every section needs.
    private struct Page {
        let rule: Rule
        let context: SiteContext
        let path: String
        let heading: String
        let removed: Bool
        let root: String

        init(rule: Rule, heading: String, context: SiteContext, path: String) {
            self.rule = rule
            self.context = context
            self.path = path
            self.heading = heading
            removed = context.removedRuleIDs.contains(rule.id)
            root = SitePaths.root(from: path)
        }

        func link(_ href: String, _ title: String, into w: inout HTMLWriter) {
            w.markup("<a href=\""); w.text(href); w.markup("\">"); w.text(title); w.markup("</a>")
        }

        /// The rules `ids` names that exist, each once; a warning for each that does not.
        func references(_ ids: [String], what: String, diagnostics: inout Diagnostics) -> [SiteContext.RuleReference] {
            var seen = Set<String>()
            return ids.compactMap { id in
                guard seen.insert(id).inserted else { return nil }
                guard let reference = context.ruleReferences[id] else {
                    diagnostics.warning("site-unknown-rule", "rule \(rule.id) names \(what) rule \(id), which does not exist", at: rule.location)
                    return nil
                }
                return reference
            }
        }

        /// Badges, title, statement, id, topics and document.
        func writeHeader(into w: inout HTMLWriter) {
            w.markup("<header class=\"rule-header\">\n<p class=\"card-meta\"><span class=\"badge ")
            w.text(KindLabel.cssClass(rule.kind)); w.markup("\">"); w.text(KindLabel.text(rule.kind)); w.markup("</span>")
            if let callout = rule.callout {
                w.markup(" <span class=\"badge callout\">"); w.text(callout.rawValue); w.markup("</span>")
            }
            if removed { w.markup(" <span class=\"badge removed\">Removed</span>") }
            for code in rule.crashCodes {
                w.markup(" <a class=\"code-chip\" href=\"")
                w.text(context.link(from: path, to: SitePaths.crashCodes, anchor: CrashCodesPage.anchor(code)))
                w.markup("\">"); w.text(code); w.markup("</a>")
            }
            w.markup("</p>\n<h1 id=\"rule-title\"")
            if rule.kind == .misconception, heading != rule.statement {
                // A misconception's heading states the myth, as its badge and its address do; the
                // correction follows, labelled, so the page never reads backwards.
                if heading.count > 90 { w.markup(" class=\"long\"") }
                w.markup(">"); w.text(heading); w.markup("</h1>\n<p class=\"statement correction\"><strong>In fact:</strong> ")
                w.text(rule.statement); w.markup("</p>\n")
            } else {
                if heading.count > 90 { w.markup(" class=\"long\"") }
                w.markup(">"); w.text(heading); w.markup("</h1>\n")
                if heading != rule.statement {
                    w.markup("<p class=\"statement\">"); w.text(rule.statement); w.markup("</p>\n")
                }
            }
            w.markup("<p class=\"rule-meta\">Rule <code>"); w.text(rule.id); w.markup("</code>")
            let topics = rule.topics.compactMap { id in context.topicPath(id).flatMap { topicPath in
                context.corpus.topic(id).map { (href: context.link(from: path, to: topicPath), title: $0.title) } } }
            if !topics.isEmpty {
                w.markup(" · Topics: ")
                for (index, topic) in topics.enumerated() {
                    link(topic.href, topic.title, into: &w)
                    if index != topics.count - 1 { w.markup(", ") }
                }
            }
            if let document = context.documentsByID[rule.document], let documentPath = context.documentPath(document.id) {
                w.markup(" · From ")
                link(context.link(from: path, to: documentPath), document.title, into: &w)
                if let version = rule.version { w.markup(" ("); w.text(version); w.markup(")") }
            }
            w.markup("</p>\n</header>\n")
            if removed {
                w.markup("<p class=\"notice\">This rule is no longer in the latest version of its document. It stays here with its history.</p>\n")
            }
        }

        /// The details, then why the rule matters.
        func writeProse(plainTexts: inout [String]?, into w: inout HTMLWriter) {
            if !rule.details.isEmpty {
                w.markup("<div class=\"prose\">"); context.writeMarkdown(rule.details, from: path, into: &w, plainTexts: &plainTexts)
                w.markup("</div>\n")
            }
            if let why = rule.why {
                w.markup("<section aria-labelledby=\"why\">\n<h2 id=\"why\">Why it matters</h2>\n<div class=\"prose\">")
                context.writeMarkdown(why, from: path, into: &w, plainTexts: &plainTexts)
                w.markup("</div>\n</section>\n")
            }
        }

        /// A disputed claim: who made it, who contradicts it, what is true instead.
        func writeDispute(diagnostics: inout Diagnostics, into w: inout HTMLWriter) {
            guard let dispute = rule.dispute else { return }
            let claimedBy = context.citationLink(dispute.claimedBy, from: path)
            w.markup("<section class=\"dispute\" aria-labelledby=\"dispute\">\n<h2 id=\"dispute\">The disputed claim</h2>\n<p><span class=\"badge verdict-")
            w.text(dispute.verdict.rawValue); w.markup("\">"); w.text(dispute.verdict == .wrong ? "Wrong" : "Doubtful")
            w.markup("</span> "); w.text(dispute.claim); w.markup("</p>\n<p>Claimed by ")
            link(claimedBy.href, claimedBy.title, into: &w)
            if let locator = claimedBy.locator { w.markup(", in “"); w.text(locator); w.markup("”") }
            w.markup(".</p>\n")
            if !dispute.counterSources.isEmpty {
                w.markup("<p>Contradicted by:</p>\n<ul>")
                for counter in dispute.counterSources.map({ context.citationLink($0, from: path) }) {
                    w.markup("<li>")
                    link(counter.href, counter.title, into: &w)
                    if let locator = counter.locator { w.markup(": "); w.text(locator) }
                    if counter.unverified { w.markup(" <span class=\"badge unverified\">unverified</span>") }
                    w.markup("</li>")
                }
                w.markup("</ul>\n")
            }
            let corrected = references(dispute.correctedBy, what: "as corrected-by", diagnostics: &diagnostics)
            if !corrected.isEmpty {
                // A list, not a sentence: rule titles end in their own punctuation.
                w.markup("<p>What is true instead:</p>\n<ul class=\"corrections\">")
                for reference in corrected {
                    w.markup("<li>"); reference.writeLink(root: root, into: &w); w.markup("</li>")
                }
                w.markup("</ul>\n")
            }
            w.markup("</section>\n")
        }

        /// The numbers the rule states, with how firm each is.
        func writeNumbers(into w: inout HTMLWriter) {
            guard !rule.numbers.isEmpty else { return }
            w.markup("""
            <section aria-labelledby="numbers">
            <h2 id="numbers">Numbers</h2>
            <table class="numbers">
            <caption class="visually-hidden">Numbers this rule states, with how firm they are</caption>
            <thead><tr><th scope="col">Measures</th><th scope="col">Value</th><th scope="col">How firm</th><th scope="col">Note</th></tr></thead>
            <tbody>

            """)
            for number in rule.numbers {
                w.markup("<tr><th scope=\"row\">"); w.text(number.measures); w.markup("</th><td>"); w.text(numberText(number))
                w.markup("</td><td><span class=\"firmness firmness-"); w.text(number.firmness.rawValue); w.markup("\">")
                w.text(firmnessLabel(number.firmness)); w.markup("</span>")
                if !number.guaranteed { w.markup(", not guaranteed") }
                w.markup("</td><td>"); w.text(number.note ?? ""); w.markup("</td></tr>\n")
            }
            w.markup("</tbody>\n</table>\n</section>\n")
        }

        /// The APIs the rule names, linked to the API index.
        func writeAPIs(into w: inout HTMLWriter) {
            guard !rule.apis.isEmpty else { return }
            w.markup("<section aria-labelledby=\"apis\">\n<h2 id=\"apis\">APIs</h2>\n<ul class=\"api-list\">")
            for api in rule.apis {
                w.markup("<li><a href=\""); w.text(context.link(from: path, to: SitePaths.apis, anchor: context.apiAnchor(api)))
                w.markup("\"><code>"); w.text(api); w.markup("</code></a></li>")
            }
            w.markup("</ul>\n</section>\n")
        }

        /// Every example with the engine's verdict and timeline. A rule without examples has no
        /// such section: why it is not simulated is one line under its prose (`writeNotSimulated`).
        func writeExamples(verdicts: [String: ExampleVerdict], scenarios: [String: Scenario], diagnostics: inout Diagnostics,
                           into w: inout HTMLWriter) {
            guard !rule.examples.isEmpty else { return }
            w.markup("<section aria-labelledby=\"examples\">\n<h2 id=\"examples\">Examples, run by the simulator</h2>\n")
            let guide = context.link(from: path, to: SitePaths.examplesGuide)
            for (index, example) in rule.examples.enumerated() {
                // The identifier is a String made from the rule and the line: made once for both look-ups.
                let identifier = example.identifier
                ExampleSection.write(example, number: index + 1, rule: rule, verdict: verdicts[identifier],
                                     scenario: scenarios[identifier], guideHref: guide, diagnostics: &diagnostics, into: &w)
            }
            w.markup("</section>\n")
        }

        func writeNotSimulated(into w: inout HTMLWriter) {
            guard rule.examples.isEmpty, let reason = rule.notSimulated else { return }
            w.markup("<p class=\"not-simulated\">Not simulated: "); w.text(reason)
            w.markup(" (<a href=\""); w.text(context.link(from: path, to: SitePaths.examplesGuide)); w.markup("\">what the simulator models</a>)</p>\n")
        }

        func writeInstead(plainTexts: inout [String]?, into w: inout HTMLWriter) {
            guard let instead = rule.instead else { return }
            w.markup("<section aria-labelledby=\"instead\">\n<h2 id=\"instead\">What to do instead</h2>\n<div class=\"prose\">")
            context.writeMarkdown(instead, from: path, into: &w, plainTexts: &plainTexts)
            w.markup("</div>\n</section>\n")
        }

        /// What `bgkb scan` finds of this rule in an app's code, from the list the scanner uses
        /// (`ScanChecks`), with the command.
        func writeScanChecks(into w: inout HTMLWriter) {
            let checks = ScanChecks.checks(ofRule: rule.id)
            guard let first = checks.first, !removed else { return }
            w.markup("<section aria-labelledby=\"scan\">\n<h2 id=\"scan\">Checked by <code>bgkb scan</code></h2>\n<ul>")
            for check in checks {
                w.markup("<li>"); w.text(check.finds); w.markup(" (<code>"); w.text(check.family); w.markup("</code>)</li>")
            }
            w.markup("</ul>\n<p>Run <code>bgkb scan YourApp/Sources</code> to find it in your app's Swift: each finding names its line, the schedule that breaks this rule, and what to do instead. <code>// bgkb:ignore ")
            w.text(first.family)
            w.markup("</code> on the line silences one.</p>\n</section>\n")
        }

        /// The conflicts between sources that involve this rule, linked to the sources page.
        func writeConflicts(into w: inout HTMLWriter) {
            let conflicts = context.corpus.conflicts.filter { $0.rules.contains(rule.id) }
            guard !conflicts.isEmpty else { return }
            w.markup("<section aria-labelledby=\"conflicts\">\n<h2 id=\"conflicts\">Where the sources disagree</h2>\n<ul>")
            for conflict in conflicts {
                w.markup("<li>")
                link(context.link(from: path, to: SitePaths.sources, anchor: SourcesPage.conflictAnchor(conflict.id)), conflict.subject, into: &w)
                w.markup("</li>")
            }
            w.markup("</ul>\n</section>\n")
        }

        /// The citations: source, version, locator, reliability, and a link to the original.
        func writeSources(into w: inout HTMLWriter) {
            w.markup("<section aria-labelledby=\"sources\">\n<h2 id=\"sources\">Sources</h2>\n")
            if rule.sources.isEmpty {
                w.markup("<p>No source is cited.</p>\n")
            } else {
                w.markup("<ul class=\"citations\">\n")
                for source in rule.sources.map({ context.citationLink($0, from: path) }) {
                    w.markup("<li>")
                    link(source.href, source.title, into: &w)
                    if let version = source.version { w.markup(", version "); w.text(version) }
                    if let locator = source.locator { w.markup(": "); w.text(locator) }
                    if let reliability = source.reliability {
                        w.markup(" <span class=\"badge reliability-"); w.text(reliability); w.markup("\">"); w.text(reliability); w.markup("</span>")
                    }
                    if source.unverified { w.markup(" <span class=\"badge unverified\">not confirmed by us</span>") }
                    if let url = source.url {
                        w.markup(" · <a class=\"external\" href=\""); w.text(url); w.markup("\" rel=\"external\">original</a>")
                    }
                    w.markup("</li>\n")
                }
                w.markup("</ul>\n")
            }
            w.markup("</section>\n")
        }

        func writeHistory(into w: inout HTMLWriter) {
            w.markup("<section aria-labelledby=\"history\">\n<h2 id=\"history\">Revision history</h2>\n")
            if rule.history.isEmpty {
                w.markup("<p>No recorded changes.</p>\n")
            } else {
                w.markup("<ol class=\"history\">\n")
                for revision in rule.history { RulePage.writeRevision(revision, context: context, path: path, into: &w) }
                w.markup("</ol>\n")
            }
            w.markup("</section>\n")
        }

        func writeRelated(diagnostics: inout Diagnostics, into w: inout HTMLWriter) {
            let related = references(rule.related, what: "as related", diagnostics: &diagnostics)
            guard !related.isEmpty else { return }
            w.markup("<section aria-labelledby=\"related\">\n<h2 id=\"related\">Related rules</h2>\n<ul class=\"rule-list\">")
            for reference in related {
                w.markup("<li>")
                reference.writeLink(root: root, into: &w)
                w.markup(" <span class=\"badge "); w.text(reference.kindClass); w.markup("\">"); w.text(reference.kind); w.markup("</span></li>")
            }
            w.markup("</ul>\n</section>\n")
        }

        /// A link to the browser quiz on this rule's topic, and to where the rule can be edited.
        func writePractise(into w: inout HTMLWriter) {
            let quiz = context.link(from: path, to: SitePaths.quiz)
            w.markup("<section aria-labelledby=\"practise\">\n<h2 id=\"practise\">Practise</h2>\n<p>")
            if let topic = rule.topics.first, let title = context.corpus.topics.first(where: { $0.id == topic })?.title {
                w.markup("<a href=\""); w.text(quiz + "?topic=" + topic); w.markup("\">Quiz yourself on "); w.text(title); w.markup("</a>")
            } else {
                w.markup("<a href=\""); w.text(quiz); w.markup("\">Quiz yourself</a>")
            }
            w.markup(": questions drawn from this rule and its neighbours, scheduled for review in your browser.</p>\n")
            if let edit = context.configuration.editURL(path: rule.location.path) {
                w.markup("<p class=\"source-location\"><a href=\""); w.text(edit); w.markup("\">Edit this page</a></p>\n")
            }
            w.markup("</section>\n")
        }
    }

    /// One entry of the revision history, with the change as a word diff.
    private static func writeRevision(_ revision: RuleRevision, context: SiteContext, path: String, into w: inout HTMLWriter) {
        let change = revision.change.rawValue
        w.markup("<li class=\"history-entry history-"); w.text(change); w.markup("\">\n<p><span class=\"badge change-"); w.text(change)
        // "Added" in the earliest copy we have says only that the text is there: it may be older.
        let inFirstCopy = revision.change == .added && revision.previousVersion == nil
        w.markup("\">"); w.text(inFirstCopy ? "Present" : change.withFirstLetterUppercased); w.markup("</span>")
        if let version = revision.version {
            w.markup(inFirstCopy ? " since at least " : " in version "); w.text(version)
            if inFirstCopy { w.markup(", the earliest copy we have") }
        } else if inFirstCopy {
            w.markup(" in the only copy we have")
        }
        if let previous = revision.previousVersion { w.markup(" (compared with "); w.text(previous); w.markup(")") }
        w.markup("</p>\n")
        if let entry = revision.entry {
            let date = entry.date.description
            w.markup("<p class=\"entry\"><time datetime=\""); w.text(date); w.markup("\">"); w.text(date); w.markup("</time>")
            if entry.writtenDate != date { w.markup(" (written “"); w.text(entry.writtenDate); w.markup("”)") }
            w.markup(" · <a href=\"")
            w.text(context.documentPath(entry.document).map { context.link(from: path, to: $0) } ?? context.link(from: path, to: SitePaths.sources))
            w.markup("\">"); w.text(context.documentsByID[entry.document]?.title ?? entry.document); w.markup("</a>: ")
            w.text(entry.text); w.markup("</p>\n")
        }
        if let old = revision.previousWording, let new = revision.wording, old != new {
            // Compare what a reader sees, not the Markdown: backticks and list markers are noise here.
            w.markup("<p class=\"diff\">")
            WordDiff.write(context.plainText(old), context.plainText(new), into: &w)
            w.markup("</p>\n")
        }
        if revision.change == .removed, let old = revision.previousWording, revision.wording == nil {
            w.markup("<p class=\"diff\"><del>"); w.text(context.plainText(old)); w.markup("</del></p>\n")
        }
        w.markup("</li>\n")
    }

    /// The engine's one-line summary without the trailing ` [schedule]`, which the page shows on
    /// its own line. Compared as Characters: a summary whose last Character merges with the space
    /// (after a prepended mark) keeps its suffix.
    static func shortSummary(_ verdict: ExampleVerdict) -> String {
        guard let schedule = verdict.counterexample?.schedule, !schedule.isEmpty else { return verdict.summary }
        let suffix = " [\(schedule)]"
        return verdict.summary.hasSuffix(suffix) ? String(verdict.summary.dropLast(suffix.count)) : verdict.summary
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
