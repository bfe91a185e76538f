/// One point of guidance: what to do or know, why, and where it comes from.
public struct Rule: Hashable, Sendable, Codable, Identifiable {
    public enum Kind: String, Sendable, Codable, CaseIterable {
        case must, mustNot = "must-not", should, shouldNot = "should-not", fact, misconception
    }

    /// The rule's fields live in one shared, reference-counted box, as an array's elements do,
    /// and are copied only when a rule that shares its box is changed. A page, an index or a list
    /// that takes a rule by value then retains one box instead of each of its twenty-odd strings
    /// and arrays: those copies (and their releases) were about 3 % of a first build's CPU at
    /// 10,000 rules, over a dozen pages and the loader.
    struct Fields: Hashable, Codable {
        var id: String
        var title: String
        var statement: String
        var details: String
        var kind: Kind
        var callout: Callout?
        var topics: [String]
        var apis: [String]
        var numbers: [StatedNumber]
        var crashCodes: [String]
        var sources: [Citation]
        var why: String?
        var instead: String?
        var examples: [Example]
        var dispute: Dispute?
        var notSimulated: String?
        var related: [String]
        var history: [RuleRevision]
        var wording: String
        var document: String
        var version: String?
        var location: SourceLocation
    }

    private final class Storage: @unchecked Sendable {
        // Read on every field access; written only while the box is uniquely referenced (see
        // `makeUnique`), so the dynamic exclusivity check a class property gets would only cost.
        @exclusivity(unchecked) var fields: Fields
        init(_ fields: Fields) { self.fields = fields }
    }

    private var storage: Storage

    private mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&storage) { storage = Storage(storage.fields) }
    }

    /// Stable id, kebab-case: explicit in Content or derived from the statement's words.
    public var id: String {
        get { storage.fields.id }
        _modify { makeUnique(); yield &storage.fields.id }
    }

    public var title: String {
        get { storage.fields.title }
        _modify { makeUnique(); yield &storage.fields.title }
    }

    /// One sentence, plain text.
    public var statement: String {
        get { storage.fields.statement }
        _modify { makeUnique(); yield &storage.fields.statement }
    }

    /// The rest of the point, as Markdown (rendered by the site).
    public var details: String {
        get { storage.fields.details }
        _modify { makeUnique(); yield &storage.fields.details }
    }

    public var kind: Kind {
        get { storage.fields.kind }
        _modify { makeUnique(); yield &storage.fields.kind }
    }

    public var callout: Callout? {
        get { storage.fields.callout }
        _modify { makeUnique(); yield &storage.fields.callout }
    }

    public var topics: [String] {
        get { storage.fields.topics }
        _modify { makeUnique(); yield &storage.fields.topics }
    }

    public var apis: [String] {
        get { storage.fields.apis }
        _modify { makeUnique(); yield &storage.fields.apis }
    }

    public var numbers: [StatedNumber] {
        get { storage.fields.numbers }
        _modify { makeUnique(); yield &storage.fields.numbers }
    }

    public var crashCodes: [String] {
        get { storage.fields.crashCodes }
        _modify { makeUnique(); yield &storage.fields.crashCodes }
    }

    public var sources: [Citation] {
        get { storage.fields.sources }
        _modify { makeUnique(); yield &storage.fields.sources }
    }

    /// What breaks and how it shows up (crash code, log, symptom), Markdown.
    public var why: String? {
        get { storage.fields.why }
        _modify { makeUnique(); yield &storage.fields.why }
    }

    /// What to do instead, Markdown.
    public var instead: String? {
        get { storage.fields.instead }
        _modify { makeUnique(); yield &storage.fields.instead }
    }

    public var examples: [Example] {
        get { storage.fields.examples }
        _modify { makeUnique(); yield &storage.fields.examples }
    }

    /// Present when the rule records a claim we dispute (kind `misconception`).
    public var dispute: Dispute? {
        get { storage.fields.dispute }
        _modify { makeUnique(); yield &storage.fields.dispute }
    }

    /// Why the rule has no examples, when its behaviour cannot be simulated.
    public var notSimulated: String? {
        get { storage.fields.notSimulated }
        _modify { makeUnique(); yield &storage.fields.notSimulated }
    }

    public var related: [String] {
        get { storage.fields.related }
        _modify { makeUnique(); yield &storage.fields.related }
    }

    /// Dated entries saying when the rule was added, reworded, corrected or removed.
    public var history: [RuleRevision] {
        get { storage.fields.history }
        _modify { makeUnique(); yield &storage.fields.history }
    }

    /// The point's prose as plain text, without code listings or our Why/Instead notes: what is
    /// compared between versions, so adding a snippet of ours is not a change in the source.
    public var wording: String {
        get { storage.fields.wording }
        _modify { makeUnique(); yield &storage.fields.wording }
    }

    /// The document and version this wording comes from.
    public var document: String {
        get { storage.fields.document }
        _modify { makeUnique(); yield &storage.fields.document }
    }

    public var version: String? {
        get { storage.fields.version }
        _modify { makeUnique(); yield &storage.fields.version }
    }

    public var location: SourceLocation {
        get { storage.fields.location }
        _modify { makeUnique(); yield &storage.fields.location }
    }

    public init(id: String, title: String, statement: String, details: String = "", kind: Kind, callout: Callout? = nil,
                topics: [String] = [], apis: [String] = [], numbers: [StatedNumber] = [], crashCodes: [String] = [],
                sources: [Citation] = [], why: String? = nil, instead: String? = nil, examples: [Example] = [],
                dispute: Dispute? = nil, notSimulated: String? = nil, related: [String] = [],
                history: [RuleRevision] = [], wording: String? = nil, document: String, version: String? = nil, location: SourceLocation) {
        storage = Storage(Fields(
            id: id,
            title: title,
            statement: statement,
            details: details,
            kind: kind,
            callout: callout,
            topics: topics,
            apis: apis,
            numbers: numbers,
            crashCodes: crashCodes,
            sources: sources,
            why: why,
            instead: instead,
            examples: examples,
            dispute: dispute,
            notSimulated: notSimulated,
            related: related,
            history: history,
            wording: wording ?? (details.isEmpty ? statement : statement + "\n\n" + details),
            document: document,
            version: version,
            location: location
        ))
    }
}

