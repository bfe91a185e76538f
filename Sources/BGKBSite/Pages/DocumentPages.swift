import BGKBModel

/// One page per guidance document: each version with its points and its revision entries.
enum DocumentPages {
    static func versionAnchor(_ label: String) -> String { "version-" + Slug.make(label) }

    /// Written directly, as the Mustache template it replaces wrote it (TemplatePortTests compares
    /// the two).
    static func render(_ context: SiteContext) -> StepOutput {
        // Documents are independent: render them on every core, merge in corpus order.
        let pages = ParallelMap.map(context.corpus.documents) { document -> (String, String)? in
            guard let path = context.documentPath(document.id) else { return nil }
            let source = document.source.flatMap { context.corpus.source($0) }
            var w = HTMLWriter(capacity: 4096)
            w.markup("<h1>"); w.templateText(document.title); w.markup("</h1>\n")
            if let source {
                w.markup("<p class=\"lead\">bgkb's restatement of <a href=\"")
                w.templateText(context.link(from: path, to: SitePaths.sources, anchor: context.sourceAnchor(source.id)))
                w.markup("\">"); w.templateText(source.title); w.markup("</a>, in its own words.</p>")
            }
            w.markup("\n")
            if let summary = document.latest?.summary {
                w.markup("<p>"); w.templateText(summary); w.markup("</p>")
            }
            w.markup("\n<p>"); w.templateText(Format.count(document.versions.count, "version")); w.markup(", newest first.</p>\n")
            var labels = Set<String>()
            for version in document.versions.reversed() {
                var anchor = versionAnchor(version.label ?? "unversioned")
                while !labels.insert(anchor).inserted { anchor += "-b" }
                w.markup("<section aria-labelledby=\""); w.templateText(anchor); w.markup("\">\n<h2 id=\""); w.templateText(anchor)
                w.markup("\">Version "); w.templateText(version.label ?? "(unversioned)"); w.markup("</h2>\n<p>Written in <code>")
                w.templateText(context.configuration.display(path: version.path)); w.markup("</code>. ")
                w.templateText(Format.count(version.rules.count, "point")); w.markup(".</p>\n<ol class=\"rule-list\">\n")
                writeRules(version.rules, context: context, from: path, into: &w)
                w.markup("</ol>\n")
                if !version.revisions.isEmpty {
                    w.markup("<h3 id=\""); w.templateText(anchor); w.markup("-history\">Revision history of this version</h3>\n<ul class=\"revision-list\">\n")
                    for entry in version.revisions {
                        let date = entry.date.description
                        w.markup("<li><time datetime=\""); w.templateText(date); w.markup("\">"); w.templateText(date); w.markup("</time>")
                        if entry.writtenDate != date {
                            w.markup(" (written “"); w.templateText(entry.writtenDate); w.markup("”)")
                        }
                        w.markup(": "); w.templateText(entry.text); w.markup("</li>\n")
                    }
                    w.markup("</ul>\n")
                }
                w.markup("</section>\n")
            }
            return (path, Layout.page(context, path: path, title: document.title,
                                      description: "bgkb's restatement of \(source?.title ?? document.title), with its versions.",
                                      section: SitePaths.sources, body: w.string))
        }
        var output = StepOutput()
        for case let (path, html)? in pages where output.files[path] == nil { output.files[path] = html }
        return output
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
