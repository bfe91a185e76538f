import BGKBModel

/// Crash and termination codes → the rules that explain them, and the examples in which the
/// simulator reproduced them when the site was built.
enum CrashCodesPage {
    static let template = """
    <h1>Crash codes</h1>
    <p class="lead">The exception codes you find in crash reports of background work, and the rules that explain them. The examples listed under each code ended with it when the simulator ran them for this build.</p>
    {{^codes}}<p>No crash codes are named yet.</p>{{/codes}}
    {{#codes}}<section class="crash-code" aria-labelledby="{{anchor}}">
    <h2 id="{{anchor}}"><code>{{code}}</code></h2>
    {{#meaning}}<p class="lead">{{statement}} <a href="{{href}}">More</a></p>
    {{/meaning}}    {{#hasRules}}<h3 id="{{anchor}}-rules">Rules</h3>
    {{>rule-list}}
    {{/hasRules}}{{#hasExamples}}<h3 id="{{anchor}}-examples">Reproduced by the simulator</h3>
    <ul>{{{examplesHtml}}}</ul>
    {{/hasExamples}}</section>
    {{/codes}}
    """

    static func anchor(_ code: String) -> String { "code-" + Slug.make(code) }

    static func render(_ context: SiteContext) -> StepOutput {
        let page = SitePaths.crashCodes
        // Each code's examples, written directly: one `<li>` per example that ended with it.
        var reproduced: [String: HTMLWriter] = [:]
        for rule in context.corpus.rules {
            guard let path = context.rulePath(rule.id) else { continue }
            for (index, example) in rule.examples.enumerated() {
                guard let verdict = context.verdictFacts(example.identifier), let code = verdict.terminationCode else { continue }
                let key = code.lowercased()
                var w = reproduced[key] ?? HTMLWriter()
                reproduced[key] = nil
                w.markup("<li><a href=\""); w.text(context.link(from: page, to: path, anchor: "example-\(index + 1)")); w.markup("\">")
                w.text("\(rule.title), example \(index + 1)"); w.markup("</a>: "); w.text(verdict.summary); w.markup("</li>")
                reproduced[key] = w
            }
        }
        let ruleCodes = Dictionary(context.crashCodeIndex.map { ($0.code, $0.rules) }, uniquingKeysWith: { a, _ in a })
        let allCodes = Set(ruleCodes.keys).union(reproduced.keys).sorted()
        let codes: [[String: Any]] = allCodes.map { code in
            let rules = (ruleCodes[code] ?? []).filter { context.ruleIndexByID[$0] != nil && context.rulePath($0) != nil }
            let examples = reproduced[code]
            // What the code means: the most important fact that names it, in Content's own words.
            let naming = (ruleCodes[code] ?? []).compactMap { context.rule($0) }.filter { $0.kind == .fact }
            let meaning: Any = (naming.first { $0.statement.lowercased().contains(code) } ?? naming.first)
                .map { ["statement": $0.statement, "href": context.link(from: page, to: context.rulePath($0.id) ?? SitePaths.rulesIndex)] }
                ?? false
            return ["code": code, "anchor": anchor(code), "meaning": meaning, "ruleListHtml": RulesIndexPage.ruleList(rules, context: context, from: page), "hasRules": !rules.isEmpty,
                    "examplesHtml": examples?.string ?? "", "hasExamples": examples != nil]
        }
        let body = context.templates.render("crash-codes", ["codes": codes])
        return StepOutput(page, Layout.page(context, path: page, title: "Crash codes",
                                            description: "0x8badf00d, 0xbada5e47 and the rules that explain them.", body: body))
    }
}
