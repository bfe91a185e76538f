import BGKBModel

/// Recall: the numbers a rule states (value, unit and firmness), its crash codes, its APIs.
extension QuestionGenerator {
    func numberDrafts(for rule: Rule) -> [QuestionDraft] {
        rule.numbers.enumerated().compactMap { index, number in
            let measures = number.measures.trimmingCharacters(in: String.whitespace)
            // A vague figure ("a few seconds") has no value to recall: the one stored is only a
            // stand-in, and asking it would teach a number no source gives. A figure a rule
            // quotes as a claim, or as what something does not get, makes an ambiguous question.
            // A figure the rule's words do not state is an annotation no reader can check (and may
            // be an assumption that slipped in): not asked.
            guard number.firmness != .vague, !QuestionGenerator.isAmbiguousMeasure(measures),
                  statesFigure(numberText(number), in: rule) else { return nil }
            // Numbers found in the text (not annotated) carry the statement as what they measure:
            // ask those as a gap in the statement instead, when the figure is written there.
            let describesItself = measures.isEmpty || measures.hasSuffix("…") || measures.count > 60
                || shownStatement(rule).hasPrefix(measures)
            let prompt: String
            if !describesItself {
                prompt = "What does the guidance give as the \(measures)?"
            } else if let gap = numberPhraseRange(number, in: shownStatement(rule)) {
                var text = shownStatement(rule)
                text.replaceSubrange(gap, with: "____")
                prompt = "Which figure fills the gap? \(text)"
            } else {
                return nil
            }
            let answer = numberText(number)
            // Same value said with another firmness or promise, then other values in the unit:
            // the learner must know both how much and how sure.
            var firmnessVariants: [String] = []
            // "at most 0 s" says nothing a learner could weigh: zero has no firmer or looser form.
            for firmness in StatedNumber.Firmness.allCases where firmness != number.firmness && firmness != .vague && number.value != 0 {
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

    /// Whether a statement quotes `name` as a third party's ("the blog's BackgroundLogger").
    static func isThirdPartyName(_ name: String, in statement: String) -> Bool {
        ["blog's ", "post's ", "article's ", "tutorial's "].contains { Bytes.contains(($0 + name).utf8, in: statement.utf8) }
    }

    /// "the time two tasks together do NOT get", "the claimed grace time (wrong)": a figure
    /// asked as what the guidance gives would be read two ways.
    static func isAmbiguousMeasure(_ measures: String) -> Bool {
        let lower = " " + measures.lowercased() + " "
        return [" not ", "(wrong)", " wrong ", "claimed", " claim "].contains { lower.contains($0) }
    }

    /// A gap where the code is written in the statement, else the statement and the question
    /// which code goes with it. Never when the statement names another crash code: the prompt
    /// would show a code that is not the answer.
    func crashCodeDrafts(for rule: Rule) -> [QuestionDraft] {
        let statement = shownStatement(rule)
        return rule.crashCodes.compactMap { code in
            let lower = code.lowercased()
            let inStatement = caseInsensitiveRange(of: code, in: statement) != nil
            let prompt = inStatement
                ? "Which crash code fills the gap? \(blank([code], in: statement))"
                : ([.must, .mustNot, .should, .shouldNot].contains(rule.kind)
                    ? "Getting this wrong shows up as which crash code? \(statement)"
                    : "Which crash code goes with this? \(statement)")
            guard crashCodeMentions(in: prompt).isEmpty else { return nil }
            let pool = stableSample(crashCodePool, salt: rule.id + lower, count: 8)
            let hint = hint(rule, hiding: [code], fallback: "Crash codes are hex words that read like English.")
            return QuestionDraft(
                kind: .recall, slot: "crash-code:\(lower)", prompt: prompt, answer: lower,
                distractors: pickDistractors(answer: lower, candidates: pool),
                hint: crashCodeMentions(in: hint).isEmpty ? hint : "Crash codes are hex words that read like English.",
                explanation: explanation(rule))
        }
    }

    /// Other exception codes iOS crash reports show, used only as distractors.
    static let wellKnownCrashCodes = ["0x8badf00d", "0xbada5e47", "0xdead10cc", "0xc00010ff", "0xdeadfa11", "0xbaaaaaad"]

    /// Real API names from the same frameworks, used only as distractors when the corpus names few.
    static let wellKnownAPIs = ["UIApplication.beginBackgroundTask(withName:expirationHandler:)", "UIApplication.endBackgroundTask(_:)",
                                "UIApplication.backgroundTimeRemaining", "ProcessInfo.performExpiringActivity(withReason:using:)",
                                "BGTask.setTaskCompleted(success:)", "BGTaskScheduler.submit(_:)",
                                "BGTaskScheduler.register(forTaskWithIdentifier:using:launchHandler:)", "BGTask.expirationHandler",
                                "BGTaskRequest.earliestBeginDate", "BGAppRefreshTaskRequest", "BGProcessingTaskRequest",
                                "BGTaskScheduler", "UIBackgroundTaskIdentifier", "UIBackgroundModes",
                                "BGTaskSchedulerPermittedIdentifiers", "BGTaskScheduler.Error.Code.notPermitted",
                                "BGTaskScheduler.Error.Code.unavailable", "BGTaskScheduler.Error.Code.tooManyPendingTaskRequests",
                                "content-available", "apns-push-type", "apns-priority"]

    /// A gap where the API's name is written in the statement as a whole word, with choices of
    /// the same family (methods, properties, types, Info.plist and payload keys, error codes).
    /// At most two per rule, so one rule with many APIs does not crowd the bank. A point that
    /// does not name the API is not asked about it: which API it is "about" is a matter of
    /// opinion.
    func apiDrafts(for rule: Rule) -> [QuestionDraft] {
        let statement = shownStatement(rule)
        var seen: Set<String> = []
        return rule.apis.compactMap { api -> QuestionDraft? in
            let short = apiShortName(api)
            guard short.count >= 3, seen.insert(short).inserted, APIFamily.isQuizzable(short), !thirdPartyNames.contains(short),
                  let gapped = blankWholeWord(short, in: statement) else { return nil }
            let family = APIFamily(api)
            let others = Set(rule.apis.map(apiShortName))
            let related = rule.related.compactMap { self.rule($0) }.flatMap(\.apis).filter { APIFamily($0) == family }.map(apiShortName)
            let pool = apiPools[family] ?? []
            // Names that share words with the answer first (`beginBackgroundTask` beside
            // `endBackgroundTask`), then related rules' names, then the rest of the family.
            // The pool's words are split once (`apiPoolWords`); only the names that share some
            // are ordered, so a large pool costs one set lookup a name.
            let words = Set(camelWords(short))
            let sharing = (apiPoolWords[family] ?? []).compactMap { name, nameWords -> (String, Int)? in
                let shared = nameWords.intersection(words).count
                return shared > 0 ? (name, shared) : nil
            }
            let similar = stableShuffle(sharing.map(\.0), salt: rule.id + api)
                .map { name in (name, sharing.first { $0.0 == name }?.1 ?? 0) }
                .sorted { $0.1 > $1.1 }
                .map(\.0)
            let candidates = (Array(similar.prefix(2)) + stableShuffle(related, salt: rule.id + api) + similar.dropFirst(2)
                + stableSample(pool, salt: rule.id + api, count: 8))
                .filter { !others.contains($0) && !statement.contains($0) && APIFamily.isQuizzable($0) }
            let distractors = pickDistractors(answer: short, candidates: candidates)
            guard distractors.count >= 2 else { return nil }
            return QuestionDraft(
                kind: .recall, slot: "api:\(api)", prompt: "Which API fills the gap? \(gapped)", answer: short, distractors: distractors,
                hint: hint(rule, hiding: [short]), explanation: explanation(rule, "API: \(api)"))
        }.prefix(2).map { $0 }
    }
}

/// The words of a camel-case name, lowercased: `BGTaskSchedulerPermittedIdentifiers` →
/// `bg`, `task`, `scheduler`, `permitted`, `identifiers`.
func camelWords(_ name: String) -> [String] {
    var words: [String] = []
    var current = ""
    let characters = Array(name)
    for (index, character) in characters.enumerated() {
        guard character.isLetter || character.isNumber else {
            if !current.isEmpty { words.append(current.lowercased()) }
            current = ""
            continue
        }
        let next = index + 1 < characters.count ? characters[index + 1] : " "
        let startsWord = character.isUppercase && !current.isEmpty
            && (current.last?.isLowercase == true || next.isLowercase)
        if startsWord {
            words.append(current.lowercased())
            current = ""
        }
        current.append(character)
    }
    if !current.isEmpty { words.append(current.lowercased()) }
    return words
}

/// Whether the rule's own words (statement, details, Why, Instead, the number's notes) state the
/// figure of a number choice (`about 30 s, not guaranteed`), in digits or in words.
func statesFigure(_ choice: String, in rule: Rule) -> Bool {
    let words = choice.split(separator: ",")[0].split(separator: " ")
    guard let index = words.firstIndex(where: { $0.first?.isNumber == true }) else { return false }
    let figure = String(words[index])
    let text = ([rule.statement, rule.details, rule.why ?? "", rule.instead ?? ""] + rule.numbers.compactMap(\.note))
        .joined(separator: " ").lowercased()
    var forms = [figure] + (Int(figure).flatMap { spelledNumbers[$0] }.map { [$0] } ?? [])
    if figure == "1", index + 1 < words.count {
        // "in the past week", "within a minute": one, said by the unit alone.
        let unit = String(words[index + 1])
        forms.append(["d": "day", "h": "hour", "min": "minute", "s": "second", "ms": "millisecond"][unit] ?? unit)
        forms.append("one")
    }
    if figure == "1000" { forms.append("1,000") }
    return forms.contains { wholeWordRange(of: $0, in: text) != nil || $0.count > 2 && Bytes.contains(($0 + " ").utf8, in: text.utf8) }
}

/// Crash codes (`0x` and hex digits) written in a text, lowercased.
func crashCodeMentions(in text: String) -> [String] {
    var found: [String] = []
    var rest = Substring(text.lowercased())
    while let start = rest.firstRange(of: "0x") {
        var end = start.upperBound
        while end < rest.endIndex, rest[end].isHexDigit { end = rest.index(after: end) }
        if rest.distance(from: start.upperBound, to: end) >= 4 { found.append(String(rest[start.lowerBound..<end])) }
        rest = rest[end...]
    }
    return found
}

/// `text` with every occurrence of `word` replaced by a gap, when each stands as a whole word
/// (no letter, digit or underscore touching it): a gap inside a longer word ("____ing") would
/// tell by its neighbours which choice fits. Nil when some occurrence is not whole.
func blankWholeWord(_ word: String, in text: String) -> String? {
    func isWordCharacter(_ character: Character) -> Bool { character.isLetter || character.isNumber || character == "_" }
    var result = ""
    var rest = Substring(text)
    var count = 0
    while let found = rest.firstRange(of: word) {
        let before = found.lowerBound > rest.startIndex ? rest[rest.index(before: found.lowerBound)] : (result.last ?? " ")
        let after = found.upperBound < rest.endIndex ? rest[found.upperBound] : " "
        if isWordCharacter(before) || isWordCharacter(after) { return nil }
        result += rest[..<found.lowerBound] + "____"
        rest = rest[found.upperBound...]
        count += 1
    }
    return count > 0 ? result + rest : nil
}

/// The kind of name an API is, so that a question's choices are all of one kind.
enum APIFamily: Hashable, Sendable {
    /// `qualified`: a member written with its type (`UIBackgroundTaskIdentifier.invalid`), which
    /// reads unlike a bare name beside it.
    case method, property, type, key, plistKey, errorCode, qualified

    static let plistKeys: Set<String> = ["UIBackgroundModes", "BGTaskSchedulerPermittedIdentifiers", "UIApplicationSceneManifest"]

    /// Names too generic to be a question's answer or choice (Swift's own types, words).
    static let generic: Set<String> = ["Any", "Any?", "AnyObject", "Data", "Date", "App", "main", "end", "start", "background",
                                       "Task", "String", "Int", "Bool", "Error", "Result", "Void", "application", "object",
                                       "Progress", "Operation", "Logger", "DispatchQueue"]

    init(_ api: String) {
        let short = apiShortName(api)
        if api.contains("-") {
            self = .key
        } else if APIFamily.plistKeys.contains(short) {
            self = .plistKey
        } else if api.contains(".Error.") || api.contains(".Code.") {
            self = .errorCode
        } else if short.contains(".") {
            self = .qualified
        } else if api.contains("(") {
            self = .method
        } else if let first = short.first, first.isUppercase {
            self = .type
        } else {
            self = .property
        }
    }

    /// A name a learner can be asked to recall: not generic, not an expression.
    static func isQuizzable(_ short: String) -> Bool {
        // All capitals with underscores (`EXC_BREAKPOINT`) is an exception type, not an API.
        !generic.contains(short) && !short.contains("[") && !short.contains(" ") && !short.contains("\"")
            && !(short.contains("_") && short == short.uppercased()) && !short.hasSuffix(":")
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
