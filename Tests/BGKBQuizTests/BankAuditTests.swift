@testable import BGKBQuestions
import BGKBModel
import BGKBQuiz
import Testing

/// The bank read as a learner reads it (issue 34): no question contradicts itself, offers an
/// absurd choice, gives itself away, refers to what it does not show or repeats another, and no
/// answer or position pattern passes a kind of question. Over the real Content and generated
/// corpora alike.
@Suite struct BankAuditTests {
    struct Bank: CustomTestStringConvertible, Sendable {
        var name: String
        var corpus: Corpus
        var questions: [Question]
        var testDescription: String { name }
    }

    static let banks: [Bank] = {
        var banks = [Bank(name: "Content", corpus: RealContentTests.corpus, questions: RealContentTests.bank.questions)]
        for seed in GeneratedCorpus.seeds {
            let corpus = GeneratedCorpus.make(seed: seed)
            banks.append(Bank(name: "generated \(seed)", corpus: corpus,
                              questions: QuestionBank(corpus: corpus, outcomes: QuizOutcomes.engine).questions))
        }
        return banks
    }()

    @Test(arguments: banks)
    func noQuestionIsUntrustworthy(bank: Bank) {
        #expect(bank.questions.count > 20)
        let names = bank.corpus.examples.compactMap(\.name)
        let findings = BankAudit.findings(bank.questions, exampleNames: names)
        #expect(findings.isEmpty, "\(findings.count) findings, first: \(findings.prefix(12).map(\.description).joined(separator: "\n"))")
    }

    @Test(arguments: banks)
    func everyFigureAskedIsOneItsRuleStates(bank: Bank) {
        let findings = BankAudit.unsourcedFigures(bank.questions, corpus: bank.corpus)
        #expect(findings.isEmpty, "\(findings.map(\.description).joined(separator: "\n"))")
    }

    @Test(arguments: banks)
    func noAnswerOrPositionPatternPassesAKind(bank: Bank) {
        for pattern in BankAudit.patterns(bank.questions, by: { $0.kind.rawValue }) + BankAudit.patterns(bank.questions, by: \.form)
        where pattern.count >= BankBalance.smallestBalancedGroup {
            if pattern.group == Question.Kind.trueFalse.rawValue {
                let trueShare = Double(bank.questions.filter { $0.kind == .trueFalse && $0.correctChoice == "True" }.count) / Double(pattern.count)
                #expect((0.35...0.65).contains(trueShare), "\(pattern)")
                continue
            }
            #expect(pattern.topAnswerShare <= 0.4, "\(pattern)")
            if pattern.group.hasPrefix("recall/") || pattern.group.hasPrefix("history/") || pattern.group.contains("/") == false {
                #expect(pattern.topPositionShare <= 0.4 || pattern.positionSkew <= 15, "\(pattern)")
                #expect(pattern.positionSkew <= 15, "\(pattern)")
            }
        }
    }

