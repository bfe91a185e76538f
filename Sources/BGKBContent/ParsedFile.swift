import BGKBModel

/// One Content file after parsing, before versions are linked and references resolved.
struct ParsedFile {
    var documentID: String
    var title: String
    var sourceID: String?
    var summary: String?
    var version: DocumentVersion
    var conflictNotes: [ConflictNote]
    var references: [Reference]
    var location: SourceLocation
    /// Lines of forum page chrome (see `ForumChrome`) left out of the points.
    var chromeLines = 0
}

/// A ```conflict block: our reading of a conflict the pipeline finds, or one it cannot find.
struct ConflictNote {
    var id: String
    var subject: String?
    var assessment: String?
    var claims: [Conflict.Claim]
    var rules: [String]
    var location: SourceLocation
}

/// A name Content uses that must exist elsewhere: checked once the whole corpus is known.
struct Reference {
    enum Target: String { case rule, source, topic }
    var target: Target
    var id: String
    var location: SourceLocation
    /// What refers, for the message ("related rule", "citation").
    var role: String
}
