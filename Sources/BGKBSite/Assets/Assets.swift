/// The stylesheet and the two small scripts, shipped as files next to the pages.
enum Assets {
    static func render(_ context: SiteContext) -> StepOutput {
        StepOutput(files: [
            SitePaths.stylesheet: Stylesheet.css,
            SitePaths.keysScript: Scripts.keys,
            SitePaths.searchScript: Scripts.search,
        ])
    }
}
