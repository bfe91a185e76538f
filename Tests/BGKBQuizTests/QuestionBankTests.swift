@testable import BGKBQuestions
import BGKBModel
import BGKBQuiz
import Foundation
import Testing

@Suite struct QuestionBankTests {
    let bank = QuestionBank(corpus: Fixtures.corpus, outcomes: Fixtures.standInEngine)

    @Test func theFixtureBankIsValid() {
        #expect(bank.isValid, "\(bank.diagnostics.all.map(\.description))")
    }

    @Test(arguments: Fixtures.corpus.rules.map(\.id))
    func everyRuleYieldsAQuestion(rule: String) {
        #expect(bank.questions.contains { $0.rule == rule })
    }

    @Test func everyKindIsGenerated() {
        let kinds = Set(bank.questions.map(\.kind))
        #expect(kinds == Set(Question.Kind.allCases))
    }

    @Test func everyQuestionHasTwoToFiveDistinctChoicesAndOneAnswer() {
        for question in bank.questions {
            #expect(QuestionBank.choiceRange.contains(question.choices.count), "\(question.prompt)")
            #expect(question.choices.indices.contains(question.correct))
            #expect(Set(question.choices.map { $0.lowercased() }).count == question.choices.count, "\(question.choices)")
        }
    }

    /// Every outcome answer is what the outcome source says for that scenario and condition.
    @Test func everyOutcomeAnswerAgreesWithTheEngine() throws {
        let outcomeQuestions = bank.questions.filter { $0.kind == .outcome }
        #expect(outcomeQuestions.count >= 3)
        for question in outcomeQuestions {
            let rule = try #require(Fixtures.corpus.rule(question.rule))
            let example = try #require(rule.examples.first { quizListing($0.text) == question.listing })
            let conditions = ([RunConditions.asWritten] + RunConditions.variations)
                .first { $0.prompt(listing: quizListing(example.text)) == question.prompt }
            let ran = try #require(conditions.flatMap { Fixtures.standInEngine(example, $0) })
            #expect(question.correctChoice == ran.quizChoiceText, "\(question.prompt)")
            // Every distractor is some outcome of some run, not an invented one.
            let possible = Set(Fixtures.corpus.examples.flatMap { ex in
                ([RunConditions.asWritten] + RunConditions.variations).compactMap { Fixtures.standInEngine(ex, $0)?.quizChoiceText }
            })
            for choice in question.choices { #expect(possible.contains(choice)) }
        }
    }

    /// A run the simulator stopped at its own limit (`undecided`) says nothing about the app: it
    /// is never an answer, never a distractor, and a condition whose run is undecided is not asked.
    @Test(arguments: [RunConditions.asWritten, RunConditions(budget: 1), RunConditions(beginRefused: true)])
    func anUndecidedRunIsNeverAskedAbout(undecidedUnder: RunConditions) throws {
        let undecided = SimulationOutcome.undecided(limit: .stepsWithoutTimePassing(steps: 500_000), at: 1)
        let source: OutcomeSource = { example, conditions in
            conditions == undecidedUnder ? undecided : Fixtures.standInEngine(example, conditions)
        }
        let bank = QuestionBank(corpus: Fixtures.corpus, outcomes: source)
        #expect(bank.isValid, "\(bank.diagnostics.all.map(\.description))")
        let outcomeQuestions = bank.questions.filter { $0.kind == .outcome }
        for question in bank.questions {
            #expect(!question.choices.contains(undecided.quizChoiceText), "\(question.prompt)")
            #expect(!question.choices.contains { $0.lowercased().contains("undecided") || $0.contains("simulator") }, "\(question.choices)")
        }
        for question in outcomeQuestions {
            let listing = try #require(question.listing)
            #expect(question.prompt != undecidedUnder.prompt(listing: listing), "\(question.prompt)")
        }
        // The other conditions are still asked about.
        let withoutUndecided = QuestionBank(corpus: Fixtures.corpus, outcomes: Fixtures.standInEngine).questions.filter { $0.kind == .outcome }
        let asked = withoutUndecided.filter { question in
            question.listing.map { question.prompt != undecidedUnder.prompt(listing: $0) } ?? true
        }
        #expect(!asked.isEmpty)
    }

    @Test func withoutAnEngineThereAreNoOutcomeQuestionsButEveryRuleIsCovered() {
        let plain = QuestionBank(corpus: Fixtures.corpus, outcomes: nil)
        #expect(plain.isValid, "\(plain.diagnostics.all.map(\.description))")
        #expect(!plain.questions.contains { $0.kind == .outcome })
    }

    @Test func aDisputedClaimIsFalseAndCitesItsCounterSource() throws {
        let claim = try #require(bank.questions.first { $0.rule == "push-is-not-indefinite" && $0.kind == .trueFalse })
        #expect(claim.prompt.contains("indefinitely"))
        #expect(claim.correctChoice == "False")
        #expect(claim.explanation.contains("Pushing background updates to your app"))
    }

    @Test func aRemovedPointIsAskedAsNoLongerSaid() throws {
        let removed = bank.questions.filter { $0.rule == "read-the-system-log" }
        #expect(removed.contains { $0.kind == .trueFalse && $0.correctChoice == "False" })
        #expect(!removed.contains { $0.kind == .recall })
    }

    @Test func numbersAreAskedWithUnitAndFirmness() throws {
        let question = try #require(bank.questions.first { $0.kind == .recall && $0.prompt.contains("background task budget") })
        #expect(question.correctChoice == "about 30 s, not guaranteed")
        // The same value said firmly is among the wrong answers: firmness is part of the fact.
        #expect(question.choices.contains { $0.contains("30 s") && $0 != question.correctChoice })
    }

    @Test func crashCodesAndAPIsAreBlankedInThePrompt() throws {
        let code = try #require(bank.questions.first { $0.kind == .recall && $0.correctChoice == "0x8badf00d" })
        #expect(!code.prompt.contains("0x8badf00d"))
        let api = try #require(bank.questions.first { $0.kind == .recall && $0.correctChoice == "endBackgroundTask" })
        #expect(api.prompt.contains("____"))
        #expect(!api.prompt.contains("endBackgroundTask"))
    }

    @Test func historyAsksWhenAndWhat() throws {
        let history = bank.questions.filter { $0.rule == "wrap-the-task" && $0.kind == .history }
        #expect(history.contains { $0.correctChoice == "2023-06-16" })
        #expect(history.contains { $0.correctChoice == Fixtures.entryReworded.text })
    }

    @Test func aDisputedRevisionDateIsNotAskedAsWhen() throws {
        var corpus = Fixtures.corpus
        corpus.conflicts = [Conflict(id: "date", subject: "Date of the wrapping entry", claims: [
            Conflict.Claim(value: "2023-06-16", citation: Citation(source: "bgtn-2023", version: "2023-06-16"), location: Fixtures.at(90)),
            Conflict.Claim(value: "16 Jun 2022", citation: Citation(source: "bgtn-2021", version: "2021-02-27"), location: Fixtures.at(95)),
        ])]
        let history = QuestionBank(corpus: corpus, outcomes: nil).questions.filter { $0.rule == "wrap-the-task" && $0.kind == .history }
        #expect(!history.contains { $0.prompt.contains("when was") })
        let what = try #require(history.first)
        #expect(what.explanation.contains("The date is disputed"))
        #expect(what.explanation.contains("16 Jun 2022"))
    }

    @Test func spotTheDefectAnswersWithTheBrokenRule() throws {
        let defect = try #require(bank.questions.first { $0.kind == .defect })
        #expect(defect.rule == "end-every-task")
        #expect(defect.correctChoice == Fixtures.endEveryTask.statement)
        // Distractors come from rules with no shared topic, so they cannot also be right.
        #expect(!defect.choices.contains(Fixtures.reworded.statement))
    }

    @Test func identityIsStableAndVersionFollowsTheWording() throws {
        let again = QuestionBank(corpus: Fixtures.corpus, outcomes: Fixtures.standInEngine)
        #expect(again.questions == bank.questions)
        var corpus = Fixtures.corpus
        corpus.rules[0] = corpus.rules[0].with { $0.statement = "An app gets about 30 seconds in the background; the figure is not promised." }
        let reworded = QuestionBank(corpus: corpus, outcomes: Fixtures.standInEngine)
        let before = try #require(bank.questions.first { $0.rule == corpus.rules[0].id && $0.kind == .trueFalse })
        let after = try #require(reworded.questions.first { $0.id == before.id })
        #expect(after.contentVersion != before.contentVersion)
        #expect(Set(reworded.questions.map(\.id)) == Set(bank.questions.map(\.id)))
    }

    @Test func allQuestionIDsAreUnique() {
        #expect(Set(bank.questions.map(\.id)).count == bank.questions.count)
    }

    struct Broken: CustomTestStringConvertible, Sendable {
        var name: String
        var choices: [String]
        var correct: Int
        var expected: String
        var testDescription: String { name }
    }

    @Test(arguments: [
        Broken(name: "one choice", choices: ["A"], correct: 0, expected: "quiz-choice-count"),
        Broken(name: "six choices", choices: ["A", "B", "C", "D", "E", "F"], correct: 0, expected: "quiz-choice-count"),
        Broken(name: "answer out of range", choices: ["A", "B"], correct: 2, expected: "quiz-no-correct-choice"),
        Broken(name: "two correct", choices: ["about 30 s", "About  30 s", "5 s"], correct: 0, expected: "quiz-duplicate-choice"),
        Broken(name: "empty choice", choices: ["A", " "], correct: 0, expected: "quiz-empty-choice"),
    ])
    func anInvalidQuestionIsAnErrorNamingIt(broken: Broken) {
        let question = Question(id: "q1", contentVersion: "v1", kind: .recall, rule: "budget-is-not-a-promise",
                                topics: [], prompt: "Broken on purpose", choices: broken.choices, correct: broken.correct,
                                hint: "", explanation: "")
        let checked = QuestionBank(questions: [question], corpus: Fixtures.corpus)
        #expect(!checked.isValid)
        let error = checked.diagnostics.errors.first { $0.id == broken.expected }
        #expect(error?.message.contains("q1") == true)
        #expect(error?.notes.contains("prompt: Broken on purpose") == true)
        #expect(checked.questions.isEmpty)
        // And the other rules are reported as uncovered.
        #expect(checked.diagnostics.errors.contains { $0.id == "quiz-rule-without-question" })
    }
}

/// Start-up work a large corpus pays for, done faster without changing what comes out.
@Suite struct QuestionStartUpTests {
    /// The bank's questions are generated rule by rule on every core: the result must be the
    /// serial pass over the rules, question for question, in corpus order.
    @Test func questionsOnEveryCoreAreTheSerialPass() throws {
        let corpus = try EmbeddedContentTests.loadContent().corpus
        let generator = QuestionGenerator(corpus: corpus, outcomes: QuizOutcomes.engine)
        let serial = corpus.rules.flatMap { generator.questions(for: $0) }
        #expect(!serial.isEmpty)
        #expect(generator.questions() == BankBalance.balanced(serial))
    }

