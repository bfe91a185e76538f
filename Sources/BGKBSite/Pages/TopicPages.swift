import BGKBModel

/// The topic list and one page per topic with its rules.
enum TopicPages {
    static func render(_ context: SiteContext) -> StepOutput {
        var output = StepOutput()
        for topic in context.corpus.topics {
            guard let path = context.topicPath(topic.id) else { continue }
            output.files[path] = Layout.page(path: path, title: topic.title, description: topic.summary, section: SitePaths.topicsIndex) { w in
                writeTopic(topic, context: context, from: path, into: &w)
            }
        }
        let indexPath = SitePaths.topicsIndex
        output.files[indexPath] = Layout.page(path: indexPath, title: "Topics",
                                              description: "The topics of iOS background execution bgkb covers.") { w in
            w.markup("<h1>Topics</h1>\n")
            writeTopicGrid(context, from: indexPath, into: &w)
            writeUntopical(context, from: indexPath, into: &w)
        }
        return output
    }

    /// The current rules in a topic, most important first.
    static func rules(in topic: Topic, _ context: SiteContext) -> [Rule] {
        context.rankedRules.filter { $0.topics.contains(topic.id) }
    }

    /// One topic's page: its summary and its rules.
    static func writeTopic(_ topic: Topic, context: SiteContext, from page: String, into w: inout HTMLWriter) {
        let rules = rules(in: topic, context)
        w.markup("<h1>"); w.text(topic.title); w.markup("</h1>\n<p class=\"lead\">"); w.text(topic.summary); w.markup("</p>\n")
        if rules.isEmpty {
            w.markup("<p>No rule is in this topic yet.</p>\n")
        } else {
            w.markup("<p>"); w.text(Format.count(rules.count, "rule")); w.markup(", most important first.</p>\n")
            RulesIndexPage.writeRuleList(rules.map(\.id), context: context, from: page, into: &w)
        }
        w.markup("<p><a href=\"index.html\">All topics</a> · Practise this topic: <code>bgkb quiz --topic ")
        w.text(topic.id); w.markup("</code></p>")
    }

    /// Every topic that has a page, with its summary and how many rules it holds (also on the
    /// home page).
    static func writeTopicGrid(_ context: SiteContext, from page: String, into w: inout HTMLWriter) {
        w.markup("<ul class=\"topic-grid\">\n")
        for topic in context.corpus.topics {
            guard let path = context.topicPath(topic.id) else { continue }
            w.markup("<li><a href=\""); w.text(context.link(from: page, to: path)); w.markup("\"><strong>"); w.text(topic.title)
            w.markup("</strong></a> <span class=\"count\">"); w.text(Format.count(rules(in: topic, context).count, "rule"))
            w.markup("</span><p>"); w.text(topic.summary); w.markup("</p></li>\n")
        }
        w.markup("</ul>\n")
    }

    /// The current rules in no known topic, if any.
    static func writeUntopical(_ context: SiteContext, from page: String, into w: inout HTMLWriter) {
        let known = Set(context.corpus.topics.map(\.id))
        let untopical = context.rankedRules.filter { !$0.topics.contains(where: known.contains) }.map(\.id)
            .filter { context.ruleIndexByID[$0] != nil && context.rulePath($0) != nil }
        guard !untopical.isEmpty else { return }
        w.markup("<h2 id=\"other\">Rules without a topic</h2>\n")
        RulesIndexPage.writeRuleList(untopical, context: context, from: page, into: &w)
        w.markup("\n")
    }
}
