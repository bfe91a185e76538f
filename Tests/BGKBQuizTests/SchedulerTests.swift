import BGKBModel
import BGKBQuiz
import Foundation
import Testing

@Suite struct SchedulerTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)
    let bank = QuestionBank(corpus: Fixtures.corpus, outcomes: Fixtures.standInEngine)

    /// Reference values computed by hand (outside Swift) from the FSRS-5 formulas and default
    /// parameters published by open-spaced-repetition.
    struct Reference: Sendable, CustomTestStringConvertible {
        var name: String
        var before: FSRS.Memory?
        var rating: FSRS.Rating
        var elapsedDays: Double?
        var stability: Double
        var difficulty: Double
        var testDescription: String { name }
    }

    static let firstGood = FSRS.Memory(stability: 3.173, difficulty: 5.282434422319005)
    static let references: [Reference] = [
        Reference(name: "first answer, good", before: nil, rating: .good, elapsedDays: nil, stability: 3.173, difficulty: 5.282434422319005),
        Reference(name: "first answer, again", before: nil, rating: .again, elapsedDays: nil, stability: 0.40255, difficulty: 7.1949),
        Reference(name: "first answer, hard", before: nil, rating: .hard, elapsedDays: nil, stability: 1.18385, difficulty: 6.488305268471453),
        Reference(name: "good 3 days later", before: firstGood, rating: .good, elapsedDays: 3, stability: 10.73892584613159, difficulty: 5.272967931287446),
        Reference(name: "hard 3 days later", before: firstGood, rating: .hard, elapsedDays: 3.5, stability: 4.924511833379462, difficulty: 6.0349502556102195),
        Reference(name: "again 3 days later", before: firstGood, rating: .again, elapsedDays: 3, stability: 1.0555610912864883, difficulty: 6.796932579932991),
        Reference(name: "good the same day after again", before: FSRS.Memory(stability: 0.40255, difficulty: 7.1949), rating: .good,
                  elapsedDays: 0.01, stability: 0.5666983024925972, difficulty: 7.176636167311107),
    ]

    @Test(arguments: references)
    func fsrsMatchesThePublishedFormulas(reference: Reference) {
        let next = FSRS.next(reference.before, rating: reference.rating, elapsedDays: reference.elapsedDays)
        #expect(abs(next.stability - reference.stability) < 1e-9, "\(next.stability)")
        #expect(abs(next.difficulty - reference.difficulty) < 1e-9, "\(next.difficulty)")
    }

    @Test(arguments: [(0.9, 10.0), (0.8, 23.980263157894733), (0.95, 4.6056276425134905)])
    func intervalsFollowTheTargetRetention(retention: Double, days: Double) {
        #expect(abs(FSRS.interval(stability: 10, retention: retention) - days) < 1e-9)
        #expect(abs(FSRS.retrievability(days: days, stability: 10) - retention) < 1e-9)
        #expect(abs(FSRS.factor - 19.0 / 81.0) < 1e-12)
    }

    @Test func aCardFollowsFSRSAndAMissComesBackInTenMinutes() {
        var progress = QuizProgress()
        let question = bank.questions[0]
        progress.record(.correct, for: question, at: start)
        var card = progress.card(for: question)
        #expect(card.memory == Self.firstGood)
        #expect(card.due == start.addingTimeInterval(3 * Scheduler.day))    // S = 3.173 days, rounded
        progress.record(.wrong, for: question, at: start.addingTimeInterval(3 * Scheduler.day))
        card = progress.card(for: question)
        #expect(card.due == start.addingTimeInterval(3 * Scheduler.day + Scheduler.relearnDelay))
        #expect(card.isMissed && card.lapses == 1 && card.reviews == 2)
        #expect(card.history.count == 2)
    }

    @Test(arguments: [Grade.hesitated, .hinted])
    func hesitatingGrowsMoreSlowlyThanKnowing(grade: Grade) {
        var known = QuizProgress()
        var hesitant = QuizProgress()
        let question = bank.questions[0]
        for day in [0.0, 3, 12] {
            known.record(.correct, for: question, at: start.addingTimeInterval(day * Scheduler.day))
            hesitant.record(day == 0 ? .correct : grade, for: question, at: start.addingTimeInterval(day * Scheduler.day))
        }
        let a = known.card(for: question)
        let b = hesitant.card(for: question)
        #expect((b.memory?.stability ?? 0) < (a.memory?.stability ?? 0))
        #expect((b.memory?.difficulty ?? 0) > (a.memory?.difficulty ?? 0))
        #expect((b.due ?? .distantFuture) < (a.due ?? .distantPast))
    }

    @Test func aHigherTargetRetentionBringsCardsBackSooner() {
        var relaxed = QuizProgress(targetRetention: 0.8)
        var strict = QuizProgress(targetRetention: 0.97)
        let question = bank.questions[0]
        for day in [0.0, 3] {
            relaxed.record(.correct, for: question, at: start.addingTimeInterval(day * Scheduler.day))
            strict.record(.correct, for: question, at: start.addingTimeInterval(day * Scheduler.day))
        }
        #expect((strict.card(for: question).due ?? .distantFuture) < (relaxed.card(for: question).due ?? .distantPast))
        // Changing the setting reschedules from the same answers.
        var changed = relaxed
        changed.targetRetention = 0.97
        #expect(changed.rebuilt().card(for: question).due == strict.card(for: question).due)
    }

    @Test func aSkippedCardIsDueNowAndCounted() {
        var progress = QuizProgress()
        let questions = bank.questions
        progress.record(.skipped, for: questions[0], at: start)
        progress.record(.correct, for: questions[1], at: start)
        progress.record(.skipped, for: questions[1], at: start.addingTimeInterval(60))   // a learnt card skipped
        let card = progress.card(for: questions[0])
        #expect(!card.isNew && card.memory == nil && card.due == start)
        #expect(progress.card(for: questions[1]).due == start.addingTimeInterval(60))
        let later = start.addingTimeInterval(120)
        let review = Scheduler.select(from: questions, progress: progress, now: later, count: 10, seed: 1, mode: .review)
        #expect(Set(review.map(\.id)) == [questions[0].id, questions[1].id])
        let counts = Scheduler.counts(questions, progress: progress, now: later)
        #expect(counts.due == 2 && counts.new == questions.count - 2)
    }

    @Test func theSameSeedGivesTheSameSession() {
        let one = Scheduler.select(from: bank.questions, progress: QuizProgress(), now: start, count: 10, seed: 7, mode: .learn)
        let two = Scheduler.select(from: bank.questions, progress: QuizProgress(), now: start, count: 10, seed: 7, mode: .learn)
        let other = Scheduler.select(from: bank.questions, progress: QuizProgress(), now: start, count: 10, seed: 8, mode: .learn)
        #expect(one.map(\.id) == two.map(\.id))
        #expect(one.count == 10)
        #expect(one.map(\.id) != other.map(\.id))
    }

    @Test func newQuestionsAreSpreadOverRules() {
        let session = Scheduler.select(from: bank.questions, progress: QuizProgress(), now: start, count: 6, seed: 3, mode: .learn)
        #expect(Set(session.map(\.rule)).count == 6)
    }

    @Test func dueQuestionsAreMixedWithNewOnes() {
        var progress = QuizProgress()
        let seen = Array(bank.questions.prefix(4))
        for question in seen { progress.record(.correct, for: question, at: start) }
        let later = start.addingTimeInterval(4 * Scheduler.day)    // due after 3 days (S = 3.173)
        let session = Scheduler.select(from: bank.questions, progress: progress, now: later, count: 6, seed: 1, mode: .learn)
        let seenIDs = Set(seen.map(\.id))
        #expect(session.prefix(2).contains { seenIDs.contains($0.id) })
        #expect(session.prefix(2).contains { !seenIDs.contains($0.id) })
        #expect(session.filter { seenIDs.contains($0.id) }.count == 4)
    }

    @Test func reviewAsksOnlyDueAndMissed() {
        var progress = QuizProgress()
        let questions = bank.questions
        progress.record(.wrong, for: questions[0], at: start)        // missed, due in 10 min
        progress.record(.correct, for: questions[1], at: start)      // due tomorrow
        progress.record(.correct, for: questions[2], at: start.addingTimeInterval(-3 * Scheduler.day)) // overdue
        let session = Scheduler.select(from: questions, progress: progress, now: start.addingTimeInterval(60),
                                       count: 10, seed: 1, mode: .review)
        #expect(Set(session.map(\.id)) == [questions[0].id, questions[2].id])
        // Nothing new, nothing not yet due.
        #expect(!session.contains { $0.id == questions[1].id })
    }

    @Test func aRewordedRuleResetsItsCardButKeepsHistory() throws {
        var progress = QuizProgress()
        let question = try #require(bank.questions.first)
        progress.record(.correct, for: question, at: start)
        progress.record(.correct, for: question, at: start)
        var reworded = question
        reworded.contentVersion = "another wording"
        let card = progress.card(for: reworded)
        #expect(card.isNew)
        #expect(card.reviews == 0 && card.memory == nil)
        #expect(card.history.count == 2)
        progress.record(.wrong, for: reworded, at: start)
        #expect(progress.cards[question.id]?.contentVersion == "another wording")
        #expect(progress.cards[question.id]?.history.count == 3)
    }
}

@Suite struct NewQuestionOrderTests {
    @Test func aRulesOwnStatementComesAfterItsOtherQuestions() {
        let bank = QuestionBank(corpus: Fixtures.corpus, outcomes: Fixtures.standInEngine)
        let rulesWithOthers = Set(bank.questions.filter { !($0.kind == .trueFalse && $0.correct == 0) }.map(\.rule))
        let session = Scheduler.select(from: bank.questions, progress: QuizProgress(), now: .now, count: 6, seed: 4, mode: .learn)
        for question in session where rulesWithOthers.contains(question.rule) {
            #expect(!(question.kind == .trueFalse && question.correct == 0), "\(question.prompt)")
        }
    }
}
