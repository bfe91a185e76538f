import BGKBModel
import Foundation

/// Questions about a rule's examples: how a scenario ends (the engine says), and which rule a
/// broken scenario breaks.
extension QuestionGenerator {
    /// Most engine runs spent looking for distractors for one question.
    static let distractorRunLimit = 40

    func outcomeDrafts(for rule: Rule) -> [QuestionDraft] {
        guard outcomes != nil else { return [] }
        var drafts: [QuestionDraft] = []
        for (index, example) in rule.examples.enumerated() {
            guard let asWritten = outcome(example, .asWritten) else { continue }
            let listing = quizListing(example.text)
            let met = requirementsMet(by: listing)
            // Other scenarios are looked up once per example, and only when its own runs give
            // fewer than three choices.
            var neighbours: [Example]?
            let variations = RunConditions.variations.map { ($0, outcome(example, $0)) }
            // The scenario as written, then every variation that ends another way than those
            // before it: each teaches what that condition changes, and the answers vary.
            var asked: [(RunConditions, SimulationOutcome)] = [(.asWritten, asWritten)]
            for case let (conditions, outcome?) in variations where !asked.contains(where: { quizText($0.1) == quizText(outcome) }) {
                asked.append((conditions, outcome))
            }
            let ownOutcomes = [asWritten] + variations.compactMap(\.1)
            for (conditions, outcome) in asked {
                let answer = quizText(outcome)
                var picker = DistractorPicker(answer: answer)
                // The scenario's own runs under other conditions first: outcomes it can produce.
                for other in ownOutcomes { picker.offer(outcomeTexts.choice(other)) }
                // Then outcomes other scenarios ran to that this code could plausibly reach
                // (`outcomeFits`): never one invented here.
                if picker.picked.count < 3 {
                    var runs = 0
                    if neighbours == nil { neighbours = relatedExamples(of: rule, excluding: example) }
                    for other in neighbours ?? [] where runs < Self.distractorRunLimit && picker.picked.count < 3 {
                        runs += 1
                        if let result = self.outcome(other, .asWritten) {
                            let choice = outcomeTexts.choice(result)
                            if choice.needs.allSatisfy(met.contains) { picker.offer(choice) }
                        }
                    }
                }
                let distractors = picker.picked
                guard distractors.count >= 2 else { continue }
                let slot = "example:\(index)" + (conditions == .asWritten ? "" : ":\(conditions)")
                drafts.append(QuestionDraft(
                    kind: .outcome, slot: slot,
                    prompt: conditions.prompt(listing: listing),
                    listing: listing, answer: answer, distractors: distractors,
                    hint: "This example \(example.intent == .follows ? "follows" : "breaks") the rule: \(shownStatement(rule))",
                    explanation: explanation(rule, "The simulator ran it: \(answer).")))
            }
        }
        return drafts
    }

    func quizText(_ outcome: SimulationOutcome) -> String { outcomeTexts.text(outcome) }


    /// Examples whose outcomes make plausible distractors: the rule's own, its related rules',
    /// then a stable sample of the rest of the corpus.
    func relatedExamples(of rule: Rule, excluding example: Example) -> [Example] {
        let own = rule.examples.filter { $0 != example }
        let related = rule.related.compactMap { self.rule($0) }.flatMap(\.examples)
        let rest = stableSample(allExamples, seed: StableHash.of(rule.id, example.identifier).value,
                                count: Self.distractorRunLimit) { $0.rule != rule.id && !rule.related.contains($0.rule) }
        return own + related + rest
    }

    /// For each scenario that breaks its rule: which of these rules does it break? Distractors are
    /// rules that share no topic and no relation with it, so exactly one choice is right even when
    /// a listing has several faults.
    func defectDrafts(for rule: Rule) -> [QuestionDraft] {
        rule.examples.enumerated().compactMap { index, example in
            guard example.intent == .breaks else { return nil }
            let unrelated = stableSample(defectCandidates, seed: StableHash.of(example.identifier).value, count: 3) { other in
                other.id != rule.id && other.statement != rule.statement
                    && Set(other.topics).isDisjoint(with: rule.topics)
                    && !rule.related.contains(other.id) && !other.related.contains(rule.id)
                    && !other.examples.contains { $0.text == example.text }
            }
            let candidates = unrelated.map(shownStatement)
            let distractors = pickDistractors(answer: shownStatement(rule), candidates: candidates)
            guard !distractors.isEmpty else { return nil }
            // The example's title is not shown: titles often name the defect.
            return QuestionDraft(
                kind: .defect, slot: "example:\(index)",
                prompt: "This scenario has a defect. Which rule does it break?",
                listing: quizListing(example.text), answer: shownStatement(rule), distractors: distractors,
                hint: hint(rule, hiding: [], fallback: nil),
                explanation: explanation(rule, rule.why.map(firstSentence)))
        }
    }
}