    /// The outcome cache hashes an example by its place and the length of its text only; two
    /// examples alike in both but different in text must still get their own outcomes, and the
    /// same example asked twice must not run twice.
    @Test func theOutcomeCacheTellsExamplesApartThatHashAlike() {
        let place = SourceLocation(path: "Content/a.md", line: 3, column: 1)
        let first = Example(rule: "r", name: nil, intent: .follows, text: "aaaa", location: place)
        let second = Example(rule: "r", name: nil, intent: .follows, text: "bbbb", location: place)
        let runs = Counter()
        let cached = OutcomeCache.memoizing { example, _ in
            runs.increment()
            return example.text == "aaaa" ? .suspended(at: 1) : .stillRunning(at: 2)
        }
        #expect(cached(first, .asWritten) == .suspended(at: 1))
        #expect(cached(second, .asWritten) == .stillRunning(at: 2))
        #expect(cached(first, .asWritten) == .suspended(at: 1))
        #expect(cached(second, RunConditions(budget: 0)) == .stillRunning(at: 2))
        #expect(runs.value == 3)
    }

    /// The outcome table runs each example once under each condition and answers only for the
    /// examples it holds: one at the same place with other text is not one of them.
    @Test func theOutcomeTableAnswersForItsOwnExamplesOnly() {
        let place = SourceLocation(path: "Content/a.md", line: 3, column: 1)
        let examples = (0..<40).map { index in
            Example(rule: "r\(index)", name: nil, intent: .follows, text: String(repeating: "x", count: index),
                    location: SourceLocation(path: "Content/a.md", line: 3 + index, column: 1))
        }
        let stranger = Example(rule: "r0", name: nil, intent: .follows, text: "other", location: place)
        let runs = Counter()
        let table = OutcomeTable(examples: examples) { example, conditions in
            runs.increment()
            return example.text.count % 3 == 0 ? nil : .suspended(at: Double(example.text.count) + (conditions.budget ?? -1))
        }
        #expect(runs.value == examples.count * RunConditions.all.count)
        for example in examples {
            for conditions in RunConditions.all {
                let expected: SimulationOutcome? = example.text.count % 3 == 0 ? nil : .suspended(at: Double(example.text.count) + (conditions.budget ?? -1))
                #expect(table.outcome(example, conditions) == .some(expected))
            }
        }
        #expect(table.outcome(stranger, .asWritten) == nil)
        #expect(runs.value == examples.count * RunConditions.all.count)
    }

    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        func increment() { lock.lock(); count += 1; lock.unlock() }
        var value: Int { lock.lock(); defer { lock.unlock() }; return count }
    }
}
