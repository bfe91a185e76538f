/// One point of guidance: what to do or know, why, and where it comes from.
public struct Rule: Hashable, Sendable, Codable, Identifiable {
    public enum Kind: String, Sendable, Codable, CaseIterable {
        case must, mustNot = "must-not", should, shouldNot = "should-not", fact, misconception
    }

    /// Everything a rule holds, as plain mutable values: what the loader fills in (`with`)
    /// before a rule is handed on, and what a rule encodes as.
    public struct Fields: Hashable, Sendable, Codable {
        /// Stable id, kebab-case: explicit in Content or derived from the statement's words.
        public var id: String
        public var title: String
        /// One sentence, plain text.
        public var statement: String
        /// The rest of the point, as Markdown (rendered by the site).
        public var details: String
        public var kind: Kind
        public var callout: Callout?
        public var topics: [String]
        public var apis: [String]
        public var numbers: [StatedNumber]
        public var crashCodes: [String]
        public var sources: [Citation]
        /// What breaks and how it shows up (crash code, log, symptom), Markdown.
        public var why: String?
        /// What to do instead, Markdown.
        public var instead: String?
        public var examples: [Example]
        /// Present when the rule records a claim we dispute (kind `misconception`).
        public var dispute: Dispute?
        /// Why the rule has no examples, when its behaviour cannot be simulated.
        public var notSimulated: String?
        public var related: [String]
        /// Dated entries saying when the rule was added, reworded, corrected or removed.
        public var history: [RuleRevision]
        /// The point's prose as plain text, without code listings or our Why/Instead notes: what is
        /// compared between versions, so adding a snippet of ours is not a change in the source.
        public var wording: String
        /// The document and version this wording comes from.
        public var document: String
        public var version: String?
        public var location: SourceLocation
    }

    /// The fields in one shared, immutable box: a page, an index or a list that takes a rule by
    /// value retains one box instead of each of its twenty-odd strings and arrays.
    private final class Storage: Sendable {
        let fields: Fields
        init(_ fields: Fields) { self.fields = fields }
    }

    private let storage: Storage

    /// The rule's fields, to read several at once or to make a changed copy (`with`).
    public var fields: Fields { storage.fields }

    public init(_ fields: Fields) {
        storage = Storage(fields)
    }

    /// A copy of the rule with `change` applied to its fields. Rules are immutable values: the
    /// loader finishes them this way (unique ids, related rules, revision history).
    public func with(_ change: (inout Fields) -> Void) -> Rule {
        var fields = storage.fields
        change(&fields)
        return Rule(fields)
    }

    /// Stable id, kebab-case: explicit in Content or derived from the statement's words.
    public var id: String { storage.fields.id }
    public var title: String { storage.fields.title }
    /// One sentence, plain text.
    public var statement: String { storage.fields.statement }
    /// The rest of the point, as Markdown (rendered by the site).
    public var details: String { storage.fields.details }
    public var kind: Kind { storage.fields.kind }
    public var callout: Callout? { storage.fields.callout }
    public var topics: [String] { storage.fields.topics }
    public var apis: [String] { storage.fields.apis }
    public var numbers: [StatedNumber] { storage.fields.numbers }
    public var crashCodes: [String] { storage.fields.crashCodes }
    public var sources: [Citation] { storage.fields.sources }
    /// What breaks and how it shows up (crash code, log, symptom), Markdown.
    public var why: String? { storage.fields.why }
    /// What to do instead, Markdown.
    public var instead: String? { storage.fields.instead }
    public var examples: [Example] { storage.fields.examples }
    /// Present when the rule records a claim we dispute (kind `misconception`).
    public var dispute: Dispute? { storage.fields.dispute }
    /// Why the rule has no examples, when its behaviour cannot be simulated.
    public var notSimulated: String? { storage.fields.notSimulated }
    public var related: [String] { storage.fields.related }
    /// Dated entries saying when the rule was added, reworded, corrected or removed.
    public var history: [RuleRevision] { storage.fields.history }
    /// The point's prose as plain text, without code listings or our Why/Instead notes: what is
    /// compared between versions, so adding a snippet of ours is not a change in the source.
    public var wording: String { storage.fields.wording }
    /// The document and version this wording comes from.
    public var document: String { storage.fields.document }
    public var version: String? { storage.fields.version }
    public var location: SourceLocation { storage.fields.location }

    public init(id: String, title: String, statement: String, details: String = "", kind: Kind, callout: Callout? = nil,
                topics: [String] = [], apis: [String] = [], numbers: [StatedNumber] = [], crashCodes: [String] = [],
                sources: [Citation] = [], why: String? = nil, instead: String? = nil, examples: [Example] = [],
                dispute: Dispute? = nil, notSimulated: String? = nil, related: [String] = [],
                history: [RuleRevision] = [], wording: String? = nil, document: String, version: String? = nil, location: SourceLocation) {
        self.init(Fields(
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
        self.init(try Fields(from: decoder))
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
