/// sitemap.xml: every page but the 404, absolute URLs from the configured base URL. No `lastmod`:
/// it would need a clock, and the output must not change when the input does not. Without a base
/// URL there is no sitemap: the protocol needs absolute URLs, and a domain must not be invented.
enum Sitemap {
    static func pages(_ context: SiteContext) -> [String] {
        var pages = [SitePaths.home, SitePaths.rulesIndex, SitePaths.topicsIndex, SitePaths.revisions, SitePaths.sources,
                     SitePaths.crashCodes, SitePaths.apis, SitePaths.search, SitePaths.examplesGuide, SitePaths.quiz]
        pages += context.corpus.rules.compactMap { context.rulePath($0.id) }
        pages += context.corpus.topics.compactMap { context.topicPath($0.id) }
        pages += context.corpus.documents.compactMap { context.documentPath($0.id) }
        pages += context.corpus.documents.filter { $0.versions.count > 1 }.compactMap { context.documentPath($0.id).map(DocumentDiffPages.path) }
        return Array(Set(pages)).sorted()
    }

    static func render(_ context: SiteContext) -> StepOutput {
        guard let base = context.configuration.baseURL else { return StepOutput() }
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