    @Test(arguments: banks)
    func predictTheOutcomeVariesItsConditions(bank: Bank) {
        let outcome = bank.questions.filter { $0.kind == .outcome }
        #expect(outcome.count >= 5)
        for question in outcome { #expect(question.choices.count >= 3, "\(question.id) \(question.prompt)") }
        let conditions = Set(outcome.map(\.prompt))
        #expect(conditions.count >= 2, "\(conditions)")
        let answers = Set(outcome.compactMap(\.correctChoice))
        #expect(answers.count >= 3, "\(answers)")
    }

    /// The checks find what they are for: each broken question below is caught.
    @Test(arguments: [
        ("How does this scenario end, if the system refuses beginBackgroundTask (it returns .invalid)?",
         "system grants beginBackgroundTask\non applicationDidEnterBackground { taskID = beginBackgroundTask { } }", ["a", "b", "c"], "contradiction"),
        ("Which crash code goes with this? 0xbada5e47 in a crash report means too many assertions.", nil, ["0x8badf00d", "0xbada5e47", "0xdead10cc"], "contradiction"),
        ("Which API fills the gap? ____ing later is an error.", nil, ["start", "end", "register"], "giveaway"),
        ("Which API fills the gap? Call ____ when done.", nil, ["endBackgroundTask", "Any?", "register"], "choice-type"),
        ("Which API is this point about? Background work should be cheap.", nil, ["BGTask", "UIApplication", "Task"], "api-subject"),
        ("True or false? Listing 1 begins its task too late.", nil, ["True", "False"], "reference"),
        ("Which API fills the gap? The blog's ____ does not compute a duration.", nil, ["BackgroundLogger", "LegacySync", "Activity"], "api-subject"),
        ("How does this scenario end, if the system grants every request and gives the usual background time?",
         "// no expiry handler\non applicationDidEnterBackground { work 1s }", ["The app is suspended cleanly",
         "Terminated with 0x8badf00d (didReceiveRemoteNotification did not call its completion handler in time)", "Crashes: x"], "implausible"),
    ] as [(String, String?, [String], String)])
    func theChecksCatchBrokenQuestions(prompt: String, listing: String?, choices: [String], check: String) {
        let kind: Question.Kind = prompt.hasPrefix("How does") ? .outcome : prompt.hasPrefix("True") ? .trueFalse : .recall
        let question = Question(id: "broken", contentVersion: "v", kind: kind, rule: "r", topics: [], prompt: prompt,
                                listing: listing, choices: choices, correct: 0, hint: "", explanation: "")
        let findings = BankAudit.findings([question])
        #expect(findings.contains { $0.check == check }, "\(findings)")
    }

    @Test func duplicatesAreFound() {
        let question = Question(id: "a", contentVersion: "v", kind: .history, rule: "r", topics: [], prompt: "What changed?",
                                choices: ["x", "y"], correct: 0, hint: "", explanation: "")
        var other = question
        other.id = "b"
        #expect(BankAudit.findings([question, other]).contains { $0.check == "duplicate" })
    }

    @Test func aPatternAboveTheLimitIsMeasured() {
        let questions = (0..<10).map { index in
            Question(id: "\(index)", contentVersion: "v", kind: .outcome, rule: "r", topics: [], prompt: "p\(index)",
                     choices: ["same", "b\(index)", "c\(index)"], correct: 0, hint: "", explanation: "")
        }
        let pattern = BankAudit.patterns(questions, by: { $0.kind.rawValue })[0]
        #expect(pattern.topAnswerShare == 1)
        #expect(pattern.positionSkew > 15)
    }

    @Test func aFigureTheRuleDoesNotStateIsFound() {
        var corpus = Fixtures.corpus
        corpus.rules[0] = corpus.rules[0].with { $0.numbers = [StatedNumber(value: 5, unit: .seconds, firmness: .about, measures: "time an expiry handler gets")] }
        let question = Question(id: "n", contentVersion: "v", kind: .recall, rule: corpus.rules[0].id, topics: [],
                                prompt: "What does the guidance give as the time an expiry handler gets?",
                                choices: ["about 5 s, not guaranteed", "about 30 s, not guaranteed"], correct: 0, hint: "", explanation: "")
        #expect(BankAudit.unsourcedFigures([question], corpus: corpus).count == 1)
        var stated = question
        stated.choices = ["about 30 s, not guaranteed", "about 5 s, not guaranteed"]
        #expect(BankAudit.unsourcedFigures([stated], corpus: corpus).isEmpty)
    }

    /// Balancing keeps one of two alike questions, caps the commonest answer without taking a
    /// rule's last question, and spreads the answer's position.
    @Test func balancingDropsDuplicatesCapsAnswersAndSpreadsPositions() {
        func question(_ index: Int, rule: String, answer: String) -> Question {
            Question(id: "q\(index)", contentVersion: "v", kind: .outcome, rule: rule, topics: [], prompt: "p\(index)",
                     listing: "l", choices: [answer, "x\(index)", "y\(index)"], correct: 0, hint: "", explanation: "")
        }
        var questions = (0..<20).map { question($0, rule: "r\($0 % 5)", answer: $0 < 14 ? "same" : "other \($0)") }
        var copy = questions[15]
        copy.id = "copy"
        questions.append(copy)
        let balanced = BankBalance.balanced(questions)
        #expect(!balanced.contains { $0.id == "copy" })
        let same = balanced.filter { $0.correctChoice == "same" }.count
        #expect(Double(same) / Double(balanced.count) <= BankBalance.answerShareLimit)
        #expect(Set(balanced.map(\.rule)) == Set(questions.map(\.rule)))
        let pattern = BankAudit.patterns(balanced, by: { $0.kind.rawValue })[0]
        #expect(pattern.positionSkew <= 15, "\(pattern)")
        for question in balanced { #expect(question.choices.count == 3) }
    }
}
