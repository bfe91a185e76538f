import Foundation

/// Everything the quiz remembers about a learner: one card per question id, past sessions and
/// the target retention. Encoded as the progress file, with a schema name and version so a
/// foreign or newer file is recognised rather than misread. Schema 1 was SM-2; schema 2 is FSRS.
public struct QuizProgress: Hashable, Sendable {
    public static let schemaName = "bgkb-progress"
    public static let currentSchemaVersion = 2
    public static let defaultRetention = 0.9
    /// The target retentions the quiz accepts (Anki's range for FSRS's desired retention).
    public static let retentionRange = 0.70...0.99

    public var schema: String
    public var schemaVersion: Int
    /// By question id (stable across rewordings); each card records the wording it is for.
    public var cards: [String: Card]
    public var sessions: [SessionRecord]
    /// The chance of recall at which a card falls due: higher means more reviews, sooner.
    public var targetRetention: Double

    public init(cards: [String: Card] = [:], sessions: [SessionRecord] = [], targetRetention: Double = QuizProgress.defaultRetention) {
        schema = QuizProgress.schemaName
        schemaVersion = QuizProgress.currentSchemaVersion
        self.cards = cards
        self.sessions = sessions
        self.targetRetention = targetRetention
    }

    /// The question's card for its current wording: a new card if never seen, a reset one (with
    /// its history) if the rule was reworded since.
    public func card(for question: Question) -> Card {
        guard let card = cards[question.id] else { return Card(contentVersion: question.contentVersion, rule: question.rule) }
        return card.contentVersion == question.contentVersion ? card : card.reset(to: question.contentVersion)
    }

    /// Records an answer. Times are kept to the second, as the file keeps them, so an answer
    /// read back from the file is the same answer (two files merge by their answers).
    public mutating func record(_ grade: Grade, for question: Question, at now: Date, id: String? = nil) {
        let review = Review(at: Self.second(now), grade: grade, contentVersion: question.contentVersion, id: id)
        cards[question.id] = card(for: question).answered(review, retention: targetRetention)
    }

    static func second(_ date: Date) -> Date {
        Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
    }

    /// Every card's schedule computed again from its answers: after a migration from SM-2, a
    /// merge, or a change of target retention.
    public func rebuilt() -> QuizProgress {
        var copy = self
        copy.schema = QuizProgress.schemaName
        copy.schemaVersion = QuizProgress.currentSchemaVersion
        copy.cards = cards.mapValues { $0.rebuilt(retention: targetRetention) }
        return copy
    }

    /// This progress and another copy of the same learner's progress (another terminal's), with
    /// the answers and sessions of both. A card takes the wording of its latest answer; the
    /// target retention is this one's.
    public func merged(with other: QuizProgress) -> QuizProgress {
        var result = self
        for (id, theirs) in other.cards {
            guard let mine = cards[id] else {
                result.cards[id] = theirs
                continue
            }
            var seen = Set<Review>()
            let history = (mine.history + theirs.history).filter { seen.insert($0).inserted }.sorted { $0.at < $1.at }
            var card = (theirs.history.last?.at ?? .distantPast) > (mine.history.last?.at ?? .distantPast) ? theirs : mine
            card.history = history
            card.legacySM2 = mine.legacySM2 ?? theirs.legacySM2
            result.cards[id] = card
        }
        var seenSessions = Set<SessionRecord>()
        result.sessions = (sessions + other.sessions).filter { seenSessions.insert($0).inserted }.sorted { $0.at < $1.at }
        return result.rebuilt()
    }

    /// Values no progress file should hold (out of range, not finite), each with where it is.
    public var problems: [String] {
        var problems: [String] = []
        func check(_ value: Double, _ range: ClosedRange<Double>, _ place: @autoclosure () -> String) {
            if !value.isFinite || !range.contains(value) {
                problems.append("\(place()) is \(value), expected \(range.lowerBound)…\(range.upperBound)")
            }
        }
        check(targetRetention, QuizProgress.retentionRange, "targetRetention")
        for (id, card) in cards.sorted(by: { $0.key < $1.key }) {
            if let memory = card.memory {
                check(memory.stability, FSRS.minimumStability...FSRS.maximumStability, "cards[\"\(id)\"].stability")
                check(memory.difficulty, FSRS.minimumDifficulty...FSRS.maximumDifficulty, "cards[\"\(id)\"].difficulty")
            }
            if let legacy = card.legacySM2 {
                check(legacy.ease, 1...10, "cards[\"\(id)\"].ease")
                check(legacy.interval, 0...FSRS.maximumStability, "cards[\"\(id)\"].interval")
            }
            if card.reviews < 0 || card.lapses < 0 { problems.append("cards[\"\(id)\"] has a negative count") }
        }
        for (index, session) in sessions.enumerated() where session.asked < 0 || session.correct < 0 || session.correct > session.asked {
            problems.append("sessions[\(index)] counts \(session.correct) correct of \(session.asked)")
        }
        return problems
    }
}

extension QuizProgress: Codable {
    enum Keys: String, CodingKey { case schema, schemaVersion, cards, sessions, targetRetention }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        schema = try container.decode(String.self, forKey: .schema)
        schemaVersion = try container.decode(Int.self, forKey: .schemaVersion)
        cards = try container.decode([String: Card].self, forKey: .cards)
        sessions = try container.decode([SessionRecord].self, forKey: .sessions)
        targetRetention = try container.decodeIfPresent(Double.self, forKey: .targetRetention) ?? QuizProgress.defaultRetention
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(schema, forKey: .schema)
        try container.encode(schemaVersion, forKey: .schemaVersion)
        try container.encode(targetRetention, forKey: .targetRetention)
        try container.encode(cards, forKey: .cards)
        try container.encode(sessions, forKey: .sessions)
    }
}

/// One finished (or interrupted) session.
public struct SessionRecord: Hashable, Sendable, Codable {
    public var at: Date
    public var asked: Int
    public var correct: Int
    public var seed: UInt64
    /// The session's id (as in its answers' ids); nil in files written before it existed.
    public var id: String?

    public init(at: Date, asked: Int, correct: Int, seed: UInt64, id: String? = nil) {
        self.at = QuizProgress.second(at)
        self.asked = asked
        self.correct = correct
        self.seed = seed
        self.id = id
    }
}
