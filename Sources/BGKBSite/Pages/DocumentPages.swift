import BGKBModel

/// One page per guidance document: each version with its points and its revision entries.
enum DocumentPages {
    static func versionAnchor(_ label: String) -> String { "version-" + Slug.make(label) }

    static func render(_ context: SiteContext) -> StepOutput {
        // Documents are independent: render them on every core, merge in corpus order.
        let pages = ParallelMap.map(context.corpus.documents) { document -> (String, String)? in
            guard let path = context.documentPath(document.id) else { return nil }
            let source = document.source.flatMap { context.corpus.source($0) }
            let html = Layout.page(path: path, title: document.title,
                                   description: "bgkb's restatement of \(source?.title ?? document.title), with its versions.",
                                   section: SitePaths.sources) { w in
                writeHeader(document, source: source, context: context, from: path, into: &w)
                var anchors = Set<String>()
                for version in document.versions.reversed() {
                    // Two versions with one label get distinct anchors.
                    var anchor = versionAnchor(version.label ?? "unversioned")
                    while !anchors.insert(anchor).inserted { anchor += "-b" }
                    writeVersion(version, anchor: anchor, context: context, from: path, into: &w)
                }
            }
            return (path, html)
        }
        var output = StepOutput()
        for case let (path, html)? in pages where output.files[path] == nil { output.files[path] = html }
        return output
    }

    /// Title, the source it restates, the latest summary and how many versions follow.
    static func writeHeader(_ document: Document, source: Source?, context: SiteContext, from page: String, into w: inout HTMLWriter) {
        w.markup("<h1>"); w.text(document.title); w.markup("</h1>\n")
        if let source {
            w.markup("<p class=\"lead\">bgkb's restatement of <a href=\"")
            w.text(context.link(from: page, to: SitePaths.sources, anchor: context.sourceAnchor(source.id)))
            w.markup("\">"); w.text(source.title); w.markup("</a>, in its own words.</p>")
        }
        w.markup("\n")
        if let summary = document.latest?.summary {
            w.markup("<p>"); w.text(summary); w.markup("</p>")
        }
        w.markup("\n<p>"); w.text(Format.count(document.versions.count, "version")); w.markup(", newest first.</p>\n")
    }

    /// One version: where it is written, its points, and its own revision history.
    static func writeVersion(_ version: DocumentVersion, anchor: String, context: SiteContext, from page: String, into w: inout HTMLWriter) {
        w.markup("<section aria-labelledby=\""); w.text(anchor); w.markup("\">\n<h2 id=\""); w.text(anchor)
        w.markup("\">Version "); w.text(version.label ?? "(unversioned)"); w.markup("</h2>\n<p>Written in <code>")
        w.text(context.configuration.display(path: version.path)); w.markup("</code>. ")
        w.text(Format.count(version.rules.count, "point")); w.markup(".</p>\n<ol class=\"rule-list\">\n")
        writeRules(version.rules, context: context, from: page, into: &w)
        w.markup("</ol>\n")
        if !version.revisions.isEmpty {
            w.markup("<h3 id=\""); w.text(anchor); w.markup("-history\">Revision history of this version</h3>\n<ul class=\"revision-list\">\n")
            for entry in version.revisions {
                let date = entry.date.description
                w.markup("<li><time datetime=\""); w.text(date); w.markup("\">"); w.text(date); w.markup("</time>")
                if entry.writtenDate != date {
                    w.markup(" (written “"); w.text(entry.writtenDate); w.markup("”)")
                }
                w.markup(": "); w.text(entry.text); w.markup("</li>\n")
            }
            w.markup("</ul>\n")
        }
        w.markup("</section>\n")
    }

    /// The points of one version, one `<li>` each, linked when the rule has a page.
    static func writeRules(_ rules: [Rule], context: SiteContext, from page: String, into w: inout HTMLWriter) {
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
    }
}
