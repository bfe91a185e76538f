import BGKBModel

/// The topic list and one page per topic with its rules.
enum TopicPages {
    static let indexTemplate = """
    <h1>Topics</h1>
    <ul class="topic-grid">
    {{#topics}}<li><a href="{{href}}"><strong>{{title}}</strong></a> <span class="count">{{countText}}</span><p>{{summary}}</p></li>
    {{/topics}}</ul>
    {{#hasUntopical}}<h2 id="other">Rules without a topic</h2>
    {{#untopical}}{{>rule-list}}{{/untopical}}
    {{/hasUntopical}}
    """

    static let topicTemplate = """
    <h1>{{title}}</h1>
    <p class="lead">{{summary}}</p>
    {{#hasRules}}<p>{{countText}}, most important first.</p>
    {{>rule-list}}
    {{/hasRules}}{{^hasRules}}<p>No rule is in this topic yet.</p>
    {{/hasRules}}<p><a href="index.html">All topics</a> · Practise this topic: <code>bgkb quiz --topic {{id}}</code></p>
    """

    static func render(_ context: SiteContext) -> StepOutput {
        var output = StepOutput()
        let indexPath = SitePaths.topicsIndex
        var topics: [[String: Any]] = []
        for topic in context.corpus.topics {
            guard let path = context.topicPath(topic.id) else { continue }
            let rules = context.rankedRules.filter { $0.topics.contains(topic.id) }
            topics.append(["href": context.link(from: indexPath, to: path), "title": topic.title, "summary": topic.summary,
                           "countText": Format.count(rules.count, "rule")])
            let body = context.templates.render("topic", [
                "id": topic.id, "title": topic.title, "summary": topic.summary,
                "hasRules": !rules.isEmpty, "countText": Format.count(rules.count, "rule"),
                "ruleListHtml": RulesIndexPage.ruleList(rules.map(\.id), context: context, from: path),
            ])
            output.files[path] = Layout.page(context, path: path, title: topic.title, description: topic.summary,
                                             section: indexPath, body: body)
        }
        let known = Set(context.corpus.topics.map(\.id))
        let untopical = context.rankedRules.filter { !$0.topics.contains(where: known.contains) }.map(\.id)
            .filter { context.ruleIndexByID[$0] != nil && context.rulePath($0) != nil }
        let body = context.templates.render("topics-index", [
            "topics": topics, "hasUntopical": !untopical.isEmpty,
            "untopical": ["ruleListHtml": RulesIndexPage.ruleList(untopical, context: context, from: indexPath)],
        ])
        output.files[indexPath] = Layout.page(context, path: indexPath, title: "Topics",
                                              description: "The topics of iOS background execution bgkb covers.", body: body)
        return output
    }
}
