import BGKBContent
import BGKBModel
import Foundation
import Mustache
import Testing
@testable import BGKBSite

/// The revision timeline, the Atom feed and the sitemap were Mustache templates; they are written
/// directly now (filling the templates' dictionaries cost more than the pages). They must give
/// the very bytes the templates gave: here the templates, as they were, are the reference.
@Suite struct TemplatePortTests {
    static let revisionsTemplate = """
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

    static let feedTemplate = """
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

    static let sitemapTemplate = """
    <?xml version="1.0" encoding="UTF-8"?>
    <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
    {{#urls}}<url><loc>{{loc}}</loc></url>
    {{/urls}}</urlset>

    """

    static let documentTemplate = """
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

    static let sourcesTemplate = """
    <h1>Sources</h1>
    <p class="lead">Where bgkb's facts come from and how far to trust each source. Primary sources are Apple's documentation and Apple staff; third-party claims are checked against them.</p>
    <nav class="toc" aria-label="On this page"><ul><li><a href="#sources-list">Sources</a></li><li><a href="#documents">Documents and versions</a></li><li><a href="#conflicts">Conflicts</a></li><li><a href="#disputes">Disputed claims</a></li></ul></nav>
    <section aria-labelledby="sources-list">
    <h2 id="sources-list">Sources</h2>
    {{#sources}}<article class="source" id="{{anchor}}" aria-labelledby="{{anchor}}-title">
    <h3 id="{{anchor}}-title">{{title}}</h3>
    <p class="source-meta"><span class="badge reliability-{{reliability}}">{{reliability}}</span>{{#author}} {{author}}{{/author}}{{#author}}{{#publisher}} ·{{/publisher}}{{/author}}{{#publisher}} {{publisher}}{{/publisher}}</p>
    <div class="prose">{{{summaryHtml}}}</div>
    <p>{{#url}}<a class="external" href="{{url}}" rel="external">{{url}}</a> · {{/url}}Cited by {{citedText}}. Id <code>{{id}}</code>.</p>
    </article>
    {{/sources}}{{^sources}}<p>No sources.</p>{{/sources}}
    </section>
    <section aria-labelledby="documents">
    <h2 id="documents">Documents and versions</h2>
    <p>bgkb's own restatements of the sources. A document with several versions keeps each one, so changes between them become rule histories.</p>
    <ul class="document-list">
    {{#documents}}<li><a href="{{href}}">{{title}}</a>{{#sourceTitle}} — restates <a href="#{{sourceAnchor}}">{{sourceTitle}}</a>{{/sourceTitle}}<ul>{{#versions}}<li>{{label}}: {{rulesText}}, {{entriesText}}</li>{{/versions}}</ul></li>
    {{/documents}}</ul>
    </section>
    <section aria-labelledby="conflicts">
    <h2 id="conflicts">Conflicts</h2>
    <p>Places where sources, or two versions of one source, state different values for the same fact. They are recorded, never silently resolved.</p>
    {{#conflicts}}<article class="conflict" id="{{anchor}}" aria-labelledby="{{anchor}}-title">
    <h3 id="{{anchor}}-title">{{subject}}</h3>
    <table>
    <caption class="visually-hidden">Claims about: {{subject}}</caption>
    <thead><tr><th scope="col">Value</th><th scope="col">Source</th><th scope="col">Where</th></tr></thead>
    <tbody>{{#claims}}<tr><td>{{value}}</td><td><a href="{{citation.href}}">{{citation.title}}</a>{{#citation.version}} ({{citation.version}}){{/citation.version}}</td><td><code>{{location}}</code></td></tr>
    {{/claims}}</tbody>
    </table>
    {{#hasAssessment}}<div class="prose assessment"><p><strong>Our reading:</strong></p>{{{assessmentHtml}}}</div>{{/hasAssessment}}
    {{#hasRules}}<p>Affects: {{#rules}}<a href="{{href}}">{{title}}</a>{{^last}}, {{/last}}{{/rules}}</p>{{/hasRules}}
    </article>
    {{/conflicts}}{{^conflicts}}<p>No conflicts recorded.</p>{{/conflicts}}
    </section>
    <section aria-labelledby="disputes">
    <h2 id="disputes">Disputed claims</h2>
    <p>Claims found in circulation that primary sources contradict or do not support.</p>
    {{#disputes}}<article class="dispute" aria-labelledby="{{anchor}}">
    <h3 id="{{anchor}}"><a href="{{href}}">{{title}}</a></h3>
    <p><span class="badge verdict-{{verdict}}">{{verdictLabel}}</span> {{claim}}</p>
    <p>Claimed by <a href="{{claimedBy.href}}">{{claimedBy.title}}</a>{{#claimedBy.locator}}, in “{{claimedBy.locator}}”{{/claimedBy.locator}}. Counter-sources: {{#counterSources}}<a href="{{href}}">{{title}}</a>{{#locator}}: {{locator}}{{/locator}}{{^last}}; {{/last}}{{/counterSources}}{{^counterSources}}none recorded{{/counterSources}}.</p>
    </article>
    {{/disputes}}{{^disputes}}<p>No disputed claims recorded.</p>{{/disputes}}
    </section>
    """

    static let library: MustacheLibrary = {
        _ = Templates.shared  // registers the escaping the templates name
        var library = MustacheLibrary()
        for (name, source) in [("revisions", revisionsTemplate), ("feed", feedTemplate), ("sitemap", sitemapTemplate),
                               ("document", documentTemplate), ("sources", sourcesTemplate)] {
            try? library.register("{{% CONTENT_TYPE: \(ByteHTMLContentType.name)}}" + source, named: name)
        }
        return library
    }()

    /// The pages as the templates rendered them, filled as the pages filled them.
    static func reference(_ context: SiteContext) -> [String: String] {
        let page = SitePaths.revisions
        let entries = context.corpus.revisionEntries
        let anchors = RevisionTimelinePage.anchors(entries)
        var years: [[String: Any]] = []
        var currentYear: Int?
        var bucket: [[String: Any]] = []
        for (entry, anchor) in zip(entries, anchors) {
            if currentYear != entry.date.year, let year = currentYear {
                years.append(["year": String(year), "entries": bucket])
                bucket = []
            }
            currentYear = entry.date.year
            bucket.append(RevisionTimelinePage.entryValue(entry, context: context, from: page, anchor: anchor))
        }
        if let year = currentYear { years.append(["year": String(year), "entries": bucket]) }
        let body = library.render(["years": years, "hasYears": !years.isEmpty], withTemplate: "revisions") ?? ""
        let revisions = Layout.page(context, path: page, title: "Revision timeline",
                                    description: "Every dated revision entry across bgkb's sources.", body: body)

        let base = context.configuration.baseURL
        let values: [[String: Any]] = zip(entries, anchors).map { entry, anchor in
            var value = RevisionTimelinePage.entryValue(entry, context: context, from: SitePaths.revisions, anchor: anchor)
            value["url"] = base + SitePaths.revisions + "#" + anchor
            return value
        }
        let updated = entries.map(\.date).max()?.description ?? "1970-01-01"
        let feed = library.render(["base": base, "updated": updated, "entries": values], withTemplate: "feed") ?? ""

        let urls = Sitemap.pages(context).map { ["loc": base + $0] }
        let sitemap = library.render(["urls": urls], withTemplate: "sitemap") ?? ""
        var pages = [SitePaths.revisions: revisions, SitePaths.feed: feed, SitePaths.sitemap: sitemap]

        for document in context.corpus.documents {
            guard let path = context.documentPath(document.id), pages[path] == nil else { continue }
            let source = document.source.flatMap { context.corpus.source($0) }
            var labels = Set<String>()
            let versions: [[String: Any]] = document.versions.reversed().map { version in
                var anchor = DocumentPages.versionAnchor(version.label ?? "unversioned")
                while !labels.insert(anchor).inserted { anchor += "-b" }
                var rules = HTMLWriter()
                DocumentPages.writeRules(version.rules, context: context, from: path, into: &rules)
                return [
                    "anchor": anchor,
                    "label": version.label ?? "(unversioned)",
                    "path": context.configuration.display(path: version.path),
                    "rulesText": Format.count(version.rules.count, "point"),
                    "rulesHtml": rules.string,
                    "hasEntries": !version.revisions.isEmpty,
                    "entries": version.revisions.map { RevisionTimelinePage.entryValue($0, context: context, from: path) },
                ]
            }
            let body = library.render([
                "title": document.title,
                "sourceTitle": source?.title ?? false,
                "sourceHref": source.map { context.link(from: path, to: SitePaths.sources, anchor: context.sourceAnchor($0.id)) } ?? "",
                "summaryText": document.latest?.summary ?? false,
                "versionsText": Format.count(document.versions.count, "version"),
                "versions": versions,
            ], withTemplate: "document") ?? ""
            pages[path] = Layout.page(context, path: path, title: document.title,
                                      description: "bgkb's restatement of \(source?.title ?? document.title), with its versions.",
                                      section: SitePaths.sources, body: body)
        }
        pages[SitePaths.sources] = sourcesReference(context)
        return pages
    }

    /// The sources page as its template rendered it.
    static func sourcesReference(_ context: SiteContext) -> String {
        let page = SitePaths.sources
        let corpus = context.corpus
        var citationCounts: [String: Int] = [:]
        for rule in corpus.rules {
            for source in Set(rule.sources.map(\.source)) { citationCounts[source, default: 0] += 1 }
        }
        let sources: [[String: Any]] = corpus.sources.map { source in
            [
                "anchor": context.sourceAnchor(source.id), "id": source.id, "title": source.title,
                "reliability": source.reliability.rawValue,
                "author": source.author ?? false, "publisher": source.publisher ?? false,
                "url": source.url.flatMap { SafeURL.isExternalHTTP($0) ? $0 : nil } ?? false,
                "summaryHtml": context.markdown(source.summary, from: page),
                "citedText": Format.count(citationCounts[source.id] ?? 0, "rule"),
            ]
        }
        let documents: [[String: Any]] = corpus.documents.map { document in
            let source = document.source.flatMap { corpus.source($0) }
            return [
                "href": context.documentPath(document.id).map { context.link(from: page, to: $0) } ?? "#documents",
                "title": document.title,
                "sourceTitle": source?.title ?? false,
                "sourceAnchor": source.map { context.sourceAnchor($0.id) } ?? "",
                "versions": document.versions.map { version -> [String: Any] in
                    ["label": version.label ?? "unversioned", "rulesText": Format.count(version.rules.count, "rule"),
                     "entriesText": Format.count(version.revisions.count, "revision entry", "revision entries")]
                },
            ]
        }
        let conflicts: [[String: Any]] = corpus.conflicts.map { conflict in
            let rules = conflict.rules.compactMap { context.ruleReference($0, from: page) }
            return [
                "anchor": SourcesPage.conflictAnchor(conflict.id), "subject": conflict.subject,
                "claims": conflict.claims.map { claim -> [String: Any] in
                    ["value": claim.value, "citation": context.citation(claim.citation, from: page),
                     "location": context.configuration.display(claim.location)]
                },
                "hasAssessment": conflict.assessment != nil,
                "assessmentHtml": conflict.assessment.map { context.markdown($0, from: page) } ?? "",
                "hasRules": !rules.isEmpty,
                "rules": rules.enumerated().map { index, rule in rule.merging(["last": index == rules.count - 1]) { _, new in new } },
            ]
        }
        let disputes: [[String: Any]] = corpus.disputes.compactMap { rule in
            guard let dispute = rule.dispute, let path = context.rulePath(rule.id) else { return nil }
            let counter = dispute.counterSources.map { context.citation($0, from: page) }
            return [
                "anchor": "dispute-" + (context.ruleSlugs[rule.id] ?? Slug.make(rule.id)),
                "href": context.link(from: page, to: path), "title": rule.title,
                "claim": dispute.claim, "verdict": dispute.verdict.rawValue,
                "verdictLabel": dispute.verdict == .wrong ? "Wrong" : "Doubtful",
                "claimedBy": context.citation(dispute.claimedBy, from: page),
                "counterSources": counter.enumerated().map { index, item in item.merging(["last": index == counter.count - 1]) { _, new in new } },
            ]
        }
        let body = library.render([
            "sources": sources, "documents": documents, "conflicts": conflicts, "disputes": disputes,
        ], withTemplate: "sources") ?? ""
        return Layout.page(context, path: page, title: "Sources",
                           description: "The sources behind bgkb, their conflicts and the claims it disputes.", body: body)
    }

    /// The sample corpus with revision entries that hold what escaping could treat differently:
    /// text beyond ASCII next to the five escaped characters, a combining mark right after `<`
    /// (one Character with it), an empty version and one with markup, a written date that differs.
    static var trickyCorpus: Corpus {
        var corpus = SampleCorpus.corpus
        let texts = ["Café <b>bold</b> & ‘quoted’ \"x\" 'y'", "a <\u{301} b > c", "plain ASCII & <tags>", "naïve"]
        var n = 0
        for d in corpus.documents.indices {
            corpus.documents[d].title += " é & <doc>"
            for v in corpus.documents[d].versions.indices {
                for r in corpus.documents[d].versions[v].revisions.indices {
                    corpus.documents[d].versions[v].revisions[r].text = texts[n % texts.count]
                    corpus.documents[d].versions[v].revisions[r].version = n % 3 == 0 ? "" : (n % 3 == 1 ? "v<1> & é" : nil)
                    corpus.documents[d].versions[v].revisions[r].writtenDate = "written & ’\(n)"
                    n += 1
                }
                // One more entry per version, in another year, linked to a rule that exists and one that does not.
                var extra = corpus.documents[d].versions[v].revisions.first
                extra?.date = Day(year: 2001, month: 2, day: 3)
                extra?.text = "extra \(d)-\(v) <\u{301}"
                extra?.linkedRules = corpus.rules.prefix(2).map(\.id) + ["no-such-rule"]
                if let extra { corpus.documents[d].versions[v].revisions.append(extra) }
            }
        }
        corpus.documents[0].versions[corpus.documents[0].versions.count - 1].summary = "Summary é <b> & \"q\" <\u{301}"
        if let last = corpus.documents.first?.versions.last {
            var repeated = last
            repeated.path += ".again"
            corpus.documents[0].versions.append(repeated)  // the same label twice: the anchor gets "-b"
        }
        corpus.documents.append(Document(id: "loose", title: "Loose <notes> é", source: "no-such-source", versions: [
            DocumentVersion(label: nil, path: "documents/loose.md", rules: Array(corpus.rules.prefix(1)), revisions: [], signOff: nil, summary: ""),
        ]))
        corpus.sources = corpus.sources.enumerated().map { index, source in
            var source = source
            source.title += " ‘é’ & <x>"
            // Every way the source line's author, publisher and link can be there or not, or empty.
            source.author = [nil, "Quinn “The Eskimo!” <q>", "", nil][index % 4]
            source.publisher = [nil, "Apple & co", nil, ""][index % 4]
            source.url = [nil, "https://example.com/a?b=1&c=<2>", "javascript:alert(1)", ""][index % 4]
            return source
        }
        // A source per combination, uncited, with Markdown in its summary.
        for index in 0..<4 {
            corpus.sources.append(Source(id: "extra-\(index)", title: "Extra \(index) é", author: [nil, "A", "", "B"][index],
                                         publisher: [nil, nil, "P & Q", ""][index], url: [nil, "http://x.example/", nil, "ftp://no"][index],
                                         reliability: .thirdParty, summary: "Some *Markdown* & <b>html</b> [link](#end-every-task).",
                                         location: SourceLocation(path: "sources.yml", line: index + 1, column: 1)))
        }
        // Conflicts: with and without an assessment and rules (one unknown), cited in every way.
        if let first = corpus.conflicts.first {
            var bare = first
            bare.id = "bare <conflict> é"
            bare.subject = "Bare & <subject> ‘é’"
            bare.assessment = nil
            bare.rules = ["no-such-rule"]
            bare.claims = bare.claims.map { claim in
                var claim = claim
                claim.value += " & <v>"
                claim.citation = Citation(source: "unknown-source", version: "v<2>", locator: "§ 3 & <4>")
                return claim
            }
            corpus.conflicts.append(bare)
        }
        return corpus
    }

    static let content: Corpus? = try? ContentLoader.load(directory: StalenessTests.contentFolder.path).corpus

    @Test(arguments: ["content", "sample", "tricky", "empty"], [SiteConfiguration.defaultBaseURL, "https://x.example/a&b'é<c>/"])
    func writtenPagesMatchTheTemplates(corpusName: String, baseURL: String) throws {
        let corpus: Corpus
        switch corpusName {
        case "content": corpus = try #require(Self.content)
        case "sample": corpus = SampleCorpus.corpus
        case "tricky": corpus = Self.trickyCorpus
        default: corpus = Corpus()
        }
        let context = SiteContext(corpus: corpus, verdicts: [], configuration: SiteConfiguration(baseURL: baseURL))
        let expected = Self.reference(context)
        var written: [String: String] = [:]
        for step in [RevisionTimelinePage.render, AtomFeed.render, Sitemap.render, DocumentPages.render, SourcesPage.render] {
            written.merge(step(context).files) { first, _ in first }
        }
        #expect(written.keys.sorted() == expected.keys.sorted())
        for (path, page) in expected {
            let mine = Array((written[path] ?? "").utf8), theirs = Array(page.utf8)
            // Bytes, not Strings: String equality would let canonically equal spellings pass.
            let at = zip(mine, theirs).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                ?? (mine.count == theirs.count ? nil : min(mine.count, theirs.count))
            #expect(at == nil, """
                \(path) differs from the template's at byte \(at ?? 0): \
                "\(String(decoding: mine.dropFirst(max(0, (at ?? 0) - 40)).prefix(120), as: UTF8.self))" against \
                "\(String(decoding: theirs.dropFirst(max(0, (at ?? 0) - 40)).prefix(120), as: UTF8.self))"
                """)
        }
        if corpusName != "empty" { #expect(!corpus.revisionEntries.isEmpty) }
    }
}
