import BGKBModel

/// Crash and termination codes → the rules that explain them, and the examples in which the
/// simulator reproduced them when the site was built.
enum CrashCodesPage {
    static func anchor(_ code: String) -> String { "code-" + Slug.make(code) }

    static func render(_ context: SiteContext) -> StepOutput {
        let page = SitePaths.crashCodes
        let reproduced = reproducedCodes(context)
        let ruleCodes = Dictionary(context.crashCodeIndex.map { ($0.code, $0.rules) }, uniquingKeysWith: { a, _ in a })
        let codes = Set(ruleCodes.keys).union(reproduced.keys).sorted()
        let html = Layout.page(path: page, title: "Crash codes", description: "0x8badf00d, 0xbada5e47 and the rules that explain them.") { w in
            w.markup("<h1>Crash codes</h1>\n<p class=\"lead\">The exception codes you find in crash reports of background work, and the rules that explain them. The examples listed under each code ended with it when the simulator ran them for this build.</p>\n")
            if codes.isEmpty { w.markup("<p>No crash codes are named yet.</p>") }
            w.markup("\n")
            for code in codes {
                writeCode(code, rules: ruleCodes[code] ?? [], examples: reproduced[code] ?? [], context: context, from: page, into: &w)
            }
        }
        return StepOutput(page, html)
    }

    /// An example that ended with a code: where it is and what the engine said.
    struct Reproduction {
        var href: String
        var label: String
        var summary: String
    }

    /// Each code (lower case) with the examples that ended with it, in Content order.
    static func reproducedCodes(_ context: SiteContext) -> [String: [Reproduction]] {
        var reproduced: [String: [Reproduction]] = [:]
        for rule in context.corpus.rules {
            guard let path = context.rulePath(rule.id) else { continue }
            for (index, example) in rule.examples.enumerated() {
                guard let verdict = context.verdictFacts(example.identifier), let code = verdict.terminationCode else { continue }
                reproduced[code.lowercased(), default: []].append(Reproduction(
                    href: context.link(from: SitePaths.crashCodes, to: path, anchor: "example-\(index + 1)"),
                    label: "\(rule.title), example \(index + 1)", summary: verdict.summary))
            }
        }
        return reproduced
    }

    /// One code's section: what it means, the rules naming it, the examples that reproduced it.
    static func writeCode(_ code: String, rules ids: [String], examples: [Reproduction], context: SiteContext,
                          from page: String, into w: inout HTMLWriter) {
        let anchor = anchor(code)
        w.markup("<section class=\"crash-code\" aria-labelledby=\""); w.text(anchor); w.markup("\">\n<h2 id=\""); w.text(anchor)
        w.markup("\"><code>"); w.text(code); w.markup("</code></h2>\n")
        // What the code means: the most important fact that names it, in Content's own words.
        let naming = ids.compactMap { context.rule($0) }.filter { $0.kind == .fact }
        if let meaning = naming.first(where: { $0.statement.lowercased().contains(code) }) ?? naming.first {
            w.markup("<p class=\"lead\">"); w.text(meaning.statement); w.markup(" <a href=\"")
            w.text(context.link(from: page, to: context.rulePath(meaning.id) ?? SitePaths.rulesIndex)); w.markup("\">More</a></p>\n")
        }
        w.markup("    ")
        let rules = ids.filter { context.ruleIndexByID[$0] != nil && context.rulePath($0) != nil }
        if !rules.isEmpty {
            w.markup("<h3 id=\""); w.text(anchor); w.markup("-rules\">Rules</h3>\n")
            RulesIndexPage.writeRuleList(rules, context: context, from: page, into: &w)
        }
        if !examples.isEmpty {
            w.markup("<h3 id=\""); w.text(anchor); w.markup("-examples\">Reproduced by the simulator</h3>\n<ul>")
            for example in examples {
                w.markup("<li><a href=\""); w.text(example.href); w.markup("\">"); w.text(example.label); w.markup("</a>: ")
                w.text(example.summary); w.markup("</li>")
            }
            w.markup("</ul>\n")
        }
        w.markup("</section>\n")
    }
}
