/// Settings that are not in Content: where the site will be published (for the absolute URLs
/// that sitemap.xml and the Atom feed require) and its name.
public struct SiteConfiguration: Sendable, Hashable {
    /// Absolute URL of the site's root, ending in `/`. Only sitemap.xml and feed.xml use it:
    /// pages link relatively so they work from `file://`.
    public var baseURL: String
    public var title: String

    public static let defaultBaseURL = "https://bgkb.example.org/"

    public init(baseURL: String = SiteConfiguration.defaultBaseURL, title: String = "bgkb") {
        self.baseURL = baseURL.hasSuffix("/") ? baseURL : baseURL + "/"
        self.title = title
    }
}
