import BGKBModel

/// Every dated revision entry across all documents and versions, newest first, grouped by year.
enum RevisionTimelinePage {
    static let template = """
    <h1>Revision timeline</h1>
    <p class="lead">Every dated entry from the revision and change histories of the documents bgkb restates, newest first. Where two versions of a document date the same entry differently, both are shown and the conflict is listed on the <a href="sources.html#conflicts">sources page</a>.</p>
    {{^hasYears}}<p>No dated entries yet.</p>{{/hasYears}}
    {{#years}}<section aria-labelledby="year-{{year}}">
    <h2 id="year-{{year}}">{{year}}</h2>
    <ol class="timeline-list">
    {{#entries}}<li id="{{anchor}}"><time datetime="{{date}}">{{date}}</time>{{#showWritten}} <span class="written">(written “{{writtenDate}}”)</span>{{/showWritten}} <a href="{{href}}">{{documentTitle}}</a>{{#version}} <span class="version">version {{version}}</span>{{/version}}<p>{{text}}</p>{{#hasRules}}<p class="entry-rules">Changed: {{#rules}}<a href="{{href}}">{{title}}</a>{{^last}}, {{/last}}{{/rules}}</p>{{/hasRules}}</li>
    {{/entries}}</ol>
    </section>
    {{/years}}
    """

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

    static func render(_ context: SiteContext) -> StepOutput {
        let page = SitePaths.revisions
        let entries = context.corpus.revisionEntries
        let anchors = anchors(entries)
        var years: [[String: Any]] = []
        var currentYear: Int?
        var bucket: [[String: Any]] = []
        for (entry, anchor) in zip(entries, anchors) {
            if currentYear != entry.date.year, let year = currentYear {
                years.append(["year": String(year), "entries": bucket])
                bucket = []
            }
            currentYear = entry.date.year
            bucket.append(entryValue(entry, context: context, from: page, anchor: anchor))
        }
        if let year = currentYear { years.append(["year": String(year), "entries": bucket]) }
        let body = context.templates.render("revisions", ["years": years, "hasYears": !years.isEmpty])
        return StepOutput(page, Layout.page(context, path: page, title: "Revision timeline",
                                            description: "Every dated revision entry across bgkb's sources.", body: body))
    }
}
