/// feed.xml: an Atom feed of the dated revision entries. Its `updated` is the newest entry's day,
/// not the build time, so rebuilding without changes gives the same bytes.
enum AtomFeed {
    static func render(_ context: SiteContext) -> StepOutput {
        let base = context.configuration.baseURL
        let entries = context.corpus.revisionEntries
        let anchors = RevisionTimelinePage.anchors(entries)
        let updated = entries.map(\.date).max()?.description ?? "1970-01-01"
        var w = HTMLWriter(capacity: 1024 + entries.count * 512)
        w.markup("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<feed xmlns=\"http://www.w3.org/2005/Atom\">\n<title>bgkb: revision entries</title>\n")
        w.markup("<subtitle>Dated changes in the guidance bgkb restates.</subtitle>\n<link rel=\"self\" type=\"application/atom+xml\" href=\"")
        w.text(base); w.markup("feed.xml\"/>\n<link rel=\"alternate\" type=\"text/html\" href=\"")
        w.text(base); w.markup("revisions.html\"/>\n<id>")
        w.text(base); w.markup("feed.xml</id>\n<updated>")
        w.text(updated); w.markup("T00:00:00Z</updated>\n<author><name>bgkb</name></author>\n")
        for (entry, anchor) in zip(entries, anchors) {
            let date = entry.date.description
            let url = base + SitePaths.revisions + "#" + anchor
            w.markup("<entry>\n<title>"); w.text(date); w.markup(": ")
            w.text(context.documentsByID[entry.document]?.title ?? entry.document)
            w.markup("</title>\n<link rel=\"alternate\" type=\"text/html\" href=\""); w.text(url)
            w.markup("\"/>\n<id>"); w.text(url); w.markup("</id>\n<updated>"); w.text(date)
            w.markup("T00:00:00Z</updated>\n<summary>"); w.text(entry.text); w.markup("</summary>\n</entry>\n")
        }
        w.markup("</feed>\n")
        return StepOutput(SitePaths.feed, w.string)
    }
}
