import BGKBModel
import Dispatch

/// Derives questions from the knowledge itself: every rule's numbers, crash codes, APIs, claims,
/// examples and history. Nothing here is a hand-written question; outcome answers come from
/// `outcomes` (the engine).
public struct QuestionGenerator: Sendable {
    public let corpus: Corpus
    public let outcomes: OutcomeSource?
    /// Lookups and pools every rule's questions need, computed once: a quiz starts in
    /// milliseconds only if generation is not quadratic in the corpus.
    let rulesByID: [String: Rule]
    /// Quizzable API names by family (`APIFamily`), the choices an API question draws from.
    let apiPools: [APIFamily: [String]]
    /// Each pool name with its camel-case words, for distractors that share words with an answer.
    let apiPoolWords: [APIFamily: [(String, Set<String>)]]
    /// Names Content quotes from a third party's code (`the blog's BackgroundLogger`).
    let thirdPartyNames: Set<String>
    let crashCodePool: [String]
    let valuesByUnit: [StatedNumber.Unit: [Double]]
    let revisionEntries: [RevisionEntry]
    /// `outcomes` as given, for the table (`warmOutcomes`).
    let unmemoizedOutcomes: OutcomeSource?
    let outcomeTexts = OutcomeTexts()
    /// Filled by `warmOutcomes` before the questions are made, read-only after.
    let outcomeTable = OutcomeTableBox()
    let entriesByDocument: [String: [RevisionEntry]]
    let entryDates: [String]
    let corpusCrashCodes: [String]
    let allExamples: [Example]
    /// Rules a defect question may offer as wrong answers.
    let defectCandidates: [Rule]
    let sourceTitles: [String: String]
    /// Each rule's first sentence of Why (else Instead), plain: the usual hint.
    let hintSentences: [String: String]

