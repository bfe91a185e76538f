import BGKBModel
import BGKBQuiz
import Foundation
import Testing

/// A terminal driven by a script of input lines; everything written is kept.
struct ScriptedTerminal: QuizTerminal {
    var input: [InputLine]
    var output = ""
    mutating func write(_ text: String) { output += text }
    /// Like a terminal in cooked mode, the typed line and its Enter show up in the output.
    mutating func readLine() -> InputLine {
        let line = input.isEmpty ? .end : input.removeFirst()
        if case let .line(bytes) = line { output += String(decoding: bytes, as: UTF8.self) + "\n" }
        return line
    }

    init(_ lines: [String], then last: InputLine = .end) {
        input = lines.map { .line(Array($0.utf8)) } + [last]
    }
}

@Suite struct SessionTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    let bank = QuestionBank(corpus: Fixtures.corpus, outcomes: Fixtures.standInEngine)
    let titles = Dictionary(uniqueKeysWithValues: Fixtures.corpus.topics.map { ($0.id, $0.title) })

    func session(_ count: Int, seed: UInt64 = 5, passMark: Int? = nil, saves: SaveLog = SaveLog()) -> QuizSession {
        let questions = Scheduler.select(from: bank.questions, progress: QuizProgress(), now: now, count: count, seed: seed, mode: .learn)
        return QuizSession(questions: questions, style: TextStyle(width: 80, colour: false),
                           settings: .init(seed: seed, passMark: passMark, topicTitles: titles, siteURL: "file:///srv/bgkb/Site"),
                           clock: { [now] in now }, persist: { try saves.record($0) })
    }

    struct SaveFailure: Error, CustomStringConvertible {
        var description: String
    }

    final class SaveLog: @unchecked Sendable {
        var saved: [QuizProgress] = []
        var failWith: String?
        func record(_ progress: QuizProgress) throws -> QuizProgress {
            if let failWith { throw SaveFailure(description: failWith) }
            saved.append(progress)
            return progress
        }
    }

    func letter(of question: Question, seed: UInt64, right: Bool) -> String {
        let shown = question.shuffled(seed: seed)
        let index = right ? shown.correct : (shown.correct + 1) % shown.choices.count
        return AnswerParser.letter(index)
    }

    @Test func aFullSessionWithRightWrongHintAndSkip() {
        let saves = SaveLog()
        let quiz = session(4, saves: saves)
        let qs = quiz.questions
        var terminal = ScriptedTerminal([
            letter(of: qs[0], seed: 5, right: true),
            "?", letter(of: qs[1], seed: 5, right: true),
            letter(of: qs[2], seed: 5, right: false),
            "s",
            letter(of: qs[2], seed: 5, right: true),
        ])
        var progress = QuizProgress()
        let result = quiz.run(terminal: &terminal, progress: &progress)
        #expect(result.asked == 4 && result.correct == 2 && result.skipped == 1)
        #expect(result.retried == 1 && result.retriedRight == 1)
        #expect(result.ending == .finished)
        for marker in ["1/4", "2/4", "3/4", "4/5", "5/5", "again (missed earlier)", "This one comes back again after 1 other question.",
                       "Correct.", "Correct. (with the hint)", "Hint: ", "Wrong. The answer is",
                       "Skipped.", "Score: 2/4 (50%), 1 skipped.", "Missed questions asked again: 1 of 1 right the next time.",
                       "Topics to revisit:", "See file:///srv/bgkb/Site/rules/"] {
            #expect(terminal.output.contains(marker), "missing \(marker)")
        }
        #expect(progress.card(for: qs[1]).history.last?.grade == .hinted)
        #expect(progress.card(for: qs[2]).history.map(\.grade) == [.wrong, .correct])
        #expect(!progress.card(for: qs[2]).isMissed)
        #expect(progress.card(for: qs[3]).due == now, "a skipped card is due")
        // Saved after each answer and once at the end.
        #expect(saves.saved.count == 6)
        #expect(progress.sessions.count == 1)
        for line in terminal.output.split(separator: "\n") { #expect(line.count <= 80, "\(line)") }
    }

    @Test(arguments: [("https://example.org/bgkb", "  See https://example.org/bgkb/rules/"),
                      ("file:///home/a%20b/bgkb/Site/", "  See file:///home/a%20b/bgkb/Site/rules/"),
                      (nil, "  See the rule ")] as [(String?, String)])
    func theExplanationLinksTheRulesPageAsOneWholeURL(siteURL: String?, expected: String) {
        let questions = Scheduler.select(from: bank.questions, progress: QuizProgress(), now: now, count: 1, seed: 5, mode: .learn)
        // A narrow terminal: the URL is longer than the width and still printed on one line.
        let quiz = QuizSession(questions: questions, style: TextStyle(width: 40, colour: false),
                               settings: .init(seed: 5, topicTitles: titles, siteURL: siteURL),
                               clock: { [now] in now }, persist: { $0 })
        var terminal = ScriptedTerminal(["s"])
        var progress = QuizProgress()
        _ = quiz.run(terminal: &terminal, progress: &progress)
        let line = terminal.output.split(separator: "\n").first { $0.hasPrefix(expected) }
        #expect(line != nil, "\(terminal.output)")
        if siteURL != nil { #expect(line?.hasSuffix(questions[0].pageInSite) == true, "\(line ?? "")") }
    }

    @Test func badInputGetsAMessageAndTheQuestionAgain() {
        let quiz = session(1)
        let question = quiz.questions[0]
        var terminal = ScriptedTerminal(["", "zzz", "9"])
        terminal.input.insert(.line([0xff, 0xfe]), at: 3)
        terminal.input.insert(.tooLong, at: 4)
        terminal.input.insert(.line(Array(letter(of: question, seed: 5, right: true).utf8)), at: 5)
        var progress = QuizProgress()
        let result = quiz.run(terminal: &terminal, progress: &progress)
        #expect(result.correct == 1)
        #expect(terminal.output.components(separatedBy: "1/1  ").count - 1 == 6)
        #expect(terminal.output.contains("not valid UTF-8"))
        #expect(terminal.output.contains("too long"))
    }

    @Test(arguments: [InputLine.end, .interrupted])
    func endOfInputAndCtrlCEndCleanlyWithProgressSaved(ending: InputLine) {
        let saves = SaveLog()
        let quiz = session(3, saves: saves)
        var terminal = ScriptedTerminal([letter(of: quiz.questions[0], seed: 5, right: true)], then: ending)
        var progress = QuizProgress()
        let result = quiz.run(terminal: &terminal, progress: &progress)
        #expect(result.ending == (ending == .end ? .endOfInput : .interrupted))
        #expect(result.asked == 1 && result.correct == 1)
        #expect(saves.saved.last?.cards.count == 1)
        #expect(saves.saved.last?.sessions.count == 1)
        #expect(terminal.output.contains("after 1 of 3 questions"))
        #expect(terminal.output.contains("Score: 1/1 (100%); 2 not asked."), "scored on the questions asked")
    }

    /// Stopping early does not pass a mark the whole session would not: unasked questions count.
    @Test func quittingEarlyKeepsThePassMarkOverThePlannedQuestions() {
        let quiz = session(3, passMark: 50)
        var terminal = ScriptedTerminal([letter(of: quiz.questions[0], seed: 5, right: true), "q"])
        var progress = QuizProgress()
        let result = quiz.run(terminal: &terminal, progress: &progress)
        #expect(result.passed == false)
        #expect(terminal.output.contains("Score: 1/1 (100%); 2 not asked."))
        #expect(terminal.output.contains("Pass mark 50% (questions not asked count as missed): not reached."))
    }

    @Test func quittingStopsWithoutGradingTheCurrentQuestion() {
        let quiz = session(3)
        var terminal = ScriptedTerminal([letter(of: quiz.questions[0], seed: 5, right: false), "q"])
        var progress = QuizProgress()
        let result = quiz.run(terminal: &terminal, progress: &progress)
        #expect(result.ending == .quit)
        #expect(result.asked == 1)
        #expect(progress.card(for: quiz.questions[1]).isNew)
        #expect(terminal.output.contains("Stopped after 1 of 3"))
    }

    @Test(arguments: [(50, true), (51, false)])
    func passMarkIsAPercentageOfThePlannedQuestions(mark: Int, passes: Bool) {
        let quiz = session(2, passMark: mark)
        var terminal = ScriptedTerminal([letter(of: quiz.questions[0], seed: 5, right: true),
                                         letter(of: quiz.questions[1], seed: 5, right: false)])
        var progress = QuizProgress()
        #expect(quiz.run(terminal: &terminal, progress: &progress).passed == passes)
    }

    @Test func aSaveFailureStopsTheSessionAndSaysSo() {
        let saves = SaveLog()
        saves.failWith = "disk full"
        let quiz = session(2, saves: saves)
        var terminal = ScriptedTerminal(["s", "s"])
        var progress = QuizProgress()
        let result = quiz.run(terminal: &terminal, progress: &progress)
        #expect(result.ending == .saveFailed)
        #expect(result.saveError == "disk full")
        #expect(result.asked == 1, "no second question after a failed save")
        #expect(terminal.output.components(separatedBy: "progress not saved: disk full").count == 2)
        #expect(terminal.output.contains("progress could not be saved"))
    }

    @Test func colourOnlyWhenAsked() {
        var plain = session(1)
        var terminal = ScriptedTerminal(["s"])
        var progress = QuizProgress()
        _ = plain.run(terminal: &terminal, progress: &progress)
        #expect(!terminal.output.contains("\u{1B}["))
        plain.style = TextStyle(width: 80, colour: true)
        terminal = ScriptedTerminal(["s"])
        _ = plain.run(terminal: &terminal, progress: &progress)
        #expect(terminal.output.contains("\u{1B}[1m"))
    }

    @Test func theSameSeedShufflesTheSameWay() {
        for question in bank.questions {
            #expect(question.shuffled(seed: 9) == question.shuffled(seed: 9))
            let shuffled = question.shuffled(seed: 9)
            #expect(shuffled.correctChoice == question.correctChoice)
            #expect(Set(shuffled.choices) == Set(question.choices))
        }
    }

    @Test func wrappingFitsTheWidthAndCutsLongWords() {
        let style = TextStyle(width: 40)
        let lines = style.wrap("A sentence that is long enough to wrap more than once, with " + String(repeating: "x", count: 90),
                               indent: "  a) ", hanging: "     ")
        for line in lines { #expect(line.count <= 40) }
        #expect(lines.count >= 4)
        #expect(lines[1].hasPrefix("     "))
    }
}

@Suite struct ListingLayoutTests {
    @Test(arguments: [40, 63, 80])
    func longListingLinesContinueInsteadOfBeingCut(width: Int) {
        let code = "short\n" + String(repeating: "x", count: 3 * width) + "\n\tend"
        let style = TextStyle(width: width, colour: false)
        #expect(style.width == width)
        let lines = style.listing(code)
        for line in lines { #expect(line.count <= width, "\(line)") }
        // Nothing is lost: removing the indent and the continuation markers gives the code back.
        var rebuilt: [String] = []
        for line in lines {
            if line.hasPrefix("    ↳ ") { rebuilt[rebuilt.count - 1] += line.dropFirst(6) } else { rebuilt.append(String(line.dropFirst(4))) }
        }
        #expect(rebuilt == code.replacingOccurrences(of: "\t", with: "    ").components(separatedBy: "\n"))
    }
}
