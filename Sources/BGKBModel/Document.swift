/// A guidance document in Content, with one or more versions (oldest first).
public struct Document: Hashable, Sendable, Codable, Identifiable {
    public var id: String
    public var title: String
    /// The source this document restates in our words.
    public var source: String?
    public var versions: [DocumentVersion]

    public init(id: String, title: String, source: String?, versions: [DocumentVersion]) {
        self.id = id
        self.title = title
        self.source = source
        self.versions = versions
    }

    public var latest: DocumentVersion? { versions.last }
}

/// One version of a document, as parsed from one file.
public struct DocumentVersion: Hashable, Sendable, Codable {
    /// Version label, usually the date of its newest revision entry (`2023-06-16`); nil when unversioned.
    public var label: String?
    /// The source this version restates (`bgtn-2021`), when its front matter names one.
    public var source: String?
    public var path: String
    /// The rules in this version, in document order.
    public var rules: [Rule]
    /// Entries from its Revision/Change History, in the order written.
    public var revisions: [RevisionEntry]
    /// The sign-off paragraph, if one was found (plain text).
    public var signOff: String?
    /// Intro text before the first point, if the document has a lead paragraph marked as such.
    public var summary: String?

    public init(label: String?, source: String? = nil, path: String, rules: [Rule], revisions: [RevisionEntry], signOff: String?, summary: String? = nil) {
        self.label = label
        self.source = source
        self.path = path
        self.rules = rules
        self.revisions = revisions
        self.signOff = signOff
        self.summary = summary
    }
}

/// A topic a reader navigates by.
public struct Topic: Hashable, Sendable, Codable, Identifiable {
    public var id: String
    public var title: String
    public var summary: String
    /// Words that, found in an unannotated point, place it in this topic.
    public var keywords: [String]

    public init(id: String, title: String, summary: String, keywords: [String] = []) {
        self.id = id
        self.title = title
        self.summary = summary
        self.keywords = keywords
    }
}

/// Everything Content says, resolved: the single input of the engine, site and quiz.
public struct Corpus: Hashable, Sendable, Codable {
    public var sources: [Source]
    public var topics: [Topic]
    public var documents: [Document]
    /// The current rules: each document's latest version, plus rules removed in it (with their history).
    public var rules: [Rule]
    public var conflicts: [Conflict]

    public init(sources: [Source] = [], topics: [Topic] = [], documents: [Document] = [], rules: [Rule] = [], conflicts: [Conflict] = []) {
        self.sources = sources
        self.topics = topics
        self.documents = documents
        self.rules = rules
        self.conflicts = conflicts
    }

    public func rule(_ id: String) -> Rule? { rules.first { $0.id == id } }
    public func source(_ id: String) -> Source? { sources.first { $0.id == id } }
    public func topic(_ id: String) -> Topic? { topics.first { $0.id == id } }
    /// Every rule that records a disputed claim.
    public var disputes: [Rule] { rules.filter { $0.dispute != nil } }
    /// Every example of every rule, in corpus order.
    public var examples: [Example] { rules.flatMap(\.examples) }
    /// Every dated revision entry across all documents and versions, newest first, one per (document, date, text).
    public var revisionEntries: [RevisionEntry] {
        var seen = Set<String>()
        var result: [RevisionEntry] = []
        for document in documents {
            for version in document.versions.reversed() {
                for entry in version.revisions where seen.insert("\(entry.document)|\(entry.date)|\(entry.text)").inserted {
                    result.append(entry)
                }
            }
        }
        return result.sorted { ($0.date, $0.document) > ($1.date, $1.document) }
    }
}