extension Rule {
    public static func == (lhs: Rule, rhs: Rule) -> Bool {
        lhs.storage === rhs.storage || lhs.storage.fields == rhs.storage.fields
    }

    public func hash(into hasher: inout Hasher) {
        storage.fields.hash(into: &hasher)
    }

    /// The same keys as the fields' own: a rule encodes as it did when the fields were its own.
    public init(from decoder: any Decoder) throws {
        storage = Storage(try Fields(from: decoder))
    }

    public func encode(to encoder: any Encoder) throws {
        try storage.fields.encode(to: encoder)
    }
}

extension Rule: CustomReflectable {
    /// The fields, so a printed rule (a test's failure, a debugger) shows them and not the box.
    public var customMirror: Mirror {
        Mirror(self, children: Mirror(reflecting: storage.fields).children, displayStyle: .struct)
    }
}

/// The label a point opens with in forum style: `IMPORTANT`, `Note`, `Warning`.
public enum Callout: String, Hashable, Sendable, Codable, CaseIterable {
    case important = "IMPORTANT", note = "Note", warning = "Warning"
}

/// A claim from a source that other sources contradict.
public struct Dispute: Hashable, Sendable, Codable {
    public enum Verdict: String, Sendable, Codable, CaseIterable {
        /// Contradicted by a primary source.
        case wrong
        /// Not supported by any primary source, or misleading.
        case doubtful
    }

    /// What the source claims, in our words.
    public var claim: String
    public var claimedBy: Citation
    public var verdict: Verdict
    public var counterSources: [Citation]
    /// Rules that state what is true instead.
    public var correctedBy: [String]

    public init(claim: String, claimedBy: Citation, verdict: Verdict, counterSources: [Citation], correctedBy: [String] = []) {
        self.claim = claim
        self.claimedBy = claimedBy
        self.verdict = verdict
        self.counterSources = counterSources
        self.correctedBy = correctedBy
    }
}
