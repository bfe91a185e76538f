import BGKBModel

/// The checked set of questions a session draws from. Building it validates every question
/// (2 to 5 choices, exactly one of them correct, no two alike) and that every rule yields one,
/// the way DocC refuses a catalog with broken links: a violation is an error naming the question.
public struct QuestionBank: Sendable {
    public static let choiceRange = 2...5

    /// Valid questions only, in corpus order.
    public private(set) var questions: [Question]
    /// One error per invalid question and per rule without a question.
    public private(set) var diagnostics: Diagnostics

    public init(corpus: Corpus, outcomes: OutcomeSource?) {
        let generator = QuestionGenerator(corpus: corpus, outcomes: outcomes)
        self.init(questions: generator.questions(), corpus: corpus)
    }

    /// A bank built and checked earlier (at build time, by the EmbedContent plugin).
    public init(validated questions: [Question], diagnostics: Diagnostics) {
        self.questions = questions
        self.diagnostics = diagnostics
    }

    /// Validates questions made elsewhere (tests build broken ones on purpose).
    public init(questions candidates: [Question], corpus: Corpus) {
        var diagnostics = Diagnostics()
        var valid: [Question] = []
        var seenIDs: Set<String> = []
        // A question's rule is looked up only to place a problem: searched for every question,
        // the rules were scanned once per question (quadratic: seconds at 10,000 rules).
        var locations: [String: SourceLocation]?
        func location(of rule: String) -> SourceLocation? {
            if locations == nil {
                locations = Dictionary(corpus.rules.map { ($0.id, $0.location) }, uniquingKeysWith: { first, _ in first })
            }
            return locations?[rule]
        }
        for question in candidates {
            let problems = QuestionBank.problems(in: question)
            let duplicate = !seenIDs.insert(question.id).inserted
            let location = problems.isEmpty && !duplicate ? nil : location(of: question.rule)
            for problem in problems {
                diagnostics.error(problem.id, "question \(question.id) of rule '\(question.rule)': \(problem.message)",
                                  at: location, notes: ["prompt: \(question.prompt)"])
            }
            if duplicate {
                diagnostics.error("quiz-duplicate-question", "question id \(question.id) of rule '\(question.rule)' is used twice",
                                  at: location, notes: ["prompt: \(question.prompt)"])
            }
            if problems.isEmpty && !duplicate { valid.append(question) }
        }
        let covered = Set(valid.map(\.rule))
        for rule in corpus.rules where !covered.contains(rule.id) {
            diagnostics.error("quiz-rule-without-question", "rule '\(rule.id)' yields no valid question", at: rule.location)
        }
        self.questions = valid
        self.diagnostics = diagnostics
    }

    static func problems(in question: Question) -> [(id: String, message: String)] {
        var problems: [(id: String, message: String)] = []
        if !choiceRange.contains(question.choices.count) {
            problems.append(("quiz-choice-count", "has \(question.choices.count) choices; a question needs 2 to 5"))
        }
        if !question.choices.indices.contains(question.correct) {
            problems.append(("quiz-no-correct-choice", "its correct choice \(question.correct) is not one of its choices"))
        }
        var seen: [String: Int] = [:]
        for (index, choice) in question.choices.enumerated() {
            let key = normalizedChoice(choice)
            if key.isEmpty {
                problems.append(("quiz-empty-choice", "choice \(index + 1) is empty"))
            } else if let first = seen[key] {
                // Two equal choices: if one is the answer, two choices are correct.
                problems.append(("quiz-duplicate-choice", "choices \(first + 1) and \(index + 1) read the same: \"\(choice)\""))
            } else {
                seen[key] = index
            }
        }
        if question.prompt.isEmpty { problems.append(("quiz-empty-prompt", "has no prompt")) }
        return problems
    }

    public var isValid: Bool { !diagnostics.hasErrors }

    /// Questions on a topic (by topic id).
    public func questions(topic: String?) -> [Question] {
        guard let topic else { return questions }
        return questions.filter { $0.topics.contains(topic) }
    }
}
