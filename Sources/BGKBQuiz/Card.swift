import Foundation

/// How one answer went.
public enum Grade: String, Sendable, Codable, CaseIterable {
    case correct
    /// Correct, after asking for the hint.
    case hinted
    case wrong
    case skipped

    /// SM-2's quality (0 to 5); nil when the answer says nothing about memory (a skip).
    var quality: Int? {
        switch self {
        case .correct: return 4
        case .hinted: return 3
        case .wrong: return 1
        case .skipped: return nil
        }
    }

    public var isCorrect: Bool { self == .correct || self == .hinted }
}

/// One answer, kept forever: a reworded rule resets its card but not this.
public struct Review: Hashable, Sendable, Codable {
    public var at: Date
    public var grade: Grade
    public var contentVersion: String

    public init(at: Date, grade: Grade, contentVersion: String) {
        self.at = at
        self.grade = grade
        self.contentVersion = contentVersion
    }
}

/// What the learner knows of one question: SM-2 state for its current wording, and every answer.
public struct Card: Hashable, Sendable, Codable {
    /// The wording the scheduling state belongs to.
    public var contentVersion: String
    /// The rule it asks about (for people reading the file, and stats after the rule is gone).
    public var rule: String
    public var ease: Double
    /// Days until the next review after the last success.
    public var interval: Double
    /// Successful reviews in a row.
    public var repetitions: Int
    public var lapses: Int
    /// Nil while the card is new (never graded in this wording).
    public var due: Date?
    public var history: [Review]

    public init(contentVersion: String, rule: String) {
        self.contentVersion = contentVersion
        self.rule = rule
        ease = 2.5
        interval = 0
        repetitions = 0
        lapses = 0
        due = nil
        history = []
    }

    public var isNew: Bool { due == nil }

    /// The last graded answer in this wording was wrong.
    public var isMissed: Bool {
        history.last { $0.grade != .skipped && $0.contentVersion == contentVersion }?.grade == .wrong
    }

    /// A new card for a new wording, keeping the answers given to the old one.
    func reset(to version: String) -> Card {
        var card = Card(contentVersion: version, rule: rule)
        card.history = history
        return card
    }
}
