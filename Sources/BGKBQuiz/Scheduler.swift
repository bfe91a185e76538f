import BGKBModel
import Foundation

/// Chooses and orders a session's questions from the cards' FSRS schedules (see `FSRS` and
/// `Card`): due cards first, the most overdue first, mixed with new ones.
public enum Scheduler {
    /// How soon a missed card is due again in a later session (within a session it comes back
    /// after a few other questions).
    public static let relearnDelay: TimeInterval = 10 * 60
    public static let day: TimeInterval = 24 * 60 * 60

    /// How many of `questions` are due at `now` (skipped ones included) and how many are new.
    public static func counts(_ questions: [Question], progress: QuizProgress, now: Date) -> (due: Int, new: Int) {
        var due = 0
        var new = 0
        for question in questions {
            let card = progress.card(for: question)
            if let date = card.due { if date <= now { due += 1 } } else { new += 1 }
        }
        return (due, new)
    }

    public enum Mode: Sendable {
        /// Due cards mixed with new ones, topped up with the soonest-due when both run out.
        case learn
        /// Only cards that are due or whose last answer was wrong.
        case review
    }

    /// The questions for one session, in the order to ask them. A function of its arguments:
    /// the same seed, progress and time give the same session.
    public static func select(from questions: [Question], progress: QuizProgress, now: Date, count: Int,
                              seed: UInt64, mode: Mode) -> [Question] {
        guard count > 0 else { return [] }
        let tieBreak = { (question: Question) in StableHash.of(String(seed), question.id).value }
        var due: [(Question, Date)] = []
        var missed: [Question] = []
        var new: [Question] = []
        var later: [(Question, Date)] = []
        for question in questions {
            let card = progress.card(for: question)
            if let date = card.due {
                if date <= now { due.append((question, date)) }
                else if card.isMissed { missed.append(question) }
                else { later.append((question, date)) }
            } else {
                new.append(question)
            }
        }
        // Most overdue first; equal dates in seeded order.
        let byDate = { (a: (Question, Date), b: (Question, Date)) in
            a.1 != b.1 ? a.1 < b.1 : tieBreak(a.0) < tieBreak(b.0)
        }
        let dueQuestions = due.sorted(by: byDate).map(\.0)
        switch mode {
        case .review:
            return Array((dueQuestions + missed.sorted { tieBreak($0) < tieBreak($1) }).prefix(count))
        case .learn:
            // Due cards come first, but new ones always get about a third of the session (when
            // there are any), spread evenly among the reviews.
            let reviews = dueQuestions + missed.sorted { tieBreak($0) < tieBreak($1) }
            let fresh = spreadAcrossRules(new, seed: seed)
            let freshCount = min(fresh.count, max(count - reviews.count, count / 3))
            let reviewCount = min(reviews.count, count - freshCount)
            var session = interleave(Array(reviews.prefix(reviewCount)), Array(fresh.prefix(freshCount)))
            if session.count < count {
                session += later.sorted(by: byDate).map(\.0).prefix(count - session.count)
            }
            return Array(session.prefix(count))
        }
    }

    /// New questions in seeded order, one rule at a time round-robin, so a session does not ask
    /// five things about the same rule in a row.
    static func spreadAcrossRules(_ questions: [Question], seed: UInt64) -> [Question] {
        var generator = SeededGenerator(seed: seed)
        var groups: [String: [Question]] = [:]
        var rules: [String] = []
        for question in questions {
            if groups[question.rule] == nil { rules.append(question.rule) }
            groups[question.rule, default: []].append(question)
        }
        rules.shuffle(using: &generator)
        var queues = rules.map { rule -> [Question] in
            var group = groups[rule] ?? []
            group.shuffle(using: &generator)
            // "True or false: <the rule itself>" teaches least: ask a rule's other questions first.
            let plainStatements = group.filter(\.isPlainTrueStatement)
            return group.filter { !$0.isPlainTrueStatement } + plainStatements
        }
        var result: [Question] = []
        var round = 0
        while result.count < questions.count {
            for index in queues.indices where round < queues[index].count {
                result.append(queues[index][round])
            }
            round += 1
        }
        queues.removeAll()
        return result
    }

    /// Merges two lists keeping each one's order, spreading the shorter evenly through the longer.
    static func interleave(_ first: [Question], _ second: [Question]) -> [Question] {
        var result: [Question] = []
        result.reserveCapacity(first.count + second.count)
        var a = 0
        var b = 0
        while a < first.count || b < second.count {
            let aDone = Double(a) / Double(max(first.count, 1))
            let bDone = Double(b) / Double(max(second.count, 1))
            if a < first.count && (b >= second.count || aDone <= bDone) {
                result.append(first[a])
                a += 1
            } else {
                result.append(second[b])
                b += 1
            }
        }
        return result
    }
}

extension Question {
    /// A true/false question whose answer is True: the rule's own statement, read back.
    var isPlainTrueStatement: Bool { kind == .trueFalse && correct == 0 }
}
