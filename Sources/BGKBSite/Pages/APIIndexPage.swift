import BGKBModel

/// Every API that any rule names, grouped by initial letter, with the rules that name it.
enum APIIndexPage {
    /// The letter an API files under: its first letter, ignoring `.`, `_` and the like.
    static func letter(_ api: String) -> String {
        guard let first = api.first(where: { $0.isLetter || $0.isNumber }) else { return "#" }
        return first.isLetter ? String(first).uppercased() : "#"
    }

    static func sortKey(_ api: String) -> String {
        String(api.drop { !($0.isLetter || $0.isNumber) }).lowercased()
    }

    /// The page lists every rule link under every API, the largest page of a large corpus: it
    /// goes to the sink as bytes, never made into a String.
    static func render(_ context: SiteContext, sink: SiteSink) -> StepOutput {
        var output = StepOutput()
        output.streamed(SitePaths.apis, new: sink.emit(SitePaths.apis, write(context)))
        return output
    }

    static func write(_ context: SiteContext) -> HTMLWriter {
        let page = SitePaths.apis
        let entries = context.apiIndex.sorted { (sortKey($0.api), $0.api) < (sortKey($1.api), $1.api) }
        // Entries grouped by initial letter, in order.
        var groups: [(letter: String, apis: [(api: String, rules: [String])])] = []
        for entry in entries {
            let initial = letter(entry.api)
            if let last = groups.last, last.letter == initial {
                groups[groups.count - 1].apis.append(entry)
            } else {
                groups.append((initial, [entry]))
            }
        }
        func anchor(_ letter: String) -> String { "letter-" + Slug.make(letter == "#" ? "other" : letter) }
        var w = HTMLWriter(capacity: 256 * 1024)
        Layout.write(path: page, title: "API index", description: "Every API bgkb's rules name, with those rules.", into: &w) { w in
            w.markup("<h1>API index</h1>\n<p class=\"lead\">Every API named by a rule, with the rules that name it.</p>\n")
            if groups.isEmpty { w.markup("<p>No APIs are named yet.</p>") }
            w.markup("\n")
            guard !groups.isEmpty else { return }
            w.markup("<nav class=\"toc letters\" aria-label=\"Initial letters\"><ul>")
            for group in groups {
                w.markup("<li><a href=\"#"); w.text(anchor(group.letter)); w.markup("\">"); w.text(group.letter); w.markup("</a></li>")
            }
            w.markup("</ul></nav>\n")
            for group in groups {
                w.markup("<section aria-labelledby=\""); w.text(anchor(group.letter)); w.markup("\">\n<h2 id=\"")
                w.text(anchor(group.letter)); w.markup("\">"); w.text(group.letter); w.markup("</h2>\n<dl class=\"api-index\">\n")
                for entry in group.apis {
                    w.markup("<dt id=\""); w.text(context.apiAnchor(entry.api)); w.markup("\"><code>"); w.text(entry.api)
                    w.markup("</code></dt>\n<dd><ul>")
                    writeRules(entry.rules, context: context, from: page, into: &w)
                    w.markup("</ul></dd>\n")
                }
                w.markup("</dl>\n</section>\n")
            }
        }
        return w
    }

    /// The rules naming one API, one `<li>` each.
    static func writeRules(_ ids: [String], context: SiteContext, from page: String, into w: inout HTMLWriter) {
        let root = SitePaths.root(from: page)
        for id in ids {
            guard let reference = context.ruleReferences[id] else { continue }
            w.markup("<li>"); reference.writeLink(root: root, into: &w)
            w.markup(" <span class=\"badge "); w.text(reference.kindClass); w.markup("\">"); w.text(reference.kind)
            w.markup("</span></li>")
        }
    }
}
