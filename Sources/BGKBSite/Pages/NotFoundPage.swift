/// The page static hosts serve for a missing path.
enum NotFoundPage {
    static func render(_ context: SiteContext) -> StepOutput {
        let page = SitePaths.notFound
        let html = Layout.page(path: page, title: "Page not found", description: "There is no page at this address.") { w in
            w.markup("""
            <h1>Page not found</h1>
            <p class="lead">There is no page at this address. Rules keep their ids across rewordings, so an old link usually means the rule was removed or renamed.</p>
            <ul>
            <li><a href="index.html">Home</a></li>
            <li><a href="rules/index.html">All rules</a>, including removed ones</li>
            <li><a href="search.html">Search</a></li>
            </ul>
            """)
        }
        return StepOutput(page, html)
    }
}
