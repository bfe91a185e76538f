import BGKBModel
import Foundation

/// The kinds of mistake the scan finds, each tied to the Content rule it breaks.
public enum Family: String, CaseIterable, Sendable, Codable {
    case neverEnded = "never-ended"
    case endedTwice = "ended-twice"
    case identifierRace = "identifier-race"
    case overwrittenIdentifier = "overwritten-identifier"
    case noExpirationHandler = "no-expiration-handler"
    case bgtaskNotCompleted = "bgtask-not-completed"
    case bgtaskNoExpirationHandler = "bgtask-no-expiration-handler"
    case lateRegistration = "late-registration"
    case pushCompletionSkipped = "push-completion-skipped"
    case sessionCompletionNotCalled = "session-completion-not-called"
    case sessionCompletionOffMain = "session-completion-off-main"
    case sessionCompletionCalledEarly = "session-completion-called-early"
    case expiringActivityReturnsEarly = "expiring-activity-returns-early"

    /// The id of the rule in Content/ the family breaks, from the list the site also reads
    /// (`ScanChecks` in BGKBModel; a test asserts that every family is in it).
    public var rule: String { ScanChecks.rule(ofFamily: rawValue) ?? rawValue }

    /// How the scan decides, as a rule: by running the engine on a schedule. A background
    /// session's handler is judged from the code's shape where the scan cannot lower the code
    /// around it (a finding's own `basis` says which).
    public var basis: Basis { .engine }

    public enum Basis: String, Sendable, Codable {
        case engine, structural
    }
}

/// One problem found in the app's code.
public struct Finding: Hashable, Sendable, Codable {
    public var path: String
    public var place: SourcePlace
    public var family: Family
    public var message: String
    /// The schedule that breaks the rule, one line per event (engine findings), or the reasoning
    /// (structural ones).
    public var timeline: [String]
    /// The engine's schedule string, replayable against the generated scenario.
    public var schedule: String?

    public var rule: String { family.rule }

    /// Engine when a schedule shows the finding, structural when the code's shape does.
    public var basis: Family.Basis { schedule == nil ? .structural : .engine }

    public init(path: String, place: SourcePlace, family: Family, message: String, timeline: [String] = [], schedule: String? = nil) {
        self.path = path
        self.place = place
        self.family = family
        self.message = message
        self.timeline = timeline
        self.schedule = schedule
    }

    /// The same rule broken at the same place (whatever schedule shows it).
    func sameDefect(as other: Finding) -> Bool { place == other.place && family == other.family }

    /// What a baseline records: the place may move as the file is edited, so the key is the
    /// file, the rule and the text of the anchor line.
    public func baselineKey(lineText: String) -> String {
        "\(path)\u{1F}\(rule)\u{1F}\(lineText.trimmingCharacters(in: .whitespaces))"
    }
}
