import BGKBModel

/// Settings that are not in Content: where the site will be published (for the absolute URLs
/// that sitemap.xml and the Atom feed require) and its name.
public struct SiteConfiguration: Sendable, Hashable {
    /// Absolute URL of the site's root, ending in `/`. Only sitemap.xml and feed.xml use it:
    /// pages link relatively so they work from `file://`.
    public var baseURL: String
    public var title: String
    /// The Content folder as it was passed to the loader; stripped from source locations shown on
    /// pages, so the output does not depend on how the folder was spelled (`Content`, `/abs/Content/`).
    public var contentDirectory: String?

    public static let defaultBaseURL = "https://bgkb.example.org/"

    public init(baseURL: String = SiteConfiguration.defaultBaseURL, title: String = "bgkb", contentDirectory: String? = nil) {
        self.baseURL = baseURL.hasSuffix("/") ? baseURL : baseURL + "/"
        self.title = title
        self.contentDirectory = contentDirectory
    }

    /// `documents/notes.md:12` for a location under the Content folder.
    func display(_ location: SourceLocation) -> String {
        "\(display(path: location.path)):\(location.line)"
    }

    func display(path original: String) -> String {
        var path = original
        if let root = contentDirectory {
            let prefix = root.hasSuffix("/") ? root : root + "/"
            if path.hasPrefix(prefix) { path.removeFirst(prefix.count) }
        }
        while path.hasPrefix("./") { path.removeFirst(2) }
        return path
    }
}
