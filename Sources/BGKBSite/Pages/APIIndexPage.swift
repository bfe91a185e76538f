import BGKBModel

/// Every API that any rule names, grouped by initial letter, with the rules that name it.
enum APIIndexPage {
    static let template = """
    <h1>API index</h1>
    <p class="lead">Every API named by a rule, with the rules that name it.</p>
    {{^groups}}<p>No APIs are named yet.</p>{{/groups}}
    {{#hasGroups}}<nav class="toc letters" aria-label="Initial letters"><ul>{{#groups}}<li><a href="#{{anchor}}">{{letter}}</a></li>{{/groups}}</ul></nav>
    {{#groups}}<section aria-labelledby="{{anchor}}">
    <h2 id="{{anchor}}">{{letter}}</h2>
    <dl class="api-index">
    {{#apis}}<dt id="{{anchor}}"><code>{{name}}</code></dt>
    <dd><ul>{{{rulesHtml}}}</ul></dd>
    {{/apis}}</dl>
    </section>
    {{/groups}}{{/hasGroups}}
    """

    /// The letter an API files under: its first letter, ignoring `.`, `_` and the like.
    static func letter(_ api: String) -> String {
        guard let first = api.first(where: { $0.isLetter || $0.isNumber }) else { return "#" }
        return first.isLetter ? String(first).uppercased() : "#"
    }

    static func sortKey(_ api: String) -> String {
        String(api.drop { !($0.isLetter || $0.isNumber) }).lowercased()
    }

    /// The rules naming one API, written directly: at 10,000 rules Mustache spent most of this
    /// page's time on their dictionaries.
    static func rulesHTML(_ ids: [String], context: SiteContext, from page: String) -> String {
        var w = HTMLWriter(capacity: 160 * ids.count)
        for reference in ids.compactMap({ context.ruleReferenceLink($0, from: page) }) {
            w.markup("<li><a href=\""); w.text(reference.href); w.markup("\">"); w.text(reference.title)
            w.markup("</a> <span class=\"badge "); w.text(reference.kindClass); w.markup("\">"); w.text(reference.kind)
            w.markup("</span></li>")
        }
        return w.string
    }

    static func render(_ context: SiteContext) -> StepOutput {
        let page = SitePaths.apis
        let entries = context.apiIndex.sorted { (sortKey($0.api), $0.api) < (sortKey($1.api), $1.api) }
        var groups: [[String: Any]] = []
        var current: (letter: String, apis: [[String: Any]])?
        for entry in entries {
            let value: [String: Any] = ["name": entry.api, "anchor": context.apiAnchor(entry.api),
                                        "rulesHtml": rulesHTML(entry.rules, context: context, from: page)]
            let initial = letter(entry.api)
            if let open = current, open.letter == initial {
                current?.apis.append(value)
            } else {
                if let open = current { groups.append(["letter": open.letter, "anchor": "letter-" + Slug.make(open.letter == "#" ? "other" : open.letter), "apis": open.apis]) }
                current = (initial, [value])
            }
        }
        if let open = current { groups.append(["letter": open.letter, "anchor": "letter-" + Slug.make(open.letter == "#" ? "other" : open.letter), "apis": open.apis]) }
        let body = context.templates.render("apis", ["groups": groups, "hasGroups": !groups.isEmpty])
        return StepOutput(page, Layout.page(context, path: page, title: "API index",
                                            description: "Every API bgkb's rules name, with those rules.", body: body))
    }
}
