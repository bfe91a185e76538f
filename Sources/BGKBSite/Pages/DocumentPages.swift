import BGKBModel

/// One page per guidance document: each version with its points and its revision entries.
enum DocumentPages {
    static let template = """
    <h1>{{title}}</h1>
    {{#sourceTitle}}<p class="lead">bgkb's restatement of <a href="{{sourceHref}}">{{sourceTitle}}</a>, in its own words.</p>{{/sourceTitle}}
    {{#summaryText}}<p>{{summaryText}}</p>{{/summaryText}}
    <p>{{versionsText}}, newest first.</p>
    {{#versions}}<section aria-labelledby="{{anchor}}">
    <h2 id="{{anchor}}">Version {{label}}</h2>
    <p>Written in <code>{{path}}</code>. {{rulesText}}.</p>
    <ol class="rule-list">
    {{{rulesHtml}}}</ol>
    {{#hasEntries}}<h3 id="{{anchor}}-history">Revision history of this version</h3>
    <ul class="revision-list">
    {{#entries}}<li><time datetime="{{date}}">{{date}}</time>{{#showWritten}} (written “{{writtenDate}}”){{/showWritten}}: {{text}}</li>
    {{/entries}}</ul>
    {{/hasEntries}}</section>
    {{/versions}}
    """

    static func versionAnchor(_ label: String) -> String { "version-" + Slug.make(label) }

    static func render(_ context: SiteContext) -> StepOutput {
        // Documents are independent: render them on every core, merge in corpus order.
        let pages = ParallelMap.map(context.corpus.documents) { document -> (String, String)? in
            guard let path = context.documentPath(document.id) else { return nil }
            let source = document.source.flatMap { context.corpus.source($0) }
            var labels = Set<String>()
            let versions: [[String: Any]] = document.versions.reversed().map { version in
                var anchor = versionAnchor(version.label ?? "unversioned")
                while !labels.insert(anchor).inserted { anchor += "-b" }
                return [
                    "anchor": anchor,
                    "label": version.label ?? "(unversioned)",
                    "path": context.configuration.display(path: version.path),
                    "rulesText": Format.count(version.rules.count, "point"),
                    "rulesHtml": rulesHTML(version.rules, context: context, from: path),
                    "hasEntries": !version.revisions.isEmpty,
                    "entries": version.revisions.map { RevisionTimelinePage.entryValue($0, context: context, from: path) },
                ]
            }
            let body = context.templates.render("document", [
                "title": document.title,
                "sourceTitle": source?.title ?? false,
                "sourceHref": source.map { context.link(from: path, to: SitePaths.sources, anchor: context.sourceAnchor($0.id)) } ?? "",
                "summaryText": document.latest?.summary ?? false,
                "versionsText": Format.count(document.versions.count, "version"),
                "versions": versions,
            ])
            return (path, Layout.page(context, path: path, title: document.title,
                                      description: "bgkb's restatement of \(source?.title ?? document.title), with its versions.",
                                      section: SitePaths.sources, body: body))
        }
        var output = StepOutput()
        for case let (path, html)? in pages where output.files[path] == nil { output.files[path] = html }
        return output
    }

    /// The points of one version, one `<li>` each, linked when the rule has a page.
    static func rulesHTML(_ rules: [Rule], context: SiteContext, from page: String) -> String {
        var w = HTMLWriter(capacity: 160 * rules.count)
        for rule in rules {
            w.markup("<li>")
            if let rulePath = context.rulePath(rule.id) {
                w.markup("<a href=\""); w.text(context.link(from: page, to: rulePath)); w.markup("\">")
                w.text(SiteContext.heading(rule)); w.markup("</a>")
            } else {
                w.text(SiteContext.heading(rule))
            }
            w.markup(" <span class=\"badge "); w.text(KindLabel.cssClass(rule.kind)); w.markup("\">"); w.text(KindLabel.text(rule.kind))
            w.markup("</span></li>\n")
        }
        return w.string
    }
}
