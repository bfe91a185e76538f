import Mustache

/// The Mustache templates of the less frequent pages, compiled once (the layout, rule pages,
/// timelines and word diffs are written with `HTMLWriter`). Templates are Swift string literals so an
/// installed `bgkb` needs no resource bundle. Mustache escapes every `{{value}}` for HTML (which is
/// also valid XML escaping); the only unescaped slots are `{{{...Html}}}` ones, and those are filled
/// with cmark's safe-mode output or with markup another template already escaped.
struct Templates: Sendable {
    /// Template sources by name. Each page keeps its template next to the code that fills it.
    static let sources: [String: String] = [
        "home": HomePage.template,
        "rules-index": RulesIndexPage.template,
        "rule-list": RulesIndexPage.ruleListPartial,
        "topics-index": TopicPages.indexTemplate,
        "topic": TopicPages.topicTemplate,
        "revisions": RevisionTimelinePage.template,
        "sources": SourcesPage.template,
        "document": DocumentPages.template,
        "crash-codes": CrashCodesPage.template,
        "search": SearchPage.template,
        "not-found": NotFoundPage.template,
        "sitemap": Sitemap.template,
        "feed": AtomFeed.template,
    ]

    let library: MustacheLibrary
    /// Names of templates that failed to parse, with the parser's message.
    let errors: [String]

    init() {
        var library = MustacheLibrary()
        var errors: [String] = []
        for name in Self.sources.keys.sorted() {
            do {
                try library.register(Self.sources[name] ?? "", named: name)
            } catch {
                errors.append("template \(name): \(error)")
            }
        }
        self.library = library
        self.errors = errors
    }

    /// Renders `object` (dictionaries and arrays of them) with the named template; empty when the
    /// template is missing, which the template test rules out.
    func render(_ name: String, _ object: [String: Any]) -> String {
        library.render(object, withTemplate: name) ?? ""
    }
}
