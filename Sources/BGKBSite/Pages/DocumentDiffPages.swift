import BGKBModel

/// For each document we hold in more than one version, a page of what changed between each
/// version and the one before it, point by point in the newer version's order: added, reworded,
/// corrected and removed points with a word diff, each tied to the dated revision entry that
/// explains it (or saying that none does), and the unchanged points listed at the end.
enum DocumentDiffPages {
    static func path(_ documentPath: String) -> String {
        String(documentPath.dropLast(".html".count)) + "-changes.html"
    }

    static func render(_ context: SiteContext) -> StepOutput {
        var output = StepOutput()
        for document in context.corpus.documents where document.versions.count > 1 {
            guard let documentPath = context.documentPath(document.id) else { continue }
            let page = path(documentPath)
            guard output.files[page] == nil else { continue }
            output.files[page] = Layout.page(path: page, title: "\(document.title): changes between versions",
                                             description: "What changed in \(document.title) from one version to the next, point by point.",
                                             section: SitePaths.sources) { w in
                w.markup("<h1>"); w.text(document.title); w.markup(": what changed</h1>\n<p class=\"lead\">Each point of the newer version set against the older one, in the newer version's order, with the dated revision entry that explains the change. <a href=\"")
                w.text(context.link(from: page, to: documentPath)); w.markup("\">Every version in full</a>.</p>\n")
                for (older, newer) in zip(document.versions, document.versions.dropFirst()) {
                    writePair(older: older, newer: newer, document: document, context: context, from: page, into: &w)
                }
            }
        }
        return output
    }

    /// A change of one point between two versions.
    struct Change {
        var rule: Rule
        var revision: RuleRevision
    }

    static func changes(document: Document, newer: DocumentVersion, context: SiteContext) -> (changed: [Change], unchanged: [Rule]) {
        var changed: [Change] = []
        var unchanged: [Rule] = []
        var seen = Set<String>()
        let label = newer.label
        // The newer version's points in its order, then the points it removed.
        let candidates = newer.rules.map(\.id) + context.corpus.rules.filter { $0.document == document.id }.map(\.id)
        for id in candidates where seen.insert(id).inserted {
            guard let rule = context.rule(id) else { continue }
            guard let revision = rule.history.first(where: { $0.version == label && $0.previousVersion != nil }) else {
                if newer.rules.contains(where: { $0.id == id }) && !rule.history.contains(where: { $0.version == label && $0.change == .added && $0.previousVersion == nil }) {
                    unchanged.append(rule)
                }
                continue
            }
            if revision.change == .unchanged { unchanged.append(rule) } else { changed.append(Change(rule: rule, revision: revision)) }
        }
        return (changed, unchanged)
    }

    static func writePair(older: DocumentVersion, newer: DocumentVersion, document: Document, context: SiteContext,
                          from page: String, into w: inout HTMLWriter) {
        let oldLabel = older.label ?? "older", newLabel = newer.label ?? "newer"
        let anchor = "changes-" + Slug.make(oldLabel) + "-" + Slug.make(newLabel)
        let (changed, unchanged) = changes(document: document, newer: newer, context: context)
        w.markup("<section aria-labelledby=\""); w.text(anchor); w.markup("\">\n<h2 id=\""); w.text(anchor); w.markup("\">")
        w.text(oldLabel); w.markup(" → "); w.text(newLabel); w.markup("</h2>\n<p>")
        w.text(Format.count(changed.count, "point")); w.markup(" changed, "); w.text(String(unchanged.count)); w.markup(" unchanged.</p>\n")
        let entries = newer.revisions.filter { entry in entry.date.description > (older.label ?? "") }
        if !entries.isEmpty {
            w.markup("<p>Revision entries the newer version adds: ")
            for (index, entry) in entries.enumerated() {
                if index > 0 { w.markup("; ") }
                w.markup("<time datetime=\""); w.text(entry.date.description); w.markup("\">"); w.text(entry.date.description); w.markup("</time>, “")
                w.text(entry.text); w.markup("”")
            }
            w.markup("</p>\n")
        }
        w.markup("<ol class=\"change-list\">\n")
        for change in changed {
            writeChange(change, context: context, from: page, into: &w)
        }
        w.markup("</ol>\n")
        if !unchanged.isEmpty {
            w.markup("<details><summary>The "); w.text(Format.count(unchanged.count, "unchanged point")); w.markup("</summary>\n<ul>\n")
            for rule in unchanged {
                w.markup("<li>"); writeRuleLink(rule, context: context, from: page, into: &w); w.markup("</li>\n")
            }
            w.markup("</ul>\n</details>\n")
        }
        w.markup("</section>\n")
    }

    static func writeRuleLink(_ rule: Rule, context: SiteContext, from page: String, into w: inout HTMLWriter) {
        let title = context.ruleReferences[rule.id]?.shortTitle ?? rule.id
        if let path = context.rulePath(rule.id) {
            w.markup("<a href=\""); w.text(context.link(from: page, to: path)); w.markup("\">"); w.text(title); w.markup("</a>")
        } else {
            w.text(title)
        }
    }

    static func writeChange(_ change: Change, context: SiteContext, from page: String, into w: inout HTMLWriter) {
        let revision = change.revision
        let kind = revision.change.rawValue
        w.markup("<li class=\"history-entry history-"); w.text(kind); w.markup("\">\n<p><span class=\"badge change-"); w.text(kind); w.markup("\">")
        w.text(kind.withFirstLetterUppercased); w.markup("</span> ")
        writeRuleLink(change.rule, context: context, from: page, into: &w)
        w.markup("</p>\n")
        switch (revision.previousWording, revision.wording) {
        case let (old?, new?) where old != new:
            w.markup("<p class=\"diff\">"); WordDiff.write(context.plainText(old), context.plainText(new), into: &w); w.markup("</p>\n")
        case let (old?, nil):
            w.markup("<p class=\"diff\"><del>"); w.text(context.plainText(old)); w.markup("</del></p>\n")
        case let (nil, new?):
            w.markup("<p class=\"diff\"><ins>"); w.text(context.plainText(new)); w.markup("</ins></p>\n")
        default:
            w.markup("<p>"); w.text(change.rule.statement); w.markup("</p>\n")
        }
        if let entry = revision.entry {
            w.markup("<p class=\"entry\">Explained by the entry of <time datetime=\""); w.text(entry.date.description); w.markup("\">")
            w.text(entry.date.description); w.markup("</time>: "); w.text(entry.text); w.markup("</p>\n")
        } else {
            w.markup("<p class=\"entry\">No dated revision entry mentions this change.</p>\n")
        }
        w.markup("</li>\n")
    }
}
