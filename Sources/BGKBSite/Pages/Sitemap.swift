/// sitemap.xml: every page but the 404, absolute URLs from the configured base URL. No `lastmod`:
/// it would need a clock, and the output must not change when the input does not.
enum Sitemap {
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
        let pages = pages(context)
        var w = HTMLWriter(capacity: pages.count * (base.utf8.count + 40) + 128)
        w.markup("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n")
        for page in pages {
            w.markup("<url><loc>"); w.text(base + page); w.markup("</loc></url>\n")
        }
        w.markup("</urlset>\n")
        return StepOutput(SitePaths.sitemap, w.string)
    }
}
