import BGKBModel

/// Settings that are not in Content: where the site will be published (for the absolute URLs
/// that sitemap.xml and the Atom feed require), where Content can be edited, and its name.
public struct SiteConfiguration: Sendable, Hashable {
    /// Absolute URL of the site's root, ending in `/`, or nil when it is not known. Only
    /// sitemap.xml and feed.xml use it (pages link relatively so they work from `file://`);
    /// without it there is no sitemap and the feed links relatively, rather than invent a domain.
    public var baseURL: String?
    /// The URL that a Content-relative path is appended to for an "Edit this page" link
    /// (`https://github.com/ORG/bgkb/edit/main/Content/`), or nil for no such link.
    public var repositoryURL: String?
    public var title: String
    /// The Content folder as it was passed to the loader; stripped from source locations shown on
    /// pages, so the output does not depend on how the folder was spelled (`Content`, `/abs/Content/`).
    public var contentDirectory: String?
    /// The loaded Content's fingerprint (`ContentLoadResult.fingerprint`). When it is the one the
    /// quiz's embedded bank was built from, the browser quiz uses that bank as it is.
    public var contentFingerprint: UInt64 = 0
    /// Build the browser quiz's bank from the corpus (running the engine for every outcome
    /// question) when the embedded bank is not for this Content.
    public var computesQuizBank = false

    public init(baseURL: String? = nil, repositoryURL: String? = nil, title: String = "bgkb", contentDirectory: String? = nil) {
        self.baseURL = baseURL.flatMap { $0.isEmpty ? nil : ($0.hasSuffix("/") ? $0 : $0 + "/") }
        self.repositoryURL = repositoryURL.flatMap { $0.isEmpty ? nil : ($0.hasSuffix("/") ? $0 : $0 + "/") }
        self.title = title
        self.contentDirectory = contentDirectory
    }

    /// `documents/notes.md:12` for a location under the Content folder.
    func display(_ location: SourceLocation) -> String {
        "\(display(path: location.path)):\(location.line)"
    }

    /// The "Edit this page" address of a Content file, when a repository URL is configured.
    func editURL(path: String) -> String? {
        repositoryURL.map { $0 + display(path: path) }
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
