import BGKBModel

/// Every rule on one page, most important first, then the removed ones.
enum RulesIndexPage {
    static func render(_ context: SiteContext) -> StepOutput {
        let page = SitePaths.rulesIndex
        let hasPage = { (id: String) in context.ruleIndexByID[id] != nil && context.rulePath(id) != nil }
        let current = context.rankedRules.map(\.id).filter(hasPage)
        let removed = context.corpus.rules.map(\.id).filter { context.removedRuleIDs.contains($0) }.filter(hasPage)
        let html = Layout.page(path: page, title: "All rules", description: "Every rule in bgkb, most important first.",
                               capacity: 256 * context.corpus.rules.count + 8192) { w in
            w.markup("<h1>All rules</h1>\n<p>"); w.text(Format.count(current.count, "rule"))
            w.markup(", the ones most likely to crash an app or get it killed first.</p>\n")
            writeRuleList(current, context: context, from: page, into: &w)
            writeRemoved(removed, context: context, from: page, into: &w)
        }
        return StepOutput(page, html)
    }

    static func writeRemoved(_ removed: [String], context: SiteContext, from page: String, into w: inout HTMLWriter) {
        guard !removed.isEmpty else { return }
        w.markup("<h2 id=\"removed\">Removed rules</h2>\n<p>Points that were in an older version of a document and are gone from the latest one.</p>\n")
        writeRuleList(removed, context: context, from: page, into: &w)
        w.markup("\n")
    }

    /// `<ul class="rule-list">`, one item per rule that exists: its link, kind and statement.
    /// Shared by the rule list, the topic pages and the crash-code page.
    static func writeRuleList(_ ids: [String], context: SiteContext, from page: String, into w: inout HTMLWriter) {
        w.markup("<ul class=\"rule-list\">\n")
        let root = SitePaths.root(from: page)
        for id in ids {
            guard let reference = context.ruleReferences[id] else { continue }
            w.markup("<li>"); reference.writeLink(root: root, into: &w)
            w.markup(" <span class=\"badge "); w.text(reference.kindClass); w.markup("\">"); w.text(reference.kind); w.markup("</span>")
            if reference.removed { w.markup(" <span class=\"badge removed\">Removed</span>") }
            if reference.showStatement { w.markup("<p>"); w.text(reference.statement); w.markup("</p>") }
            w.markup("</li>\n")
        }
        w.markup("</ul>")
    }
}
