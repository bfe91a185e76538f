import BGKBModel

/// The front page: what bgkb is, the rules that cause the most trouble, the topics, recent changes.
enum HomePage {
    static let topRuleCount = 8
    /// How many of the newest revision entries the page lists.
    static let recentCount = 5

    static func render(_ context: SiteContext) -> StepOutput {
        let page = SitePaths.home
        let html = Layout.page(path: page, title: "iOS background execution, checked",
                               description: "Rules for iOS background execution, with sources, revision history and simulated examples.") { w in
            writeHero(context, into: &w)
            writeTopRules(context, from: page, into: &w)
            writeTopics(context, from: page, into: &w)
            writeRecentRevisions(context, from: page, into: &w)
        }
        return StepOutput(page, html)
    }

    /// What bgkb is, and how much it holds.
    static func writeHero(_ context: SiteContext, into w: inout HTMLWriter) {
        w.markup("""
        <div class="hero">
        <h1>iOS background execution, checked</h1>
        <p class="lead">bgkb is a knowledge base of the rules for running code while an iOS app is in the background: background tasks, expiry handlers, time budgets, the BackgroundTasks framework, background push. Every rule cites its sources and records how its wording changed; where the behaviour can be simulated, it comes with examples that bgkb's simulator of iOS background execution runs under many schedules, and the pages show what it found.</p>
        <ul class="stats">

        """)
        let stats: [(Int, StaticString)] = [
            (context.rankedRules.count, " rules"),
            (context.verdictCount, " examples simulated"),
            (context.corpus.sources.count, " sources"),
            (context.corpus.revisionEntries.count, " dated revisions"),
        ]
        for (count, label) in stats {
            w.markup("<li><strong>"); w.text(String(count)); w.markup("</strong>"); w.markup(label); w.markup("</li>\n")
        }
        w.markup("</ul>\n</div>\n")
    }

    /// The most important rules as cards, with their crash codes.
    static func writeTopRules(_ context: SiteContext, from page: String, into w: inout HTMLWriter) {
        w.markup("""
        <section aria-labelledby="top-rules">
        <h2 id="top-rules">Start here: the top causes of background-task problems</h2>
        <p>The rules whose breach most often ends in a crash or a killed app, most important first.</p>
        <ol class="cards">

        """)
        let root = SitePaths.root(from: page)
        for rule in context.rankedRules.prefix(topRuleCount) {
            guard let reference = context.ruleReferences[rule.id] else { continue }
            w.markup("<li class=\"card\">\n<p class=\"card-meta\"><span class=\"badge "); w.text(reference.kindClass); w.markup("\">")
            w.text(reference.kind); w.markup("</span>")
            for code in rule.crashCodes {
                w.markup(" <a class=\"code-chip\" href=\"")
                w.text(context.link(from: page, to: SitePaths.crashCodes, anchor: CrashCodesPage.anchor(code)))
                w.markup("\">"); w.text(code); w.markup("</a>")
            }
            w.markup("</p>\n<h3>"); reference.writeLink(root: root, into: &w); w.markup("</h3>\n")
            if reference.showStatement { w.markup("<p>"); w.text(reference.statement); w.markup("</p>\n") }
            w.markup("</li>\n")
        }
        w.markup("</ol>\n<p><a href=\"rules/index.html\">All "); w.text(String(context.rankedRules.count))
        w.markup(" rules, by importance</a></p>\n</section>\n")
    }

    static func writeTopics(_ context: SiteContext, from page: String, into w: inout HTMLWriter) {
        w.markup("<section aria-labelledby=\"topics\">\n<h2 id=\"topics\">Topics</h2>\n")
        TopicPages.writeTopicGrid(context, from: page, into: &w)
        w.markup("</section>\n")
    }

    /// The newest revision entries. An entry that two versions of a document date differently
    /// shows up once per date; only then does the version matter to the reader, so only then is
    /// it shown.
    static func writeRecentRevisions(_ context: SiteContext, from page: String, into w: inout HTMLWriter) {
        let shown = Array(context.corpus.revisionEntries.prefix(recentCount))
        guard !shown.isEmpty else { return }
        let repeatedTexts = Set(Dictionary(grouping: shown, by: \.text).filter { $0.value.count > 1 }.keys)
        w.markup("<section aria-labelledby=\"recent\">\n<h2 id=\"recent\">Recent revisions in the sources</h2>\n<ul class=\"revision-list\">\n")
        for entry in shown {
            let date = entry.date.description
            w.markup("<li><time datetime=\""); w.text(date); w.markup("\">"); w.text(date); w.markup("</time>")
            if entry.writtenDate != date {
                w.markup(" <span class=\"written\">(written “"); w.text(entry.writtenDate); w.markup("”)</span>")
            }
            w.markup(" "); RevisionTimelinePage.writeDocumentLink(entry, context: context, from: page, into: &w)
            if let version = entry.version, repeatedTexts.contains(entry.text) {
                w.markup(" <span class=\"version\">(date as in version "); w.text(version); w.markup("; the versions disagree)</span>")
            }
            w.markup(": "); w.text(entry.text); w.markup("</li>\n")
        }
        w.markup("</ul>\n<p><a href=\"revisions.html\">The full revision timeline</a></p>\n</section>\n")
    }
}
