/// One point of guidance: what to do or know, why, and where it comes from.
public struct Rule: Hashable, Sendable, Codable, Identifiable {
    public enum Kind: String, Sendable, Codable, CaseIterable {
        case must, mustNot = "must-not", should, shouldNot = "should-not", fact, misconception
    }

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

    public init(id: String, title: String, statement: String, details: String = "", kind: Kind, callout: Callout? = nil,
                topics: [String] = [], apis: [String] = [], numbers: [StatedNumber] = [], crashCodes: [String] = [],
                sources: [Citation] = [], why: String? = nil, instead: String? = nil, examples: [Example] = [],
                dispute: Dispute? = nil, notSimulated: String? = nil, related: [String] = [],
                history: [RuleRevision] = [], wording: String? = nil, document: String, version: String? = nil, location: SourceLocation) {
        self.id = id
        self.title = title
        self.statement = statement
        self.details = details
        self.kind = kind
        self.callout = callout
        self.topics = topics
        self.apis = apis
        self.numbers = numbers
        self.crashCodes = crashCodes
        self.sources = sources
        self.why = why
        self.instead = instead
        self.examples = examples
        self.dispute = dispute
        self.notSimulated = notSimulated
        self.related = related
        self.history = history
        self.wording = wording ?? (details.isEmpty ? statement : statement + "\n\n" + details)
        self.document = document
        self.version = version
        self.location = location
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
