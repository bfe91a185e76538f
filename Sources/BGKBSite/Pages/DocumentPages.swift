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
    {{#rules}}<li>{{#href}}<a href="{{href}}">{{title}}</a>{{/href}}{{^href}}{{title}}{{/href}} <span class="badge {{kindClass}}">{{kind}}</span></li>
    {{/rules}}</ol>
    {{#hasEntries}}<h3 id="{{anchor}}-history">Revision history of this version</h3>
    <ul class="revision-list">
    {{#entries}}<li><time datetime="{{date}}">{{date}}</time>{{#showWritten}} (written “{{writtenDate}}”){{/showWritten}}: {{text}}</li>
    {{/entries}}</ul>
    {{/hasEntries}}</section>
    {{/versions}}
    """

    static func versionAnchor(_ label: String) -> String { "version-" + Slug.make(label) }

    static func render(_ context: SiteContext) -> StepOutput {
        var output = StepOutput()
        for document in context.corpus.documents {
            guard let path = context.documentPath(document.id) else { continue }
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
                    "rules": version.rules.map { rule -> [String: Any] in
                        [
                            "href": context.rulePath(rule.id).map { context.link(from: path, to: $0) } ?? false,
                            "title": SiteContext.heading(rule), "kind": KindLabel.text(rule.kind), "kindClass": KindLabel.cssClass(rule.kind),
                        ]
                    },
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
            output.files[path] = Layout.page(context, path: path, title: document.title,
                                             description: "bgkb's restatement of \(source?.title ?? document.title), with its versions.",
                                             section: SitePaths.sources, body: body)
        }
        return output
    }
}
