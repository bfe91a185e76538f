import BGKBModel

/// Every dated revision entry across all documents and versions, newest first, grouped by year.
enum RevisionTimelinePage {
    /// A stable anchor for an entry: date, document, and a counter for entries sharing both.
    static func anchors(_ entries: [RevisionEntry]) -> [String] {
        var counts: [String: Int] = [:]
        return entries.map { entry in
            let base = "rev-\(entry.date)-\(Slug.make(entry.document))"
            counts[base, default: 0] += 1
            let n = counts[base] ?? 1
            return n == 1 ? base : "\(base)-\(n)"
        }
    }

    static func entryValue(_ entry: RevisionEntry, context: SiteContext, from page: String, anchor: String = "") -> [String: Any] {
        let document = context.documentsByID[entry.document]
        let rules: [[String: Any]] = entry.linkedRules.compactMap { context.ruleReference($0, from: page) }
        var value: [String: Any] = [
            "anchor": anchor,
            "date": entry.date.description,
            "writtenDate": entry.writtenDate,
            "showWritten": entry.writtenDate != entry.date.description,
            "text": entry.text,
            "documentTitle": document?.title ?? entry.document,
            "href": context.documentPath(entry.document).map { context.link(from: page, to: $0) }
                ?? context.link(from: page, to: SitePaths.sources),
            "hasRules": !rules.isEmpty,
            "rules": rules.enumerated().map { index, rule in rule.merging(["last": index == rules.count - 1]) { _, new in new } },
        ]
        value["version"] = entry.version ?? false
        return value
    }

    /// Written directly, as the Mustache template it replaces wrote it (a test compares the two):
    /// at 10,000 rules the template and its dictionaries were 1.7 % of a first build's CPU.
    static func render(_ context: SiteContext) -> StepOutput {
        let page = SitePaths.revisions
        let entries = context.corpus.revisionEntries
        let anchors = anchors(entries)
        var w = HTMLWriter(capacity: 2048 + entries.count * 640)
        w.markup("<h1>Revision timeline</h1>\n<p class=\"lead\">Every dated entry from the revision and change histories of the documents bgkb restates, newest first. Where two versions of a document date the same entry differently, both are shown and the conflict is listed on the <a href=\"sources.html#conflicts\">sources page</a>.</p>\n")
        if entries.isEmpty { w.markup("<p>No dated entries yet.</p>") }
        w.markup("\n")
        var index = 0
        while index < entries.count {
            let year = String(entries[index].date.year)
            w.markup("<section aria-labelledby=\"year-"); w.templateText(year); w.markup("\">\n<h2 id=\"year-"); w.templateText(year)
            w.markup("\">"); w.templateText(year); w.markup("</h2>\n<ol class=\"timeline-list\">\n")
            let yearNumber = entries[index].date.year
            while index < entries.count && entries[index].date.year == yearNumber {
                writeEntry(entries[index], anchor: anchors[index], context: context, from: page, into: &w)
                index += 1
            }
            w.markup("</ol>\n</section>\n")
        }
        return StepOutput(page, Layout.page(context, path: page, title: "Revision timeline",
                                            description: "Every dated revision entry across bgkb's sources.", body: w.string))
    }

    /// One entry's list item, as `entryValue` fills it for the templates that still show entries.
    static func writeEntry(_ entry: RevisionEntry, anchor: String, context: SiteContext, from page: String, into w: inout HTMLWriter) {
        let date = entry.date.description
        w.markup("<li id=\""); w.templateText(anchor); w.markup("\"><time datetime=\""); w.templateText(date); w.markup("\">")
        w.templateText(date); w.markup("</time>")
        if entry.writtenDate != date {
            w.markup(" <span class=\"written\">(written “"); w.templateText(entry.writtenDate); w.markup("”)</span>")
        }
        w.markup(" <a href=\"")
        w.templateText(context.documentPath(entry.document).map { context.link(from: page, to: $0) }
                           ?? context.link(from: page, to: SitePaths.sources))
        w.markup("\">"); w.templateText(context.documentsByID[entry.document]?.title ?? entry.document); w.markup("</a>")
        if let version = entry.version {
            w.markup(" <span class=\"version\">version "); w.templateText(version); w.markup("</span>")
        }
        w.markup("<p>"); w.templateText(entry.text); w.markup("</p>")
        let rules = entry.linkedRules.compactMap { id in context.rule(id).flatMap { rule in context.rulePath(id).map { (rule, $0) } } }
        if !rules.isEmpty {
            w.markup("<p class=\"entry-rules\">Changed: ")
            for (position, (rule, path)) in rules.enumerated() {
                w.markup("<a href=\""); w.templateText(context.link(from: page, to: path)); w.markup("\">")
                w.templateText(SiteContext.heading(rule)); w.markup("</a>")
                if position < rules.count - 1 { w.markup(", ") }
            }
            w.markup("</p>")
        }
        w.markup("</li>\n")
    }
}