/// The scenario as shown in a question: without its `expect` lines (they state the answer) and
/// without blank lines at either end.
public func shownListing(_ text: String) -> String {
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        .filter { !$0.drop(while: { $0 == " " || $0 == "\t" }).hasPrefix("expect") }
    while let first = lines.first, first.allSatisfy({ $0 == " " || $0 == "\t" }) { lines.removeFirst() }
    while let last = lines.last, last.allSatisfy({ $0 == " " || $0 == "\t" }) { lines.removeLast() }
    return lines.joined(separator: "\n")
}

/// Seconds as a reader says them: "1.5 s", "45 s", and past two minutes "3 h 0 min 50 s", since
/// scenarios that wait for the system to launch a task run for hours of simulated time.
func formatSeconds(_ seconds: Double) -> String {
    guard seconds.isFinite, abs(seconds) < 1e12 else { return "\(seconds) s" }
    guard seconds >= 120, seconds == seconds.rounded() else {
        return seconds == seconds.rounded() ? "\(Int(seconds)) s" : "\((seconds * 10).rounded() / 10) s"
    }
    let whole = Int(seconds)
    let (hours, minutes, rest) = (whole / 3600, whole % 3600 / 60, whole % 60)
    var parts: [String] = []
    if hours > 0 { parts.append("\(hours) h") }
    if hours > 0 || minutes > 0 { parts.append("\(minutes) min") }
    parts.append("\(rest) s")
    return parts.joined(separator: " ")
}

/// The same few outcomes come up again and again as distractors across the corpus: word each once,
/// with the key distractors are told apart by (`normalizedChoice`). Outcomes are kept without
/// their time, which the words leave out: keyed with it, nearly every run was worded again.
final class OutcomeTexts: @unchecked Sendable {
    struct Choice {
        var text: String
        var key: String
        /// What code must have for this outcome to fit it (`outcomeNeeds`).
        var needs: [Int]
    }

    private let lock = NSLock()
    private var choices: [SimulationOutcome: Choice] = [:]

    func text(_ outcome: SimulationOutcome) -> String { choice(outcome).text }

    func choice(_ outcome: SimulationOutcome) -> Choice {
        let timeless = outcome.atZero
        lock.lock()
        if let known = choices[timeless] {
            lock.unlock()
            return known
        }
        lock.unlock()
        let text = timeless.quizChoiceText
        let made = Choice(text: text, key: normalizedChoice(text), needs: outcomeNeeds(text))
        lock.lock()
        choices[timeless] = made
        lock.unlock()
        return made
    }
}

extension SimulationOutcome {
    /// The same outcome at time zero.
    var atZero: SimulationOutcome {
        switch self {
        case .suspended: return .suspended(at: 0)
        case .stillRunning: return .stillRunning(at: 0)
        case let .terminated(code, reason, _): return .terminated(code: code, reason: reason, at: 0)
        case let .crashed(reason, _): return .crashed(reason: reason, at: 0)
        case let .undecided(limit, _): return .undecided(limit: limit, at: 0)
        }
    }
}

extension RunConditions {
    /// A predict-the-outcome prompt naming these conditions in words a reader of the listing can
    /// check against it.
    public func prompt(listing: String) -> String {
        if self == .asWritten {
            let pins = listing.split(separator: "\n").contains { $0.drop(while: { $0 == " " }).hasPrefix("system ") }
            return pins
                ? "How does this scenario end, under the conditions its system lines set (the usual ones otherwise)?"
                : "How does this scenario end, if the system grants every request and gives the usual background time?"
        }
        var parts: [String] = []
        if earlyExpiry {
            parts.append("calls the app's background tasks in early, \(formatSeconds(RunConditions.earlyExpiryDelay)) after it enters the background")
        }
        if let budget = budget {
            parts.append(budget == 0 ? "gives the app no background time at all"
                : "gives the app only \(budget == budget.rounded() ? String(Int(budget)) : String(budget)) s of background time")
        }
        if refusedThroughHandler {
            parts.append("refuses beginBackgroundTask by calling its expiration handler at once")
        } else if beginRefused {
            parts.append("refuses beginBackgroundTask (it returns .invalid)")
        }
        return "How does this scenario end, if the system " + parts.joined(separator: " and ") + "?"
    }
}
