import BGKBModel

/// One multiple-choice question, derived from one rule. Plain data: the session shows it, the
/// scheduler and the progress store know it by `id` and `contentVersion`.
public struct Question: Hashable, Sendable, Codable, Identifiable {
    public enum Kind: String, Sendable, Codable, CaseIterable {
        /// A number (with unit and firmness), a crash code or an API name.
        case recall
        /// A statement to judge; disputed claims are false and cite their counter-sources.
        case trueFalse = "true-false"
        /// How a scenario ends, as the engine computes it.
        case outcome
        /// Which rule a broken listing breaks.
        case defect
        /// What a revision changed, and when.
        case history

        public var title: String {
            switch self {
            case .recall: return "Recall"
            case .trueFalse: return "True or false"
            case .outcome: return "Predict the outcome"
            case .defect: return "Spot the defect"
            case .history: return "Revision history"
            }
        }
    }

    /// Stable across rewordings: a hash of the rule id, the kind and the slot (which number, which
    /// example). QuizProgress is keyed by it.
    public var id: String
    /// A hash of the rule's wording and this question's content. When it changes, the card is
    /// reset (the rule was reworded), but its history is kept.
    public var contentVersion: String
    public var kind: Kind
    public var rule: String
    public var topics: [String]
    public var prompt: String
    /// A scenario or code listing shown under the prompt, verbatim.
    public var listing: String?
    public var choices: [String]
    public var correct: Int
    public var hint: String
    /// Shown after the answer: why the right answer is right (the rule's statement, sources).
    public var explanation: String

    public init(id: String, contentVersion: String, kind: Kind, rule: String, topics: [String], prompt: String,
                listing: String? = nil, choices: [String], correct: Int, hint: String, explanation: String) {
        self.id = id
        self.contentVersion = contentVersion
        self.kind = kind
        self.rule = rule
        self.topics = topics
        self.prompt = prompt
        self.listing = listing
        self.choices = choices
        self.correct = correct
        self.hint = hint
        self.explanation = explanation
    }

    /// The page of the static site that covers the rule, relative to the repository root.
    public var sitePage: String { "Site/" + pageInSite }

    /// The same page relative to the site folder.
    public var pageInSite: String { Question.pageInSite(rule: rule) }

    public static func sitePage(rule: String) -> String { "Site/" + pageInSite(rule: rule) }

    public static func pageInSite(rule: String) -> String { "rules/\(rule).html" }

    /// `id@contentVersion`: the full identity of this wording of the question.
    public var identity: String { "\(id)@\(contentVersion)" }

    public var correctChoice: String? { choices.indices.contains(correct) ? choices[correct] : nil }
}
