import BGKBModel

/// The sources, the documents that restate them with their versions, the conflicts between
/// sources, and the disputed claims with their counter-sources.
enum SourcesPage {
    static func conflictAnchor(_ id: String) -> String { "conflict-" + Slug.make(id) }

    static func render(_ context: SiteContext) -> StepOutput {
        let page = SitePaths.sources
        let html = Layout.page(path: page, title: "Sources", description: "The sources behind bgkb, their conflicts and the claims it disputes.",
                               capacity: 64 * 1024) { w in
            w.markup("""
            <h1>Sources</h1>
            <p class="lead">Where bgkb's facts come from and how far to trust each source. Primary sources are Apple's documentation and Apple staff; third-party claims are checked against them.</p>
            <nav class="toc" aria-label="On this page"><ul><li><a href="#sources-list">Sources</a></li><li><a href="#documents">Documents and versions</a></li><li><a href="#conflicts">Conflicts</a></li><li><a href="#disputes">Disputed claims</a></li></ul></nav>

            """)
            writeSources(context, from: page, into: &w)
            writeDocuments(context, from: page, into: &w)
            writeConflicts(context, from: page, into: &w)
            writeDisputes(context, from: page, into: &w)
        }
        return StepOutput(page, html)
    }

    /// Each source with its reliability, author, publisher, summary, link and citation count.
    static func writeSources(_ context: SiteContext, from page: String, into w: inout HTMLWriter) {
        let corpus = context.corpus
        var citationCounts: [String: Int] = [:]
        for rule in corpus.rules {
            for source in Set(rule.sources.map(\.source)) { citationCounts[source, default: 0] += 1 }
        }
        w.markup("<section aria-labelledby=\"sources-list\">\n<h2 id=\"sources-list\">Sources</h2>\n")
        for source in corpus.sources {
            let anchor = context.sourceAnchor(source.id)
            w.markup("<article class=\"source\" id=\""); w.text(anchor); w.markup("\" aria-labelledby=\""); w.text(anchor)
            w.markup("-title\">\n<h3 id=\""); w.text(anchor); w.markup("-title\">"); w.text(source.title)
            w.markup("</h3>\n<p class=\"source-meta\"><span class=\"badge reliability-"); w.text(source.reliability.rawValue)
            w.markup("\">"); w.text(source.reliability.rawValue); w.markup("</span>")
            if let author = source.author { w.markup(" "); w.text(author) }
            if source.author != nil, source.publisher != nil { w.markup(" ·") }
            if let publisher = source.publisher { w.markup(" "); w.text(publisher) }
            w.markup("</p>\n<div class=\"prose\">"); w.trusted(context.markdown(source.summary, from: page)); w.markup("</div>\n<p>")
            if let url = source.url, SafeURL.isExternalHTTP(url) {
                w.markup("<a class=\"external\" href=\""); w.text(url); w.markup("\" rel=\"external\">"); w.text(url)
                w.markup("</a> · ")
            }
            w.markup("Cited by "); w.text(Format.count(citationCounts[source.id] ?? 0, "rule"))
            w.markup(". Id <code>"); w.text(source.id); w.markup("</code>.</p>\n</article>\n")
        }
        if corpus.sources.isEmpty { w.markup("<p>No sources.</p>") }
        w.markup("\n</section>\n")
    }

    /// Our documents, each with the source it restates and its versions.
    static func writeDocuments(_ context: SiteContext, from page: String, into w: inout HTMLWriter) {
        let corpus = context.corpus
        w.markup("""
        <section aria-labelledby="documents">
        <h2 id="documents">Documents and versions</h2>
        <p>bgkb's own restatements of the sources. A document with several versions keeps each one, so changes between them become rule histories.</p>
        <ul class="document-list">

        """)
        for document in corpus.documents {
            let source = document.source.flatMap { corpus.source($0) }
            w.markup("<li><a href=\""); w.text(context.documentPath(document.id).map { context.link(from: page, to: $0) } ?? "#documents")
            w.markup("\">"); w.text(document.title); w.markup("</a>")
            if let source {
                w.markup(" — restates <a href=\"#"); w.text(context.sourceAnchor(source.id)); w.markup("\">"); w.text(source.title)
                w.markup("</a>")
            }
            w.markup("<ul>")
            for version in document.versions {
                w.markup("<li>"); w.text(version.label ?? "unversioned"); w.markup(": "); w.text(Format.count(version.rules.count, "rule"))
                w.markup(", "); w.text(Format.count(version.revisions.count, "revision entry", "revision entries")); w.markup("</li>")
            }
            w.markup("</ul></li>\n")
        }
        w.markup("</ul>\n</section>\n")
    }

