import BGKBContent
import Foundation
import BGKBModel
import BGKBQuiz
import Testing

/// The bank built from the real Content: valid, and every rule asked.
@Suite struct RealContentTests {
    static let corpus = (try? EmbeddedContentTests.loadContent().corpus) ?? Corpus()
    static let bank = QuestionBank(corpus: corpus, outcomes: QuizOutcomes.engine)

    @Test func theBankIsValid() {
        #expect(!Self.corpus.rules.isEmpty)
        #expect(Self.bank.isValid, "\(Self.bank.diagnostics.errors.prefix(5).map(\.description))")
    }

    @Test func everyRuleYieldsAtLeastOneQuestion() {
        let covered = Set(Self.bank.questions.map(\.rule))
        let missing = Self.corpus.rules.map(\.id).filter { !covered.contains($0) }
        #expect(missing.isEmpty, "rules without a question: \(missing)")
    }

    /// The page each answer points to is a real page of the committed site.
    @Test func everySitePageExists() throws {
        let site = EmbeddedContentTests.packageDirectory + "/Site"
        guard FileManager.default.fileExists(atPath: site + "/rules") else { return }
        for page in Set(Self.bank.questions.map(\.sitePage)) {
            #expect(FileManager.default.fileExists(atPath: EmbeddedContentTests.packageDirectory + "/" + page), "\(page)")
        }
    }

    @Test func everyKindAppears() {
        // Outcome and defect questions come from examples; Content has had them since the engine landed.
        let kinds = Set(Self.bank.questions.map(\.kind))
        if Self.corpus.examples.isEmpty {
            #expect(kinds.isSuperset(of: [.recall, .trueFalse, .history]))
        } else {
            #expect(kinds == Set(Question.Kind.allCases))
        }
    }

    @Test func everyDisputedClaimIsAskedAsFalseWithItsCounterSources() {
        for rule in Self.corpus.disputes {
            let question = Self.bank.questions.first { $0.rule == rule.id && $0.kind == .trueFalse && $0.correctChoice == "False" }
            #expect(question != nil, "\(rule.id)")
            if let dispute = rule.dispute, let question, let first = dispute.counterSources.first,
               let title = Self.corpus.source(first.source)?.title {
                #expect(question.explanation.contains(title), "\(rule.id)")
            }
        }
    }

    @Test func everyOutcomeAnswerAgreesWithTheEngine() throws {
        guard let engine = QuizOutcomes.engine else { return }
        for question in Self.bank.questions where question.kind == .outcome {
            let rule = try #require(Self.corpus.rule(question.rule))
            let example = try #require(rule.examples.first { quizListing($0.text) == question.listing })
            let conditions = try #require(([RunConditions.asWritten] + RunConditions.variations)
                .first { $0.prompt(listing: quizListing(example.text)) == question.prompt })
            #expect(question.correctChoice == engine(example, conditions)?.quizChoiceText, "\(question.prompt)")
        }
    }
}
