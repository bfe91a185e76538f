import BGKBModel

/// Crash and termination codes → the rules that explain them, and the examples in which the
/// simulator reproduced them when the site was built.
enum CrashCodesPage {
    static func anchor(_ code: String) -> String { "code-" + Slug.make(code) }

    /// The codes a developer of background work meets, most often met first, each with what it
    /// means in one line (Apple's "Understanding the exception types in a crash report" and
    /// "Addressing watchdog terminations", restated). Codes not listed follow in hex order.
    static let known: [(code: String, meaning: String)] = [
        ("0x8badf00d", "The watchdog killed the app: it held the main thread, a launch, or background time for too long."),
        ("0xdead10cc", "The app was killed for holding a file or SQLite lock in a shared container as it was suspended."),
        ("0xbada5e47", "The process went past the cap on background task assertions it may hold at once (about 1,000)."),
        ("0x2182bad2", "A UIApplication background task was still running when its time ran out."),
        ("0x2182bad3", "Work for a background URL session did not finish in time."),
        ("0x2182bad4", "A background fetch did not finish in time."),
        ("0xc51bad01", "watchOS: a background task used too much CPU time."),
        ("0xc51bad02", "watchOS: a background task took too much wall-clock time."),
        ("0xc51bad03", "watchOS: a background task did not get enough runtime because other system tasks took it."),
    ]

    /// `codes` (lower case) in the order the page shows them: the known ones most often met
    /// first, then the rest in hex order.
    static func ordered(_ codes: Set<String>) -> [String] {
        let rank = Dictionary(known.enumerated().map { ($1.code, $0) }, uniquingKeysWith: { a, _ in a })
        return codes.sorted { a, b in
            switch (rank[a], rank[b]) {
            case let (x?, y?): return x < y
            case (.some, nil): return true
            case (nil, .some): return false
            case (nil, nil): return a < b
            }
        }
    }

    static func meaning(_ code: String) -> String? { known.first { $0.code == code }?.meaning }

    static func render(_ context: SiteContext) -> StepOutput {
        let page = SitePaths.crashCodes
        let reproduced = reproducedCodes(context)
        let ruleCodes = Dictionary(context.crashCodeIndex.map { ($0.code, $0.rules) }, uniquingKeysWith: { a, _ in a })
        let codes = ordered(Set(ruleCodes.keys).union(reproduced.keys))
        let html = Layout.page(path: page, title: "Crash codes", description: "0x8badf00d, 0xbada5e47 and the rules that explain them.") { w in
            w.markup("<h1>Crash codes</h1>\n<p class=\"lead\">The exception codes you find in crash reports of background work, and the rules that explain them. The examples listed under each code ended with it when the simulator ran them for this build.</p>\n")
            if codes.isEmpty { w.markup("<p>No crash codes are named yet.</p>") } else {
                // A table of contents: every code, most often met first, with its one-line meaning.
                w.markup("<table class=\"code-summary\">\n<caption>The codes, most often met first</caption>\n<thead><tr><th scope=\"col\">Code</th><th scope=\"col\">Meaning</th></tr></thead>\n<tbody>\n")
                for code in codes {
                    w.markup("<tr><th scope=\"row\"><a href=\"#"); w.text(anchor(code)); w.markup("\"><code>"); w.text(code)
                    w.markup("</code></a></th><td>"); w.text(meaning(code) ?? "Named by the rules below."); w.markup("</td></tr>\n")
                }
                w.markup("</tbody>\n</table>")
            }
            w.markup("\n")
            for code in codes {
                writeCode(code, rules: ruleCodes[code] ?? [], examples: reproduced[code] ?? [], context: context, from: page, into: &w)
            }
        }
        return StepOutput(page, html)
    }

    /// An example that ended with a code: where it is (its page says what happened, in sentences).
    struct Reproduction {
        var href: String
        var label: String
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
                    label: "\(rule.title), example \(index + 1)"))
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
        if let meaning = meaning(code) { w.markup("<p><strong>"); w.text(meaning); w.markup("</strong></p>\n") }
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
                w.markup("<li><a href=\""); w.text(example.href); w.markup("\">"); w.text(example.label); w.markup("</a></li>")
            }
            w.markup("</ul>\n")
        }
        w.markup("</section>\n")
    }
}
