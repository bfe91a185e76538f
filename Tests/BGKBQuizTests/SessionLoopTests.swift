import BGKBModel
import BGKBQuiz
import Foundation
import Testing

/// The learning loop of a session: misses coming back, knew it or hesitated, the start line,
/// unfinished input and paging.
@Suite struct SessionLoopTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    let bank = QuestionBank(corpus: Fixtures.corpus, outcomes: Fixtures.standInEngine)

    func session(_ count: Int, askConfidence: Bool = false, startLine: String? = nil, pageHeight: Int? = nil) -> QuizSession {
        let questions = Scheduler.select(from: bank.questions, progress: QuizProgress(), now: now, count: count, seed: 5, mode: .learn)
        return QuizSession(questions: questions, style: TextStyle(width: 80, colour: false),
                           settings: .init(seed: 5, askConfidence: askConfidence, startLine: startLine, pageHeight: pageHeight),
                           clock: { [now] in now }, persist: { $0 })
    }

    func answer(_ question: Question, right: Bool) -> String {
        let shown = question.shuffled(seed: 5)
        return AnswerParser.letter(right ? shown.correct : (shown.correct + 1) % shown.choices.count)
    }

    @Test func aMissComesBackAfterThreeOtherQuestions() {
        let quiz = session(6)
        let qs = quiz.questions
        var script = [answer(qs[0], right: false)]
        script += qs[1...3].map { answer($0, right: true) }
        script += [answer(qs[0], right: true)]
        script += qs[4...5].map { answer($0, right: true) }
        var terminal = ScriptedTerminal(script)
        var progress = QuizProgress()
        let result = quiz.run(terminal: &terminal, progress: &progress)
        #expect(result.ending == .finished)
        #expect(result.asked == 6 && result.correct == 5 && result.retried == 1 && result.retriedRight == 1)
        #expect(terminal.output.contains("5/7  ") && terminal.output.contains("again (missed earlier)"))
        // The second try is a same-day FSRS review: the card is no longer missed and is due again
        // later than a miss would be.
        let card = progress.card(for: qs[0])
        #expect(card.history.map(\.grade) == [.wrong, .correct])
        #expect((card.due ?? .distantPast) > now.addingTimeInterval(Scheduler.relearnDelay))
    }

    @Test func aQuestionMissedEveryTimeIsAskedAtMostThreeTimes() {
        let quiz = session(1)
        let wrong = answer(quiz.questions[0], right: false)
        var terminal = ScriptedTerminal([wrong, wrong, wrong, wrong])
        var progress = QuizProgress()
        let result = quiz.run(terminal: &terminal, progress: &progress)
        #expect(result.ending == .finished)
        #expect(result.retried == 2)
        #expect(progress.card(for: quiz.questions[0]).history.count == 3)
    }

    struct Confidence: Sendable, CustomTestStringConvertible {
        var typed: String
        var grade: Grade
        var testDescription: String { "\"\(typed)\" → \(grade)" }
    }

    @Test(arguments: [Confidence(typed: "", grade: .correct), Confidence(typed: "k", grade: .correct),
                      Confidence(typed: "h", grade: .hesitated), Confidence(typed: "hesitated", grade: .hesitated)])
    func afterARightAnswerTheLearnerSaysKnewItOrHesitated(confidence: Confidence) {
        let quiz = session(1, askConfidence: true)
        var terminal = ScriptedTerminal([answer(quiz.questions[0], right: true), "what?", confidence.typed])
        var progress = QuizProgress()
        _ = quiz.run(terminal: &terminal, progress: &progress)
        #expect(terminal.output.contains("Knew it? Enter = knew it, h = hesitated:"))
        #expect(terminal.output.contains("Press Enter if you knew it"), "an unclear reply is asked again")
        #expect(progress.card(for: quiz.questions[0]).history.map(\.grade) == [confidence.grade])
    }

    @Test func aHintCountsAsHesitatedWithoutAsking() {
        let quiz = session(1, askConfidence: true)
        var terminal = ScriptedTerminal(["?", answer(quiz.questions[0], right: true)])
        var progress = QuizProgress()
        _ = quiz.run(terminal: &terminal, progress: &progress)
        #expect(!terminal.output.contains("Knew it?"))
        #expect(progress.card(for: quiz.questions[0]).history.map(\.grade) == [.hinted])
    }

    @Test func theStartLineComesFirst() {
        let quiz = session(2, startLine: "12 due, 8 new; this session: 2 questions.")
        var terminal = ScriptedTerminal(["q"])
        var progress = QuizProgress()
        _ = quiz.run(terminal: &terminal, progress: &progress)
        #expect(terminal.output.hasPrefix("12 due, 8 new; this session: 2 questions.\n"))
    }

    /// `b` then Ctrl-D: the session ends without taking `b` as an answer, and says so.
    @Test func unfinishedInputIsNotAnAnswer() {
        let quiz = session(2)
        var terminal = ScriptedTerminal([])
        terminal.input = [.unfinished(Array(answer(quiz.questions[0], right: true).utf8)), .end]
        var progress = QuizProgress()
        let result = quiz.run(terminal: &terminal, progress: &progress)
        #expect(result.ending == .endOfInput && result.asked == 0)
        #expect(progress.cards.isEmpty)
        #expect(terminal.output.contains("was not taken as an answer"))
    }

    @Test(arguments: [10, 14, 24])
    func aQuestionTallerThanTheTerminalIsPaged(height: Int) throws {
        var tall = try #require(bank.questions.first { $0.listing != nil })
        tall.listing = (1...40).map { "line \($0) of the listing" }.joined(separator: "\n")
        let quiz = QuizSession(questions: [tall], style: TextStyle(width: 80), settings: .init(seed: 5, pageHeight: height),
                               clock: { [now] in now }, persist: { $0 })
        var terminal = ScriptedTerminal(Array(repeating: "", count: 10) + ["s"])
        var progress = QuizProgress()
        _ = quiz.run(terminal: &terminal, progress: &progress)
        let pages = terminal.output.components(separatedBy: "-- more (")
        #expect(pages.count > 2)
        // Each page, with its prompt line, fits the terminal.
        for page in pages.dropFirst().dropLast() {
            #expect(page.components(separatedBy: "\n").count - 1 <= height - 1, "\(page)")
        }
        #expect(terminal.output.contains("line 40 of the listing"))
        #expect(progress.card(for: tall).history.map(\.grade) == [.skipped])
    }

    @Test func qAtThePagerQuits() throws {
        var tall = try #require(bank.questions.first { $0.listing != nil })
        tall.listing = (1...40).map { "line \($0)" }.joined(separator: "\n")
        let quiz = QuizSession(questions: [tall], style: TextStyle(width: 80), settings: .init(seed: 5, pageHeight: 12),
                               clock: { [now] in now }, persist: { $0 })
        var terminal = ScriptedTerminal(["q"])
        var progress = QuizProgress()
        #expect(quiz.run(terminal: &terminal, progress: &progress).ending == .quit)
        #expect(!terminal.output.contains("line 40"))
    }
}