    /// Where sources disagree: each claim with its citation, our reading, the rules affected.
    static func writeConflicts(_ context: SiteContext, from page: String, into w: inout HTMLWriter) {
        let corpus = context.corpus
        w.markup("""
        <section aria-labelledby="conflicts">
        <h2 id="conflicts">Conflicts</h2>
        <p>Places where sources, or two versions of one source, state different values for the same fact. They are recorded, never silently resolved.</p>

        """)
        for conflict in corpus.conflicts {
            let anchor = conflictAnchor(conflict.id)
            w.markup("<article class=\"conflict\" id=\""); w.text(anchor); w.markup("\" aria-labelledby=\""); w.text(anchor)
            w.markup("-title\">\n<h3 id=\""); w.text(anchor); w.markup("-title\">"); w.text(conflict.subject)
            w.markup("</h3>\n<table>\n<caption class=\"visually-hidden\">Claims about: "); w.text(conflict.subject)
            w.markup("</caption>\n<thead><tr><th scope=\"col\">Value</th><th scope=\"col\">Source</th><th scope=\"col\">Where</th></tr></thead>\n<tbody>")
            for claim in conflict.claims {
                let citation = context.citationLink(claim.citation, from: page)
                w.markup("<tr><td>"); w.text(claim.value); w.markup("</td><td><a href=\""); w.text(citation.href); w.markup("\">")
                w.text(citation.title); w.markup("</a>")
                if let version = citation.version { w.markup(" ("); w.text(version); w.markup(")") }
                w.markup("</td><td><code>"); w.text(context.configuration.display(claim.location)); w.markup("</code></td></tr>\n")
            }
            w.markup("</tbody>\n</table>\n")
            if let assessment = conflict.assessment {
                w.markup("<div class=\"prose assessment\"><p><strong>Our reading:</strong></p>"); w.trusted(context.markdown(assessment, from: page))
                w.markup("</div>")
            }
            w.markup("\n")
            let rules = conflict.rules.compactMap { id -> (href: String, title: String)? in
                guard let rule = context.rule(id), let path = context.rulePath(id) else { return nil }
                return (context.link(from: page, to: path), SiteContext.heading(rule))
            }
            if !rules.isEmpty {
                w.markup("<p>Affects: ")
                for (index, rule) in rules.enumerated() {
                    w.markup("<a href=\""); w.text(rule.href); w.markup("\">"); w.text(rule.title); w.markup("</a>")
                    if index != rules.count - 1 { w.markup(", ") }
                }
                w.markup("</p>")
            }
            w.markup("\n</article>\n")
        }
        if corpus.conflicts.isEmpty { w.markup("<p>No conflicts recorded.</p>") }
        w.markup("\n</section>\n")
    }

    /// Claims in circulation that primary sources contradict, with who made them and who did not.
    static func writeDisputes(_ context: SiteContext, from page: String, into w: inout HTMLWriter) {
        w.markup("""
        <section aria-labelledby="disputes">
        <h2 id="disputes">Disputed claims</h2>
        <p>Claims found in circulation that primary sources contradict or do not support.</p>

        """)
        var disputes = 0
        for rule in context.corpus.disputes {
            guard let dispute = rule.dispute, let path = context.rulePath(rule.id) else { continue }
            disputes += 1
            let anchor = "dispute-" + (context.ruleSlugs[rule.id] ?? Slug.make(rule.id))
            let claimedBy = context.citationLink(dispute.claimedBy, from: page)
            w.markup("<article class=\"dispute\" aria-labelledby=\""); w.text(anchor); w.markup("\">\n<h3 id=\""); w.text(anchor)
            w.markup("\"><a href=\""); w.text(context.link(from: page, to: path)); w.markup("\">"); w.text(rule.title)
            w.markup("</a></h3>\n<p><span class=\"badge verdict-"); w.text(dispute.verdict.rawValue); w.markup("\">")
            w.text(dispute.verdict == .wrong ? "Wrong" : "Doubtful"); w.markup("</span> "); w.text(dispute.claim)
            w.markup("</p>\n<p>Claimed by <a href=\""); w.text(claimedBy.href); w.markup("\">"); w.text(claimedBy.title); w.markup("</a>")
            if let locator = claimedBy.locator { w.markup(", in “"); w.text(locator); w.markup("”") }
            w.markup(". Counter-sources: ")
            for (index, citation) in dispute.counterSources.enumerated() {
                let counter = context.citationLink(citation, from: page)
                w.markup("<a href=\""); w.text(counter.href); w.markup("\">"); w.text(counter.title); w.markup("</a>")
                if let locator = counter.locator { w.markup(": "); w.text(locator) }
                if index != dispute.counterSources.count - 1 { w.markup("; ") }
            }
            if dispute.counterSources.isEmpty { w.markup("none recorded") }
            w.markup(".</p>\n</article>\n")
        }
        if disputes == 0 { w.markup("<p>No disputed claims recorded.</p>") }
        w.markup("\n</section>")
    }
}
