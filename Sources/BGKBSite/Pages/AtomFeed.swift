/// feed.xml: an Atom feed of the dated revision entries. Its `updated` is the newest entry's day,
/// not the build time, so rebuilding without changes gives the same bytes.
enum AtomFeed {
    static let template = """
    <?xml version="1.0" encoding="utf-8"?>
    <feed xmlns="http://www.w3.org/2005/Atom">
    <title>bgkb: revision entries</title>
    <subtitle>Dated changes in the guidance bgkb restates.</subtitle>
    <link rel="self" type="application/atom+xml" href="{{base}}feed.xml"/>
    <link rel="alternate" type="text/html" href="{{base}}revisions.html"/>
    <id>{{base}}feed.xml</id>
    <updated>{{updated}}T00:00:00Z</updated>
    <author><name>bgkb</name></author>
    {{#entries}}<entry>
    <title>{{date}}: {{documentTitle}}</title>
    <link rel="alternate" type="text/html" href="{{url}}"/>
    <id>{{url}}</id>
    <updated>{{date}}T00:00:00Z</updated>
    <summary>{{text}}</summary>
    </entry>
    {{/entries}}</feed>

    """

    static func render(_ context: SiteContext) -> StepOutput {
        let base = context.configuration.baseURL
        let entries = context.corpus.revisionEntries
        let anchors = RevisionTimelinePage.anchors(entries)
        let values: [[String: Any]] = zip(entries, anchors).map { entry, anchor in
            var value = RevisionTimelinePage.entryValue(entry, context: context, from: SitePaths.revisions, anchor: anchor)
            value["url"] = base + SitePaths.revisions + "#" + anchor
            return value
        }
        let updated = entries.map(\.date).max()?.description ?? "1970-01-01"
        return StepOutput(SitePaths.feed, context.templates.render("feed", ["base": base, "updated": updated, "entries": values]))
    }
}
