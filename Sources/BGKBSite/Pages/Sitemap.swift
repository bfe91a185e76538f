/// sitemap.xml: every page but the 404, absolute URLs from the configured base URL. No `lastmod`:
/// it would need a clock, and the output must not change when the input does not.
enum Sitemap {
    static let template = """
    <?xml version="1.0" encoding="UTF-8"?>
    <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
    {{#urls}}<url><loc>{{loc}}</loc></url>
    {{/urls}}</urlset>

    """

    static func pages(_ context: SiteContext) -> [String] {
        var pages = [SitePaths.home, SitePaths.rulesIndex, SitePaths.topicsIndex, SitePaths.revisions, SitePaths.sources,
                     SitePaths.crashCodes, SitePaths.apis, SitePaths.search]
        pages += context.corpus.rules.compactMap { context.rulePath($0.id) }
        pages += context.corpus.topics.compactMap { context.topicPath($0.id) }
        pages += context.corpus.documents.compactMap { context.documentPath($0.id) }
        return Array(Set(pages)).sorted()
    }

    static func render(_ context: SiteContext) -> StepOutput {
        let base = context.configuration.baseURL
        let urls = pages(context).map { ["loc": base + $0] }
        return StepOutput(SitePaths.sitemap, context.templates.render("sitemap", ["urls": urls]))
    }
}
