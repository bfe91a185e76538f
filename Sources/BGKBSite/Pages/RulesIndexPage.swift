import BGKBModel

/// Every rule on one page, most important first, then the removed ones.
enum RulesIndexPage {
    /// Shared by the rule list, topic pages and the crash-code and API pages: `rules` in context.
    static let ruleListPartial = """
    <ul class="rule-list">
    {{#rules}}<li><a href="{{href}}">{{title}}</a> <span class="badge {{kindClass}}">{{kind}}</span>{{#removed}} <span class="badge removed">Removed</span>{{/removed}}{{#showStatement}}<p>{{statement}}</p>{{/showStatement}}</li>
    {{/rules}}</ul>
    """

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
        let current = context.rankedRules.compactMap { context.ruleReference($0.id, from: page) }
        let removed = context.corpus.rules.filter { context.removedRuleIDs.contains($0.id) }
            .compactMap { context.ruleReference($0.id, from: page) }
        let body = context.templates.render("rules-index", [
            "countText": Format.count(current.count, "rule"),
            "rules": current,
            "hasRemoved": !removed.isEmpty,
            "removedList": ["rules": removed],
        ])
        return StepOutput(page, Layout.page(context, path: page, title: "All rules",
                                            description: "Every rule in bgkb, most important first.", body: body))
    }
}
