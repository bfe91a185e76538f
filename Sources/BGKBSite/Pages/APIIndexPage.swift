import BGKBModel

/// Every API that any rule names, alphabetically, with the rules that name it.
enum APIIndexPage {
    static let template = """
    <h1>API index</h1>
    <p class="lead">Every API named by a rule, with the rules that name it.</p>
    {{^apis}}<p>No APIs are named yet.</p>{{/apis}}
    {{#hasAPIs}}<dl class="api-index">
    {{#apis}}<dt id="{{anchor}}"><code>{{name}}</code></dt>
    <dd><ul>{{#rules}}<li><a href="{{href}}">{{title}}</a> <span class="badge {{kindClass}}">{{kind}}</span></li>{{/rules}}</ul></dd>
    {{/apis}}</dl>
    {{/hasAPIs}}
    """

    static func render(_ context: SiteContext) -> StepOutput {
        let page = SitePaths.apis
        let apis: [[String: Any]] = context.apiIndex.map { entry in
            ["name": entry.api, "anchor": context.apiAnchor(entry.api),
             "rules": entry.rules.compactMap { context.ruleReference($0, from: page) }]
        }
        let body = context.templates.render("apis", ["apis": apis, "hasAPIs": !apis.isEmpty])
        return StepOutput(page, Layout.page(context, path: page, title: "API index",
                                            description: "Every API bgkb's rules name, with those rules.", body: body))
    }
}
