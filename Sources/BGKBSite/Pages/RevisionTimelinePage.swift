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

    static func render(_ context: SiteContext) -> StepOutput {
        let page = SitePaths.revisions
        let entries = context.corpus.revisionEntries
        let html = Layout.page(path: page, title: "Revision timeline", description: "Every dated revision entry across bgkb's sources.",
                               capacity: 4096 + entries.count * 640) { w in
            w.markup("<h1>Revision timeline</h1>\n<p class=\"lead\">Every dated entry from the revision and change histories of the documents bgkb restates, newest first. Where two versions of a document date the same entry differently, both are shown and the conflict is listed on the <a href=\"sources.html#conflicts\">sources page</a>.</p>\n")
            if entries.isEmpty { w.markup("<p>No dated entries yet.</p>") }
            w.markup("\n")
            writeYears(entries, context: context, from: page, into: &w)
        }
        return StepOutput(page, html)
    }

    /// The entries (newest first) in one section per year.
    static func writeYears(_ entries: [RevisionEntry], context: SiteContext, from page: String, into w: inout HTMLWriter) {
        let anchors = anchors(entries)
        var index = 0
        while index < entries.count {
            let year = entries[index].date.year
            w.markup("<section aria-labelledby=\"year-"); w.text(String(year)); w.markup("\">\n<h2 id=\"year-"); w.text(String(year))
            w.markup("\">"); w.text(String(year)); w.markup("</h2>\n<ol class=\"timeline-list\">\n")
            while index < entries.count && entries[index].date.year == year {
                writeEntry(entries[index], anchor: anchors[index], context: context, from: page, into: &w)
                index += 1
            }
            w.markup("</ol>\n</section>\n")
        }
    }

    /// One entry's list item: date, document, version, text and the rules it changed.
    static func writeEntry(_ entry: RevisionEntry, anchor: String, context: SiteContext, from page: String, into w: inout HTMLWriter) {
        let date = entry.date.description
        w.markup("<li id=\""); w.text(anchor); w.markup("\"><time datetime=\""); w.text(date); w.markup("\">")
        w.text(date); w.markup("</time>")
        if entry.writtenDate != date {
            w.markup(" <span class=\"written\">(written “"); w.text(entry.writtenDate); w.markup("”)</span>")
        }
        w.markup(" "); writeDocumentLink(entry, context: context, from: page, into: &w)
        if let version = entry.version {
            w.markup(" <span class=\"version\">version "); w.text(version); w.markup("</span>")
        }
        w.markup("<p>"); w.text(entry.text); w.markup("</p>")
        let rules = entry.linkedRules.compactMap { id in context.rule(id).flatMap { rule in context.rulePath(id).map { (rule, $0) } } }
        if !rules.isEmpty {
            w.markup("<p class=\"entry-rules\">Changed: ")
            for (position, (rule, path)) in rules.enumerated() {
                w.markup("<a href=\""); w.text(context.link(from: page, to: path)); w.markup("\">")
                // The rule's short title: its statement today may be wording from after this entry.
                if let reference = context.ruleReferences[rule.id] {
                    w.text(reference.shortTitle)
                } else {
                    w.text(rule.id)
                }
                w.markup("</a>")
                if position < rules.count - 1 { w.markup(", ") }
            }
            w.markup("</p>")
        }
        w.markup("</li>\n")
    }

    /// A link to the document an entry belongs to (the sources page when it has no page).
    static func writeDocumentLink(_ entry: RevisionEntry, context: SiteContext, from page: String, into w: inout HTMLWriter) {
        w.markup("<a href=\"")
        w.text(context.documentPath(entry.document).map { context.link(from: page, to: $0) } ?? context.link(from: page, to: SitePaths.sources))
        w.markup("\">"); w.text(context.documentsByID[entry.document]?.title ?? entry.document); w.markup("</a>")
    }
}
