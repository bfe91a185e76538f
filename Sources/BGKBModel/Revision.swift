/// A calendar date with no time zone: revision entries are days, never instants.
public struct Day: Hashable, Sendable, Codable, Comparable, CustomStringConvertible {
    public var year: Int
    public var month: Int
    public var day: Int

    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// Nil for impossible dates such as 2023-02-30.
    public init?(validYear year: Int, month: Int, day: Int) {
        guard (1...12).contains(month), year >= 1, day >= 1, day <= Day.daysIn(month: month, year: year) else { return nil }
        self.init(year: year, month: month, day: day)
    }

    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// ISO 8601: `2023-06-16`.
    public var description: String {
        func pad(_ n: Int, _ width: Int) -> String { String(repeating: "0", count: max(0, width - String(n).count)) + String(n) }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
    }

    public static func < (lhs: Day, rhs: Day) -> Bool { (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day) }
}

/// One dated entry of a document's Revision History or Change History section.
public struct RevisionEntry: Hashable, Sendable, Codable {
    public var date: Day
    /// The date as written (`17 Aug 2017`), kept to show conflicts faithfully.
    public var writtenDate: String
    /// The entry's text, plain.
    public var text: String
    /// Rules the entry links to explicitly (`[...](#rule-id)`).
    public var linkedRules: [String]
    /// The entry split into clauses (at `;` and sentence ends), each with the rules it links: one
    /// entry often records several changes, and each rule should get the clause about it.
    public var clauses: [Clause]

    public struct Clause: Hashable, Sendable, Codable {
        public var text: String
        public var linkedRules: [String]
        public init(text: String, linkedRules: [String]) {
            self.text = text
            self.linkedRules = linkedRules
        }
    }
    public var document: String
    public var version: String?
    public var location: SourceLocation

    public init(date: Day, writtenDate: String, text: String, linkedRules: [String] = [], clauses: [Clause]? = nil, document: String,
                version: String?, location: SourceLocation) {
        self.date = date
        self.writtenDate = writtenDate
        self.text = text
        self.linkedRules = linkedRules
        self.clauses = clauses ?? [Clause(text: text, linkedRules: linkedRules)]
        self.document = document
        self.version = version
        self.location = location
    }
}

/// What happened to a rule at one point of its document's history.
public struct RuleRevision: Hashable, Sendable, Codable {
    public enum Change: String, Sendable, Codable, CaseIterable {
        case added, reworded, corrected, removed, unchanged
    }

    public var change: Change
    /// The version in which the change is seen (its label), when versions exist.
    public var version: String?
    /// The version compared against.
    public var previousVersion: String?
    /// The dated entry that explains it, when one does.
    public var entry: RevisionEntry?
    /// The wording before the change, for reworded, corrected and removed rules.
    public var previousWording: String?
    /// The wording after the change.
    public var wording: String?

    public init(change: Change, version: String?, previousVersion: String?, entry: RevisionEntry?,
                previousWording: String? = nil, wording: String? = nil) {
        self.change = change
        self.version = version
        self.previousVersion = previousVersion
        self.entry = entry
        self.previousWording = previousWording
        self.wording = wording
    }

    /// The day to sort and show it by: the entry's when known.
    public var date: Day? { entry?.date }
}

/// Two places that state different values for the same fact. Reported, never resolved silently.
public struct Conflict: Hashable, Sendable, Codable, Identifiable {
    public struct Claim: Hashable, Sendable, Codable {
        public var value: String
        public var citation: Citation
        public var location: SourceLocation
        public init(value: String, citation: Citation, location: SourceLocation) {
            self.value = value
            self.citation = citation
            self.location = location
        }
    }

    public var id: String
    /// What the conflict is about ("date of the revision entry on the iOS 13 beta").
    public var subject: String
    public var claims: [Claim]
    /// Our reading of the evidence, if any (Markdown); the conflict stays recorded either way.
    public var assessment: String?
    public var rules: [String]

    public init(id: String, subject: String, claims: [Claim], assessment: String? = nil, rules: [String] = []) {
        self.id = id
        self.subject = subject
        self.claims = claims
        self.assessment = assessment
        self.rules = rules
    }
}
