import BGKBModel
import BGKBQuiz
import Foundation
import Testing

@Suite struct SchedulerTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)
    let bank = QuestionBank(corpus: Fixtures.corpus, outcomes: Fixtures.standInEngine)

    @Test func successesStretchTheIntervalAndAMissResetsIt() {
        var card = Card(contentVersion: "v", rule: "r")
        card = Scheduler.review(card, grade: .correct, at: start)
        #expect(card.interval == 1)
        card = Scheduler.review(card, grade: .correct, at: start)
        #expect(card.interval == 6)
        card = Scheduler.review(card, grade: .correct, at: start)
        #expect(card.interval > 6)
        let easeBefore = card.ease
        card = Scheduler.review(card, grade: .wrong, at: start)
        #expect(card.interval == 0 && card.repetitions == 0 && card.lapses == 1)
        #expect(card.ease < easeBefore)
        #expect(card.due == start.addingTimeInterval(Scheduler.relearnDelay))
        #expect(card.isMissed)
        #expect(card.history.count == 4)
    }

    @Test func aHintedAnswerGrowsMoreSlowlyThanAPlainOne() {
        let plain = Scheduler.review(Card(contentVersion: "v", rule: "r"), grade: .correct, at: start)
        let hinted = Scheduler.review(Card(contentVersion: "v", rule: "r"), grade: .hinted, at: start)
        #expect(hinted.ease < plain.ease)
    }

    @Test func easeNeverFallsBelowTheFloor() {
        var card = Card(contentVersion: "v", rule: "r")
        for _ in 0..<20 { card = Scheduler.review(card, grade: .wrong, at: start) }
        #expect(card.ease == Scheduler.minimumEase)
    }

    @Test func aSkipIsRecordedButSchedulesNothing() {
        let card = Scheduler.review(Card(contentVersion: "v", rule: "r"), grade: .skipped, at: start)
        #expect(card.isNew)
        #expect(card.history.map(\.grade) == [.skipped])
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
        let later = start.addingTimeInterval(2 * Scheduler.day)
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
        #expect(card.repetitions == 0)
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
