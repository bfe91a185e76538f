import BGKBModel

/// The sources, the documents that restate them with their versions, the conflicts between
/// sources, and the disputed claims with their counter-sources.
enum SourcesPage {
    static let template = """
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

    static func conflictAnchor(_ id: String) -> String { "conflict-" + Slug.make(id) }

    static func render(_ context: SiteContext) -> StepOutput {
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
                "anchor": conflictAnchor(conflict.id), "subject": conflict.subject,
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
        let body = context.templates.render("sources", [
            "sources": sources, "documents": documents, "conflicts": conflicts, "disputes": disputes,
        ])
        return StepOutput(page, Layout.page(context, path: page, title: "Sources",
                                            description: "The sources behind bgkb, their conflicts and the claims it disputes.", body: body))
    }
}
