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

    static let library: MustacheLibrary = {
        _ = Templates.shared  // registers the escaping the templates name
        var library = MustacheLibrary()
        for (name, source) in [("revisions", revisionsTemplate), ("feed", feedTemplate), ("sitemap", sitemapTemplate),
                               ("document", documentTemplate)] {
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
        return pages
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
        corpus.sources = corpus.sources.map { source in
            var source = source
            source.title += " ‘é’ & <x>"
            return source
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
        for step in [RevisionTimelinePage.render, AtomFeed.render, Sitemap.render, DocumentPages.render] {
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
