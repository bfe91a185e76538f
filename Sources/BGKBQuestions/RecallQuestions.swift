import BGKBModel

/// Recall: the numbers a rule states (value, unit and firmness), its crash codes, its APIs.
extension QuestionGenerator {
    func numberDrafts(for rule: Rule) -> [QuestionDraft] {
        rule.numbers.enumerated().compactMap { index, number in
            let measures = number.measures.trimmingSpaces()
            // Numbers found in the text (not annotated) carry the statement as what they measure:
            // ask those as a gap in the statement instead, when the figure is written there.
            let describesItself = measures.isEmpty || measures.hasSuffix("…") || measures.count > 60
                || rule.statement.hasPrefix(measures)
            let prompt: String
            if !describesItself {
                prompt = "What does the guidance give as the \(measures)?"
            } else if let gap = numberPhraseRange(number, in: rule.statement) {
                var text = rule.statement
                text.replaceSubrange(gap, with: "____")
                prompt = "Which figure fills the gap? \(text)"
            } else {
                return nil
            }
            let answer = numberText(number)
            // Same value said with another firmness or promise, then other values in the unit:
            // the learner must know both how much and how sure.
            var firmnessVariants: [String] = []
            for firmness in StatedNumber.Firmness.allCases where firmness != number.firmness && firmness != .vague {
                var variant = number
                variant.firmness = firmness
                variant.guaranteed = firmness == .exact
                firmnessVariants.append(numberText(variant))
            }
            var otherValues: [String] = []
            let corpusValues = stableSample(valuesByUnit[number.unit] ?? [], seed: StableHash.of(rule.id, measures).value,
                                            count: 4, where: { $0 != number.value })
            // Plausible wrong sizes: whole numbers when the figure is whole (no "166.7 assertions").
            let scaled = [number.value * 2, number.value / 6, number.value / 2, number.value * 10]
                .filter { $0 > 0 && $0 != number.value && ($0 == $0.rounded() || number.value != number.value.rounded()) }
            for value in corpusValues + scaled {
                var variant = number
                variant.value = value == value.rounded() ? value : (value * 10).rounded() / 10
                otherValues.append(numberText(variant))
            }
            let salt = "\(rule.id)#\(index)"
            let distractors = pickDistractors(answer: answer, candidates: Array(stableShuffle(firmnessVariants, salt: salt).prefix(1))
                + stableShuffle(otherValues, salt: salt))
            let repeated = rule.numbers[..<index].contains { $0.measures == number.measures }
            var detail = "The figure: \(answer)."
            if let note = number.note, !note.isEmpty { detail += " (\(note))" }
            return QuestionDraft(
                kind: .recall, slot: "number:\(describesItself ? numberText(number) : measures)" + (repeated ? "#\(index)" : ""),
                prompt: prompt,
                answer: answer, distractors: distractors,
                hint: "It is measured in \(unitName(number.unit)), and the sources \(number.guaranteed ? "promise it" : "do not promise it").",
                explanation: explanation(rule, detail))
        }
    }

    func crashCodeDrafts(for rule: Rule) -> [QuestionDraft] {
        return rule.crashCodes.map { code in
            let lower = code.lowercased()
            let inStatement = caseInsensitiveRange(of: code, in: rule.statement) != nil
            let prompt = inStatement
                ? "Which crash code fills the gap? \(blank([code], in: rule.statement))"
                : ([.must, .mustNot, .should, .shouldNot].contains(rule.kind)
                    ? "Getting this wrong shows up as which crash code? \(rule.statement)"
                    : "Which crash code goes with this? \(rule.statement)")
            let pool = stableSample(crashCodePool, salt: rule.id + lower, count: 8)
            return QuestionDraft(
                kind: .recall, slot: "crash-code:\(lower)", prompt: prompt, answer: lower,
                distractors: pickDistractors(answer: lower, candidates: pool),
                hint: hint(rule, hiding: [code], fallback: "Crash codes are hex words that read like English."),
                explanation: explanation(rule))
        }
    }

    /// Other exception codes iOS crash reports show, used only as distractors.
    static let wellKnownCrashCodes = ["0x8badf00d", "0xbada5e47", "0xdead10cc", "0xc00010ff", "0xdeadfa11", "0xbaaaaaad"]

    /// Real API names from the same frameworks, used only as distractors when the corpus names few.
    static let wellKnownAPIs = ["beginBackgroundTask", "endBackgroundTask", "backgroundTimeRemaining",
                                "performExpiringActivity", "setTaskCompleted", "BGTaskScheduler.submit"]

