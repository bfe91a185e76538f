import BGKBModel

/// Every rule on one page, most important first, then the removed ones, with filters (topic,
/// kind, source, has examples) kept in the URL's query so a filtered view survives a reload and
/// can be shared. Without JavaScript the page is the full list (the form reloads it with the
/// query, which only the script reads).
enum RulesIndexPage {
    static func render(_ context: SiteContext) -> StepOutput {
        let page = SitePaths.rulesIndex
        let hasPage = { (id: String) in context.ruleIndexByID[id] != nil && context.rulePath(id) != nil }
        let current = context.rankedRules.map(\.id).filter(hasPage)
        let removed = context.corpus.rules.map(\.id).filter { context.removedRuleIDs.contains($0) }.filter(hasPage)
        let html = Layout.page(path: page, title: "All rules", description: "Every rule in bgkb, most important first, filtered by topic, kind, source and examples.", scripts: [SitePaths.ruleListScript],
                               capacity: 256 * context.corpus.rules.count + 8192) { w in
            w.markup("<h1>All rules</h1>\n<p>"); w.text(Format.count(current.count, "rule"))
            w.markup(", the ones most likely to crash an app or get it killed first.</p>\n")
            writeFilters(context, into: &w)
            w.markup("<p id=\"rule-count\" class=\"search-status\" role=\"status\" aria-live=\"polite\"></p>\n")
            writeRuleList(current, context: context, from: page, filterable: true, into: &w)
            writeRemoved(removed, context: context, from: page, into: &w)
        }
        return StepOutput(page, html)
    }

    /// The filter form: the search page's option lists, and whether a rule has examples.
    static func writeFilters(_ context: SiteContext, into w: inout HTMLWriter) {
        let corpus = context.corpus
        w.markup("<form id=\"rule-filters\" class=\"rule-filters\" action=\"index.html\" method=\"get\" aria-label=\"Filter the rules\">\n")
        SearchPage.writeFilter(id: "topic", label: "Topic", any: "Any topic", options: corpus.topics.map { ($0.id, $0.title) }, into: &w)
        SearchPage.writeFilter(id: "kind", label: "Kind", any: "Any kind", options: Rule.Kind.allCases.map { ($0.rawValue, KindLabel.text($0)) }, into: &w)
        SearchPage.writeFilter(id: "source", label: "Source", any: "Any source", options: corpus.sources.map { ($0.id, $0.title) }, into: &w)
        w.markup("""
        <div class="field field-check"><input type="checkbox" id="examples" name="examples" value="1"> <label for="examples">Has examples</label></div>
        <div class="field field-submit"><button type="submit">Filter</button></div>
        </form>

        """)
    }

    static func writeRemoved(_ removed: [String], context: SiteContext, from page: String, into w: inout HTMLWriter) {
        guard !removed.isEmpty else { return }
        w.markup("<h2 id=\"removed\">Removed rules</h2>\n<p>Points that were in an older version of a document and are gone from the latest one.</p>\n")
        writeRuleList(removed, context: context, from: page, filterable: true, into: &w)
        w.markup("\n")
    }

    /// `<ul class="rule-list">`, one item per rule that exists: its short title, kind (a link to
    /// the list filtered to that kind) and statement. Shared by the rule list, the topic pages and
    /// the crash-code page; `filterable` adds what the rule list's filters read.
    static func writeRuleList(_ ids: [String], context: SiteContext, from page: String, filterable: Bool = false, into w: inout HTMLWriter) {
        w.markup(filterable ? "<ul class=\"rule-list filterable\">\n" : "<ul class=\"rule-list\">\n")
        let root = SitePaths.root(from: page)
        let list = SitePaths.link(from: page, to: SitePaths.rulesIndex)
        for id in ids {
            guard let reference = context.ruleReferences[id] else { continue }
            if filterable, let rule = context.rule(id) {
                w.markup("<li data-topics=\""); w.text(rule.topics.joined(separator: " "))
                w.markup("\" data-kind=\""); w.text(rule.kind.rawValue)
                w.markup("\" data-sources=\""); w.text(Array(Set(rule.sources.map(\.source))).sorted().joined(separator: " "))
                w.markup(rule.examples.isEmpty ? "\" data-examples=\"0\">" : "\" data-examples=\"1\">")
            } else {
                w.markup("<li>")
            }
            w.markup("<a class=\"rule-title\" href=\""); w.text(root); w.text(reference.href); w.markup("\">")
            w.text(reference.shortTitle); w.markup("</a>")
            w.markup(" <a class=\"badge badge-link "); w.text(reference.kindClass); w.markup("\" href=\""); w.text(list)
            w.markup("?kind="); w.text(context.rule(id)?.kind.rawValue ?? ""); w.markup("\" title=\"All rules of this kind\">")
            w.text(reference.kind); w.markup("</a>")
            if reference.removed { w.markup(" <span class=\"badge removed\">Removed</span>") }
            w.markup("<p>"); w.text(reference.statement); w.markup("</p>")
            w.markup("</li>\n")
        }
        w.markup("</ul>")
    }
}
