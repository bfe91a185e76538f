import BGKBModel

/// Everything besides rules that a developer searches for: APIs, crash codes, sources and their
/// authors, documents, topics and the site's own pages. Written into the search index after the
/// rules (`"items"`), in this order; the search page groups results by `g`.
enum SearchItems {
    struct Item {
        /// The group: api, code, source, document, topic or page.
        var g: String
        var t: String
        var s: String
        var x: String
        var u: String

        func write(into json: inout JSONBytes) {
            json.raw("{\"g\":"); json.string(g)
            json.raw(",\"s\":"); json.string(s)
            json.raw(",\"t\":"); json.string(t)
            json.raw(",\"u\":"); json.string(u)
            json.raw(",\"x\":"); json.string(x)
            json.raw("}")
        }
    }

    static func items(_ context: SiteContext) -> [Item] {
        var items: [Item] = []
        let root = SitePaths.search
        let titles = { (ids: [String]) in ids.prefix(3).compactMap { context.rule($0).map(SiteContext.heading) }.joined(separator: "; ") }
        for (api, rules) in context.apiIndex {
            items.append(Item(g: "api", t: api, s: Format.count(rules.count, "rule") + ": " + titles(rules), x: "",
                              u: context.link(from: root, to: SitePaths.apis, anchor: context.apiAnchor(api))))
        }
        let codes = Dictionary(context.crashCodeIndex.map { ($0.code, $0.rules) }, uniquingKeysWith: { a, _ in a })
        for code in CrashCodesPage.ordered(Set(codes.keys)) {
            items.append(Item(g: "code", t: code, s: CrashCodesPage.meaning(code) ?? titles(codes[code] ?? []), x: "",
                              u: context.link(from: root, to: SitePaths.crashCodes, anchor: CrashCodesPage.anchor(code))))
        }
        for source in context.corpus.sources {
            let by = [source.author, source.publisher].compactMap { $0 }.joined(separator: ", ")
            items.append(Item(g: "source", t: source.title, s: by, x: TextScan.collapseWhitespace(context.plainText(source.summary)),
                              u: context.link(from: root, to: SitePaths.sources, anchor: context.sourceAnchor(source.id))))
        }
        for document in context.corpus.documents {
            guard let path = context.documentPath(document.id) else { continue }
            let versions = document.versions.compactMap(\.label).joined(separator: ", ")
            items.append(Item(g: "document", t: document.title, s: document.latest?.summary ?? "",
                              x: versions.isEmpty ? "" : "Versions " + versions, u: path))
        }
        for topic in context.corpus.topics {
            guard let path = context.topicPath(topic.id) else { continue }
            items.append(Item(g: "topic", t: topic.title, s: topic.summary, x: topic.keywords.joined(separator: " "), u: path))
        }
        items.append(Item(g: "page", t: "Quiz", s: "Spaced-repetition questions in the browser, the same bank as bgkb quiz.", x: "practise practice test flashcards review", u: SitePaths.quiz))
        items.append(Item(g: "page", t: "Revision history", s: "Dated changes in the guidance bgkb restates.", x: "changes changelog versions timeline", u: SitePaths.revisions))
        items.append(Item(g: "page", t: "Crash codes", s: "Termination codes in crash reports of background work, most often met first.", x: "exception termination reason watchdog", u: SitePaths.crashCodes))
        return items
    }

    /// `],"items":[…]};` — what closes the index after the rules.
    static func closing(_ context: SiteContext) -> [UInt8] {
        var json = JSONBytes(capacity: 64 * 1024)
        json.raw("],\"items\":[")
        for (index, item) in items(context).enumerated() {
            if index > 0 { json.raw(",") }
            item.write(into: &json)
        }
        json.raw("]};\n")
        return json.bytes
    }
}
