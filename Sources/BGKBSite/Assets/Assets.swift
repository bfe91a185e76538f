/// The stylesheet and the scripts, shipped as files next to the pages (the quiz's come with its page).
enum Assets {
    static func render(_ context: SiteContext) -> StepOutput {
        StepOutput(files: [
            SitePaths.stylesheet: Stylesheet.css,
            SitePaths.keysScript: Scripts.keys,
            SitePaths.searchScript: Scripts.search,
            SitePaths.ruleListScript: Scripts.ruleList,
        ])
    }
}
