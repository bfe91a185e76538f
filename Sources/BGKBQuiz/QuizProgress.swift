import Foundation

/// Everything the quiz remembers about a learner: one card per question id, and past sessions.
/// Encoded as the progress file, with a schema name and version so a foreign or newer file is
/// recognised rather than misread.
public struct QuizProgress: Hashable, Sendable, Codable {
    public static let schemaName = "bgkb-progress"
    public static let currentSchemaVersion = 1

    public var schema: String
    public var schemaVersion: Int
    /// By question id (stable across rewordings); each card records the wording it is for.
    public var cards: [String: Card]
    public var sessions: [SessionRecord]

    public init(cards: [String: Card] = [:], sessions: [SessionRecord] = []) {
        schema = QuizProgress.schemaName
        schemaVersion = QuizProgress.currentSchemaVersion
        self.cards = cards
        self.sessions = sessions
    }

    /// The question's card for its current wording: a new card if never seen, a reset one (with
    /// its history) if the rule was reworded since.
    public func card(for question: Question) -> Card {
        guard let card = cards[question.id] else { return Card(contentVersion: question.contentVersion, rule: question.rule) }
        return card.contentVersion == question.contentVersion ? card : card.reset(to: question.contentVersion)
    }

    public mutating func record(_ grade: Grade, for question: Question, at now: Date) {
        cards[question.id] = Scheduler.review(card(for: question), grade: grade, at: now)
    }
}

/// One finished (or interrupted) session.
public struct SessionRecord: Hashable, Sendable, Codable {
    public var at: Date
    public var asked: Int
    public var correct: Int
    public var seed: UInt64

    public init(at: Date, asked: Int, correct: Int, seed: UInt64) {
        self.at = at
        self.asked = asked
        self.correct = correct
        self.seed = seed
    }
}
