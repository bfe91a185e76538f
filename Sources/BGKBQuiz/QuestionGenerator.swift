import Foundation
import BGKBModel

/// Derives questions from the knowledge itself: every rule's numbers, crash codes, APIs, claims,
/// examples and history. Nothing here is a hand-written question; outcome answers come from
/// `outcomes` (the engine).
public struct QuestionGenerator: Sendable {
    public var corpus: Corpus
    public var outcomes: OutcomeSource?

    public init(corpus: Corpus, outcomes: OutcomeSource?) {
        self.corpus = corpus
        self.outcomes = outcomes
    }

    /// Every question the corpus yields, rule by rule in corpus order.
    public func questions() -> [Question] {
        corpus.rules.flatMap { questions(for: $0) }
    }

    public func questions(for rule: Rule) -> [Question] {
        var drafts: [QuestionDraft] = []
        drafts += trueFalseDrafts(for: rule)
        if !rule.isRemoved {
            drafts += numberDrafts(for: rule)
            drafts += crashCodeDrafts(for: rule)
            drafts += apiDrafts(for: rule)
            drafts += outcomeDrafts(for: rule)
            drafts += defectDrafts(for: rule)
        }
        drafts += historyDrafts(for: rule)
        // A draft that found nothing to set beside its answer is not a question; dropping it here
        // keeps the bank's check for what it is for: catching a generator bug.
        return drafts.filter { !$0.distractors.isEmpty }.map { $0.question(for: rule) }
    }

    // MARK: - Shared wording

    /// The rule's statement and the page that covers it: shown after every answer.
    func explanation(_ rule: Rule, _ extra: String? = nil) -> String {
        var text = rule.statement
        if let extra, !extra.isEmpty { text += "\n" + extra }
        return text
    }

    func documentTitle(_ id: String) -> String {
        corpus.documents.first { $0.id == id }?.title ?? id
    }

    func citationText(_ citation: Citation) -> String {
        var text = corpus.source(citation.source)?.title ?? citation.source
        if let locator = citation.locator { text += ", \(locator)" }
        if citation.unverified { text += " (unverified)" }
        return text
    }

    /// A hint from the rule's own words with the answer blanked out, else its topic's summary.
    func hint(_ rule: Rule, hiding answers: [String] = [], fallback: String? = nil) -> String {
        let candidates = [rule.why, rule.instead].compactMap { $0 }.map(firstSentence)
        if let candidate = candidates.first(where: { !$0.isEmpty }) {
            return blank(answers, in: candidate)
        }
        if let fallback { return fallback }
        if let topic = rule.topics.lazy.compactMap({ corpus.topic($0) }).first {
            return "Topic: \(topic.title). \(topic.summary)"
        }
        return "Think about what the system guarantees, and what it does not."
    }
}

extension Rule {
    /// Removed in the latest version of its document: still in the corpus for its history.
    var isRemoved: Bool { history.last?.change == .removed }
}

// MARK: - Text helpers

func firstSentence(_ text: String) -> String {
    let flat = plain(text)
    if let end = flat.range(of: ". ") { return String(flat[..<end.lowerBound]) + "." }
    return flat
}

/// Markdown emphasis and code marks removed, lines joined: prompts are plain text.
func plain(_ markdown: String) -> String {
    var text = markdown
    for mark in ["**", "__", "`"] { text = text.replacingOccurrences(of: mark, with: "") }
    return text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
        .filter { !$0.isEmpty }.joined(separator: " ")
}

/// Replaces each occurrence of each answer (case-insensitive) with a gap.
func blank(_ answers: [String], in text: String) -> String {
    var result = text
    for answer in answers.sorted(by: { $0.count > $1.count }) where !answer.isEmpty {
        while let range = result.range(of: answer, options: .caseInsensitive) {
            result.replaceSubrange(range, with: "____")
        }
    }
    return result
}