    /// A gap where the API's name is in the statement ("what to call when"), else the statement
    /// and the question which API it is about. At most two per rule, so one rule with many APIs
    /// does not crowd the bank.
    func apiDrafts(for rule: Rule) -> [QuestionDraft] {
        let pool = apiPool
        return rule.apis.prefix(2).compactMap { api in
            let short = apiShortName(api)
            guard short.count >= 3 else { return nil }
            let prompt: String
            if rule.statement.contains(short) {
                prompt = "Which API fills the gap? \(blank([short], in: rule.statement))"
            } else if rule.apis.count == 1 {
                prompt = "Which API is this point about? \(rule.statement)"
            } else {
                return nil
            }
            let related = rule.related.compactMap { self.rule($0) }.flatMap(\.apis).map(apiShortName)
            let others = rule.apis.map(apiShortName).filter { $0 != short }
            let candidates = stableShuffle(related, salt: rule.id + api) + stableSample(pool, salt: rule.id + api, count: 8)
            let distractors = pickDistractors(answer: short, candidates: candidates.filter { !others.contains($0) })
            return QuestionDraft(
                kind: .recall, slot: "api:\(api)", prompt: prompt, answer: short, distractors: distractors,
                hint: hint(rule, hiding: [short]), explanation: explanation(rule, "API: \(api)"))
        }
    }
}

/// Where a number is written in a sentence, with the words that give its firmness before it and
/// its unit after it ("about 30 seconds", "at most 1000"), so the gap hides the whole figure.
func numberPhraseRange(_ number: StatedNumber, in text: String) -> Range<String.Index>? {
    guard number.value == number.value.rounded(), abs(number.value) < 1e9,
          let core = wholeWordRange(of: String(Int(number.value)), in: text) else { return nil }
    var lower = core.lowerBound
    let before = text[..<lower].lowercased()
    for phrase in ["approximately ", "no more than ", "less than ", "more than ", "at least ", "at most ", "roughly ",
                   "around ", "nearly ", "about ", "up to ", "under ", "over ", "~"] where before.hasSuffix(phrase) {
        lower = text.index(lower, offsetBy: -phrase.count)
        break
    }
    var upper = core.upperBound
    let after = text[upper...].lowercased()
    for unit in [" milliseconds", " seconds", " second", " minutes", " minute", " hours", " hour", " days", " day",
                 " weeks", " week", " ms", " s", " min", " h", "%", " per hour", " times per hour"] where after.hasPrefix(unit) {
        let end = text.index(upper, offsetBy: unit.count)
        // The unit must end at a word boundary ("30 s" but not "30 seconds" matched as " s").
        if end == text.endIndex || !(text[end].isLetter) {
            upper = end
            break
        }
    }
    return lower..<upper
}

/// `UIApplication.beginBackgroundTask(withName:expirationHandler:)` → `beginBackgroundTask`;
/// `UIBackgroundTaskIdentifier.invalid` keeps its type, since `invalid` alone says nothing.
func apiShortName(_ api: String) -> String {
    // Index searches, not `split`: this runs for every API of every rule at start-up.
    let withoutArguments = api.firstIndex(of: "(").map { api[..<$0] } ?? api[...]
    guard let dot = withoutArguments.lastIndex(of: ".") else { return String(withoutArguments) }
    let last = withoutArguments[withoutArguments.index(after: dot)...]
    guard !last.isEmpty else { return String(withoutArguments) }
    return last.count >= 8 || last.contains(where: \.isUppercase) ? String(last) : String(withoutArguments)
}

func unitName(_ unit: StatedNumber.Unit) -> String {
    switch unit {
    case .milliseconds: return "milliseconds"
    case .seconds: return "seconds"
    case .minutes: return "minutes"
    case .hours: return "hours"
    case .days: return "days"
    case .weeks: return "weeks"
    case .count: return "a count"
    case .perHour: return "times per hour"
    }
}

/// `about 30 s, not guaranteed`; unlike `StatedNumber.description`, exact values say "exactly"
/// so that firmness is visible in every choice.
func numberText(_ number: StatedNumber) -> String {
    let value = number.formattedValue
    let unit: String
    switch number.unit {
    case .perHour: unit = " per hour"
    default: unit = number.unitText
    }
    let firmness: String
    switch number.firmness {
    case .exact: firmness = "exactly "
    case .about: firmness = "about "
    case .atMost: firmness = "at most "
    case .atLeast: firmness = "at least "
    case .vague: firmness = "roughly "
    }
    return firmness + value + unit + (number.guaranteed ? ", guaranteed" : ", not guaranteed")
}
