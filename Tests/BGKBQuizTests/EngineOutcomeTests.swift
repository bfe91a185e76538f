import BGKBEngine
import BGKBModel
import BGKBQuiz
import ScenarioSamples
import Testing

/// Outcome questions over the engine's own reference scenarios (the sources' cases), run by the
/// real engine: every answer is what the engine computes, every distractor is an outcome the
/// engine produced for some run, and the bank stays valid.
@Suite struct EngineOutcomeTests {
    static let engine = QuizOutcomes.engine

    /// One rule per sample, grouped in two topics so defect questions have unrelated rules.
    static let corpus: Corpus = {
        let rules = ScenarioSamples.all.enumerated().map { index, sample in
            var example = sample.example
            example.rule = "rule-\(sample.name)"
            return Rule(id: "rule-\(sample.name)", title: sample.name, statement: "Statement \(index) about \(sample.name).",
                        kind: .must, topics: [index % 2 == 0 ? "even" : "odd"], examples: [example],
                        document: "samples", location: example.location)
        }
        return Corpus(topics: [Topic(id: "even", title: "Even", summary: ""), Topic(id: "odd", title: "Odd", summary: "")],
                      rules: rules)
    }()

    @Test func theEngineIsWiredIn() {
        #expect(Self.engine != nil)
    }

    @Test func everyOutcomeAnswerAgreesWithTheEngine() throws {
        let engine = try #require(Self.engine)
        let bank = QuestionBank(corpus: Self.corpus, outcomes: engine)
        #expect(bank.isValid, "\(bank.diagnostics.errors.prefix(3).map(\.description))")
        let outcomeQuestions = bank.questions.filter { $0.kind == .outcome }
        // Balancing drops some of the commonest answers; most scenarios are still asked.
        #expect(outcomeQuestions.count * 2 >= ScenarioSamples.all.count)
        let allConditions = [RunConditions.asWritten] + RunConditions.variations
        let possible = Set(Self.corpus.examples.flatMap { example in
            allConditions.compactMap { engine(example, $0)?.quizChoiceText }
        })
        for question in outcomeQuestions {
            let rule = try #require(Self.corpus.rule(question.rule))
            let example = try #require(rule.examples.first { quizListing($0.text) == question.listing })
            let conditions = try #require(allConditions.first { $0.prompt(listing: quizListing(example.text)) == question.prompt })
            #expect(question.correctChoice == engine(example, conditions)?.quizChoiceText, "\(question.prompt)")
            for choice in question.choices { #expect(possible.contains(choice), "\(choice)") }
        }
    }

    @Test func listingsDoNotGiveTheAnswerAway() {
        let bank = QuestionBank(corpus: Self.corpus, outcomes: Self.engine)
        for question in bank.questions {
            guard let listing = question.listing else { continue }
            #expect(!listing.contains("expect "), "\(question.prompt)")
            // Another scenario's task names would mark a distractor as foreign.
            for choice in question.choices { #expect(!choice.contains("\""), "\(choice)") }
        }
    }

    /// Above 16 examples the engine runs on all cores first; the bank must not depend on that.
    @Test func warmingOnAllCoresGivesTheSameBank() throws {
        let engine = try #require(Self.engine)
        var corpus = Self.corpus
        corpus.rules += Self.corpus.rules.map { rule in
            rule.with { copy in
                copy.id += "-copy"
                copy.examples = rule.examples.map { var e = $0; e.rule = copy.id; e.location.line += 1000; return e }
            }
        }
        #expect(corpus.examples.count >= 16)
        let first = QuestionBank(corpus: corpus, outcomes: engine).questions
        let second = QuestionBank(corpus: corpus, outcomes: engine).questions
        #expect(first == second)
        #expect(first.filter { $0.kind == .outcome }.count * 3 >= corpus.examples.count)
    }

    @Test func breakingSamplesYieldSpotTheDefect() {
        let bank = QuestionBank(corpus: Self.corpus, outcomes: Self.engine)
        let breaking = ScenarioSamples.all.filter { $0.intent == .breaks }.map { "rule-\($0.name)" }
        for rule in breaking {
            #expect(bank.questions.contains { $0.rule == rule && $0.kind == .defect }, "\(rule)")
        }
    }
}