    public init(corpus: Corpus, outcomes: OutcomeSource?) {
        self.corpus = corpus
        // Each example's runs are asked for again as distractors of its neighbours: run each
        // (example, conditions) once.
        self.outcomes = outcomes.map(OutcomeCache.memoizing)
        // The table runs each (example, conditions) once by itself: through the cache, every run
        // took its lock and hashed its example twice for nothing.
        unmemoizedOutcomes = outcomes
        rulesByID = Dictionary(corpus.rules.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        // A third party's own names (a blog's helper class) are not APIs to learn or to offer.
        var thirdParty: Set<String> = []
        for rule in corpus.rules {
            for api in rule.apis where QuestionGenerator.isThirdPartyName(apiShortName(api), in: rule.statement) {
                thirdParty.insert(apiShortName(api))
            }
        }
        thirdPartyNames = thirdParty
        var pools: [APIFamily: Set<String>] = [:]
        for api in corpus.rules.flatMap(\.apis) + QuestionGenerator.wellKnownAPIs
        where APIFamily.isQuizzable(apiShortName(api)) && !thirdParty.contains(apiShortName(api)) {
            pools[APIFamily(api), default: []].insert(apiShortName(api))
        }
        apiPools = pools.mapValues { $0.sorted() }
        apiPoolWords = apiPools.mapValues { names in names.map { ($0, Set(camelWords($0))) } }
        crashCodePool = Array(Set(corpus.rules.flatMap(\.crashCodes).map { $0.lowercased() } + QuestionGenerator.wellKnownCrashCodes)).sorted()
        var values: [StatedNumber.Unit: [Double]] = [:]
        for number in corpus.rules.flatMap(\.numbers) where !(values[number.unit]?.contains(number.value) ?? false) {
            values[number.unit, default: []].append(number.value)
        }
        valuesByUnit = values
        revisionEntries = corpus.revisionEntries
        entriesByDocument = Dictionary(grouping: revisionEntries, by: \.document)
        entryDates = Array(Set(revisionEntries.map(\.date.description))).sorted()
        corpusCrashCodes = Array(Set(corpus.rules.flatMap(\.crashCodes).map { $0.lowercased() })).sorted()
        allExamples = corpus.examples
        defectCandidates = corpus.rules.filter { !$0.isRemoved && $0.kind != .misconception }
        var hints: [String: String] = [:]
        for rule in corpus.rules {
            if let text = [rule.why, rule.instead].compactMap({ $0 }).first(where: { !$0.isEmpty }) {
                hints[rule.id] = firstSentence(text)
            }
        }
        hintSentences = hints
        sourceTitles = Dictionary(corpus.sources.map { ($0.id, $0.title) }, uniquingKeysWith: { first, _ in first })
    }

    func rule(_ id: String) -> Rule? { rulesByID[id] }

    /// Every question the corpus yields, rule by rule in corpus order, balanced over the whole
    /// bank (`BankBalance`).
    public func questions() -> [Question] {
        warmOutcomes()
        // Rules are independent (the caches they share are locked, the outcome table is only
        // read): on every core, joined in corpus order, so the bank is the one a serial pass makes.
        return BankBalance.balanced(ParallelMap.map(corpus.rules) { questions(for: $0) }.flatMap { $0 })
    }

    /// Runs every example under every condition on all cores first (runs are independent), into
    /// a table the questions then read without a lock, so a large corpus does not wait for its
    /// scenarios one at a time. Asked through the locked cache instead, the cores would wait for
    /// each other and hash examples as keys.
    func warmOutcomes() {
        guard let unmemoizedOutcomes, outcomeTable.table == nil else { return }
        outcomeTable.table = OutcomeTable(examples: allExamples, source: unmemoizedOutcomes)
    }

    /// The outcome of `example` under `conditions`: from the table when it holds the example,
    /// else from the (memoizing) source. Nil too for a run the simulator gave up on (`undecided`):
    /// it says nothing about the app, so it is never an answer or a distractor.
    func outcome(_ example: Example, _ conditions: RunConditions) -> SimulationOutcome? {
        let found: SimulationOutcome?
        if let table = outcomeTable.table, let known = table.outcome(example, conditions) {
            found = known
        } else {
            found = outcomes?(example, conditions)
        }
        guard let found, !found.isUndecided else { return nil }
        return found
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
        var text = shownStatement(rule)
        if let extra, !extra.isEmpty { text += "\n" + extra }
        return text
    }

    func documentTitle(_ id: String) -> String {
        corpus.documents.first { $0.id == id }?.title ?? id
    }

    func citationText(_ citation: Citation) -> String {
        var text = sourceTitles[citation.source] ?? citation.source
        if let locator = citation.locator { text += ", \(locator)" }
        if citation.unverified { text += " (unverified)" }
        return text
    }

    /// A hint from the rule's own words with the answer blanked out, else its topic's summary.
    func hint(_ rule: Rule, hiding answers: [String] = [], fallback: String? = nil) -> String {
        if let sentence = hintSentences[rule.id], !sentence.isEmpty {
            return blank(answers, in: withoutListingReferences(sentence, rule: rule))
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

/// The first sentence of a Markdown text, as plain text (`Sentence.first(in:)` on `plain`).
func firstSentence(_ text: String) -> String {
    // A sentence is short: flattening a whole long Why section first would be wasted work.
    Sentence.first(in: plain(String(text.prefix(600))))
}

/// Markdown emphasis and code marks removed, lines joined: prompts are plain text.
func plain(_ markdown: String) -> String {
    let characters = Array(markdown)
    var result = ""
    result.reserveCapacity(characters.count)
    var pendingSpace = false
    var index = 0
    while index < characters.count {
        let character = characters[index]
        index += 1
        if character == "`" { continue }
        if character == "*" || character == "_", index < characters.count, characters[index] == character {
            index += 1
            continue
        }
        if character.isWhitespace {
            pendingSpace = true
            continue
        }
        if pendingSpace && !result.isEmpty { result.append(" ") }
        pendingSpace = false
        result.append(character)
    }
    return result
}

/// Where `needle` first occurs in `text`, ignoring case, using the standard library only
/// (Foundation's case-insensitive search loads ICU, which costs a quick start its budget).
func caseInsensitiveRange(of needle: String, in text: String) -> Range<String.Index>? {
    let lowerText = text.lowercased()
    guard let found = lowerText.firstRange(of: needle.lowercased()) else { return nil }
    // Lowercasing keeps the number of characters for all but a few letters (İ); map by offset.
    guard lowerText.count == text.count else { return text.firstRange(of: needle) }
    let start = text.index(text.startIndex, offsetBy: lowerText.distance(from: lowerText.startIndex, to: found.lowerBound))
    let end = text.index(start, offsetBy: lowerText.distance(from: found.lowerBound, to: found.upperBound))
    return start..<end
}

/// Replaces each occurrence of each answer (case-insensitive) with a gap.
func blank(_ answers: [String], in text: String) -> String {
    var result = text
    for answer in answers.sorted(by: { $0.count > $1.count }) where !answer.isEmpty {
        while let range = caseInsensitiveRange(of: answer, in: result) {
            result.replaceSubrange(range, with: "____")
        }
    }
    return result
}
