/// A document the knowledge comes from: a forum post, an Apple article, a header, a blog post.
public struct Source: Hashable, Sendable, Codable, Identifiable {
    public enum Reliability: String, Sendable, Codable, CaseIterable {
        /// Apple's documentation, SDK headers, or Apple staff (DTS) writing officially.
        case primary
        /// Apple material that is informal or second-hand (WWDC notes, summaries).
        case secondary
        /// Third-party text whose claims we check against primary sources.
        case thirdParty = "third-party"
    }

    public var id: String
    public var title: String
    public var author: String?
    public var publisher: String?
    public var url: String?
    public var reliability: Reliability
    /// What this source is and how far to trust it, in our words (Markdown).
    public var summary: String
    public var location: SourceLocation

    public init(id: String, title: String, author: String? = nil, publisher: String? = nil, url: String? = nil,
                reliability: Reliability, summary: String = "", location: SourceLocation) {
        self.id = id
        self.title = title
        self.author = author
        self.publisher = publisher
        self.url = url
        self.reliability = reliability
        self.summary = summary
        self.location = location
    }
}

/// A rule's claim that a source backs it: which source, optionally which version and where in it.
public struct Citation: Hashable, Sendable, Codable {
    public var source: String
    /// A document version label (`2023-06-16`) when the source has versions.
    public var version: String?
    /// Where in the source, in words ("the point on expiry handlers", "Listing 1").
    public var locator: String?
    /// True when we could not confirm the fact in the source ourselves.
    public var unverified: Bool

    public init(source: String, version: String? = nil, locator: String? = nil, unverified: Bool = false) {
        self.source = source
        self.version = version
        self.locator = locator
        self.unverified = unverified
    }
}
