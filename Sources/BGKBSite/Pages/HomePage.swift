import BGKBModel

/// The front page: what bgkb is, the rules that cause the most trouble, the topics, recent changes.
enum HomePage {
    static let template = """
    <div class="hero">
    <h1>iOS background execution, checked</h1>
    <p class="lead">bgkb is a knowledge base of the rules for running code while an iOS app is in the background: background tasks, expiry handlers, time budgets, the BackgroundTasks framework, background push. Every rule cites its sources and records how its wording changed; where the behaviour can be simulated, it comes with examples that bgkb's simulator of iOS background execution runs under many schedules, and the pages show what it found.</p>
    <ul class="stats">
    <li><strong>{{ruleCount}}</strong> rules</li>
    <li><strong>{{exampleCount}}</strong> examples simulated</li>
    <li><strong>{{sourceCount}}</strong> sources</li>
    <li><strong>{{revisionCount}}</strong> dated revisions</li>
    </ul>
    </div>
    <section aria-labelledby="top-rules">
    <h2 id="top-rules">Start here: the top causes of background-task problems</h2>
    <p>The rules whose breach most often ends in a crash or a killed app, most important first.</p>
    <ol class="cards">
    {{#topRules}}<li class="card">
    <p class="card-meta"><span class="badge {{kindClass}}">{{kind}}</span>{{#crashCodes}} <a class="code-chip" href="{{href}}">{{code}}</a>{{/crashCodes}}</p>
    <h3><a href="{{href}}">{{title}}</a></h3>
    {{#showStatement}}<p>{{statement}}</p>
    {{/showStatement}}</li>
    {{/topRules}}</ol>
    <p><a href="rules/index.html">All {{ruleCount}} rules, by importance</a></p>
    </section>
    <section aria-labelledby="topics">
    <h2 id="topics">Topics</h2>
    <ul class="topic-grid">
    {{#topics}}<li><a href="{{href}}"><strong>{{title}}</strong></a> <span class="count">{{countText}}</span><p>{{summary}}</p></li>
    {{/topics}}</ul>
    </section>
    {{#hasRevisions}}<section aria-labelledby="recent">
    <h2 id="recent">Recent revisions in the sources</h2>
    <ul class="revision-list">
    {{#revisions}}<li><time datetime="{{date}}">{{date}}</time>{{#showWritten}} <span class="written">(written “{{writtenDate}}”)</span>{{/showWritten}} <a href="{{href}}">{{documentTitle}}</a>{{#version}} <span class="version">(date as in version {{version}}; the versions disagree)</span>{{/version}}: {{text}}</li>
    {{/revisions}}</ul>
    <p><a href="revisions.html">The full revision timeline</a></p>
    </section>
    {{/hasRevisions}}
    """

    static let topRuleCount = 8

    static func render(_ context: SiteContext) -> StepOutput {
        let page = SitePaths.home
        let corpus = context.corpus
        let top: [[String: Any]] = context.rankedRules.prefix(topRuleCount).compactMap { rule in
            guard var card = context.ruleReference(rule.id, from: page) else { return nil }
            card["crashCodes"] = rule.crashCodes.map { code in
                ["code": code, "href": context.link(from: page, to: SitePaths.crashCodes, anchor: CrashCodesPage.anchor(code))]
            }
            return card
        }
        let topics: [[String: Any]] = corpus.topics.compactMap { topic in
            guard var value = context.topicReference(topic.id, from: page) else { return nil }
            let count = context.rankedRules.filter { $0.topics.contains(topic.id) }.count
            value["summary"] = topic.summary
            value["countText"] = Format.count(count, "rule")
            return value
        }
        let entries = corpus.revisionEntries
        // An entry the two versions of a document date differently shows up once per date; only then
        // does the version matter to the reader, so only then is it shown.
        let shown = Array(entries.prefix(5))
        let repeatedTexts = Dictionary(grouping: shown, by: \.text).filter { $0.value.count > 1 }.keys
        let recent: [[String: Any]] = shown.map { entry in
            var value = RevisionTimelinePage.entryValue(entry, context: context, from: page)
            if !repeatedTexts.contains(entry.text) { value["version"] = false }
            return value
        }
        let body = context.templates.render("home", [
            "ruleCount": context.rankedRules.count,
            "exampleCount": context.verdictCount,
            "sourceCount": corpus.sources.count,
            "revisionCount": entries.count,
            "topRules": top,
            "topics": topics,
            "hasRevisions": !recent.isEmpty,
            "revisions": recent,
        ])
        let html = Layout.page(context, path: page, title: "iOS background execution, checked",
                               description: "Rules for iOS background execution, with sources, revision history and simulated examples.",
                               body: body)
        return StepOutput(page, html)
    }
}
