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

    /// The ids of the current rules in a topic, most important first (read in place: a rule is
    /// not copied to be tested).
    static func ruleIDs(in topic: Topic, _ context: SiteContext) -> [String] {
        let rules = context.corpus.rules
        return context.rankedIndices.compactMap { rules[$0].topics.contains(topic.id) ? rules[$0].id : nil }
    }

    /// One topic's page: its summary and its rules.
    static func writeTopic(_ topic: Topic, context: SiteContext, from page: String, into w: inout HTMLWriter) {
        let rules = ruleIDs(in: topic, context)
        w.markup("<h1>"); w.text(topic.title); w.markup("</h1>\n<p class=\"lead\">"); w.text(topic.summary); w.markup("</p>\n")
        if rules.isEmpty {
            w.markup("<p>No rule is in this topic yet.</p>\n")
        } else {
            w.markup("<p>"); w.text(Format.count(rules.count, "rule")); w.markup(", most important first.</p>\n")
            RulesIndexPage.writeRuleList(rules, context: context, from: page, into: &w)
        }
        w.markup("<p><a href=\"index.html\">All topics</a> · <a href=\"")
        w.text(context.link(from: page, to: SitePaths.quiz) + "?topic=" + topic.id); w.markup("\">Quiz yourself on this topic</a></p>")
    }

    /// Every topic that has a page, with its summary and how many rules it holds (also on the
    /// home page).
    static func writeTopicGrid(_ context: SiteContext, from page: String, into w: inout HTMLWriter) {
        w.markup("<ul class=\"topic-grid\">\n")
        for topic in context.corpus.topics {
            guard let path = context.topicPath(topic.id) else { continue }
            w.markup("<li><a href=\""); w.text(context.link(from: page, to: path)); w.markup("\"><strong>"); w.text(topic.title)
            w.markup("</strong></a> <span class=\"count\">"); w.text(Format.count(ruleIDs(in: topic, context).count, "rule"))
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
