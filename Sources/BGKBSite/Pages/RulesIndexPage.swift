import BGKBModel

/// Every rule on one page, most important first, then the removed ones.
enum RulesIndexPage {
    /// Shared by the rule list, topic pages and the crash-code page: the list is written by
    /// `ruleList` (thousands of rules are too many for Mustache's dictionaries) and the partial
    /// only places it, so the pages around it keep their templates.
    static let ruleListPartial = "{{{ruleListHtml}}}"

    /// `<ul class="rule-list">`, one item per rule that exists, each value escaped.
    static func ruleList(_ ids: [String], context: SiteContext, from page: String) -> String {
        var w = HTMLWriter(capacity: 256 * ids.count + 32)
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
        return w.string
    }

    static let template = """
    <h1>All rules</h1>
    <p>{{countText}}, the ones most likely to crash an app or get it killed first.</p>
    {{>rule-list}}
    {{#hasRemoved}}<h2 id="removed">Removed rules</h2>
    <p>Points that were in an older version of a document and are gone from the latest one.</p>
    {{#removedList}}{{>rule-list}}{{/removedList}}
    {{/hasRemoved}}
    """

    static func render(_ context: SiteContext) -> StepOutput {
        let page = SitePaths.rulesIndex
        let current = context.rankedRules.map(\.id).filter { context.ruleIndexByID[$0] != nil && context.rulePath($0) != nil }
        let removed = context.corpus.rules.map(\.id).filter { context.removedRuleIDs.contains($0) }
            .filter { context.ruleIndexByID[$0] != nil && context.rulePath($0) != nil }
        let body = context.templates.render("rules-index", [
            "countText": Format.count(current.count, "rule"),
            "ruleListHtml": ruleList(current, context: context, from: page),
            "hasRemoved": !removed.isEmpty,
            "removedList": ["ruleListHtml": ruleList(removed, context: context, from: page)],
        ])
        return StepOutput(page, Layout.page(context, path: page, title: "All rules",
                                            description: "Every rule in bgkb, most important first.", body: body))
    }
}
