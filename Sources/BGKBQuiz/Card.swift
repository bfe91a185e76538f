import Foundation

/// How one answer went.
public enum Grade: String, Sendable, Codable, CaseIterable {
    /// Correct, and the learner knew it.
    case correct
    /// Correct, but the learner says they hesitated.
    case hesitated
    /// Correct, after asking for the hint (counts as hesitated).
    case hinted
    case wrong
    case skipped

    /// The FSRS rating; nil when the answer says nothing about memory (a skip).
    public var rating: FSRS.Rating? {
        switch self {
        case .correct: return .good
        case .hesitated, .hinted: return .hard
        case .wrong: return .again
        case .skipped: return nil
        }
    }

    public var isCorrect: Bool { self == .correct || self == .hesitated || self == .hinted }
}

/// One answer, kept forever: a reworded rule resets its card but not this.
public struct Review: Hashable, Sendable, Codable {
    public var at: Date
    public var grade: Grade
    public var contentVersion: String
    /// Which answer this is: the session's id and the answer's number in it. Two terminals can
    /// give the same grade to the same question in the same second; merging keeps both because
    /// their ids differ. Nil in files written before it existed.
    public var id: String?

    public init(at: Date, grade: Grade, contentVersion: String, id: String? = nil) {
        self.at = at
        self.grade = grade
        self.contentVersion = contentVersion
        self.id = id
    }
}

/// The SM-2 state a card had in a schema 1 progress file, kept as it was when the file migrated
/// to FSRS (the new state is computed from the answers, which both schemas keep).
public struct LegacySM2: Hashable, Sendable, Codable {
    public var ease: Double
    public var interval: Double
    public var repetitions: Int

    public init(ease: Double, interval: Double, repetitions: Int) {
        self.ease = ease
        self.interval = interval
        self.repetitions = repetitions
    }
}

/// What the learner knows of one question: the FSRS memory for its current wording, when it is
/// due, and every answer ever given. The memory, the due date and the counts follow from the
/// answers given to the current wording (`rebuilt`), which is how two files merge.
public struct Card: Hashable, Sendable {
    /// The wording the scheduling state belongs to.
    public var contentVersion: String
    /// The rule it asks about (for people reading the file, and stats after the rule is gone).
    public var rule: String
    /// Nil until the first graded answer in this wording.
    public var memory: FSRS.Memory?
    public var lastReview: Date?
    /// Nil while the card is new (never answered or skipped in this wording).
    public var due: Date?
    /// Graded answers in this wording, and how many of them were wrong.
    public var reviews: Int
    public var lapses: Int
    public var history: [Review]
    public var legacySM2: LegacySM2?

    public init(contentVersion: String, rule: String) {
        self.contentVersion = contentVersion
        self.rule = rule
        memory = nil
        lastReview = nil
        due = nil
        reviews = 0
        lapses = 0
        history = []
        legacySM2 = nil
    }

    public var isNew: Bool { due == nil }

    /// The last graded answer in this wording was wrong.
    public var isMissed: Bool {
        history.last { $0.grade != .skipped && $0.contentVersion == contentVersion }?.grade == .wrong
    }

    /// The chance of recalling it at `now`, by the FSRS forgetting curve; nil before any answer.
    public func retrievability(at now: Date) -> Double? {
        guard let memory, let lastReview else { return nil }
        return FSRS.retrievability(days: now.timeIntervalSince(lastReview) / Scheduler.day, stability: memory.stability)
    }

    /// A new card for a new wording, keeping the answers given to the old one.
    func reset(to version: String) -> Card {
        var card = Card(contentVersion: version, rule: rule)
        card.history = history
        card.legacySM2 = legacySM2
        return card
    }

    /// The card after one more answer.
    func answered(_ review: Review, retention: Double) -> Card {
        var card = self
        card.history.append(review)
        card.apply(review, retention: retention)
        return card
    }

    /// The scheduling state computed again from the answers to the current wording.
    func rebuilt(retention: Double) -> Card {
        var card = reset(to: contentVersion)
        for review in history where review.contentVersion == contentVersion {
            card.apply(review, retention: retention)
        }
        return card
    }

    /// Updates memory and due date for an answer already in the history. A skip makes the card
    /// due now (it comes back in the next review) and says nothing about memory.
    private mutating func apply(_ review: Review, retention: Double) {
        guard let rating = review.grade.rating else {
            due = review.at
            return
        }
        let elapsed = lastReview.map { review.at.timeIntervalSince($0) / Scheduler.day }
        memory = FSRS.next(memory, rating: rating, elapsedDays: elapsed)
        lastReview = review.at
        reviews += 1
        if rating == .again {
            lapses += 1
            due = review.at.addingTimeInterval(Scheduler.relearnDelay)
        } else {
            let days = FSRS.interval(stability: memory?.stability ?? 1, retention: retention)
            due = review.at.addingTimeInterval(min(max(days.rounded(), 1), FSRS.maximumStability) * Scheduler.day)
        }
    }
}

extension Card: Codable {
    enum Keys: String, CodingKey {
        case contentVersion, rule, stability, difficulty, lastReview, due, reviews, lapses, history, sm2
        // Schema 1 (SM-2) fields, read for migration.
        case ease, interval, repetitions
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        self.init(contentVersion: try container.decode(String.self, forKey: .contentVersion),
                  rule: try container.decode(String.self, forKey: .rule))
        if let stability = try container.decodeIfPresent(Double.self, forKey: .stability),
           let difficulty = try container.decodeIfPresent(Double.self, forKey: .difficulty) {
            memory = FSRS.Memory(stability: stability, difficulty: difficulty)
        }
        lastReview = try container.decodeIfPresent(Date.self, forKey: .lastReview)
        due = try container.decodeIfPresent(Date.self, forKey: .due)
        reviews = try container.decodeIfPresent(Int.self, forKey: .reviews) ?? 0
        lapses = try container.decodeIfPresent(Int.self, forKey: .lapses) ?? 0
        history = try container.decode([Review].self, forKey: .history)
        if let legacy = try container.decodeIfPresent(LegacySM2.self, forKey: .sm2) {
            legacySM2 = legacy
        } else if let ease = try container.decodeIfPresent(Double.self, forKey: .ease) {
            legacySM2 = LegacySM2(ease: ease, interval: try container.decodeIfPresent(Double.self, forKey: .interval) ?? 0,
                                  repetitions: try container.decodeIfPresent(Int.self, forKey: .repetitions) ?? 0)
        }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(contentVersion, forKey: .contentVersion)
        try container.encode(rule, forKey: .rule)
        try container.encodeIfPresent(memory?.stability, forKey: .stability)
        try container.encodeIfPresent(memory?.difficulty, forKey: .difficulty)
        try container.encodeIfPresent(lastReview, forKey: .lastReview)
        try container.encodeIfPresent(due, forKey: .due)
        try container.encode(reviews, forKey: .reviews)
        try container.encode(lapses, forKey: .lapses)
        try container.encode(history, forKey: .history)
        try container.encodeIfPresent(legacySM2, forKey: .sm2)
    }
}
