import BGKBModel

/// True or false: every rule's statement (so every rule yields a question), disputed claims
/// (false, citing the counter-sources), removed points, and statements with a number or crash
/// code swapped.
extension QuestionGenerator {
    func trueFalseDrafts(for rule: Rule) -> [QuestionDraft] {
        var drafts: [QuestionDraft] = []
        let hintText = hint(rule)
        if let dispute = rule.dispute {
            let claimant = citationText(dispute.claimedBy)
            var detail = "The claim (\(claimant)) is \(dispute.verdict == .wrong ? "wrong" : "doubtful")."
            if !dispute.counterSources.isEmpty {
                detail += " Counter-sources: " + dispute.counterSources.map(citationText).joined(separator: "; ") + "."
            }
            let corrections = dispute.correctedBy.compactMap { self.rule($0)?.statement }
            if !corrections.isEmpty { detail += " Instead: " + corrections.joined(separator: " ") }
            drafts.append(.trueFalse(slot: "claim", claim: withoutListingReferences(dispute.claim, rule: rule), isTrue: false,
                                     hint: withoutListingReferences("Claimed by \(claimant). What do Apple's own documents say?", rule: rule),
                                     explanation: explanation(rule, detail)))
        } else if rule.isRemoved {
            let removal = rule.history.last
            let document = documentTitle(rule.document)
            var detail = "This point was removed"
            if let version = removal?.version { detail += " in the version of \(version)" }
            if let entry = removal?.entry { detail += ": \(entry.writtenDate), \(entry.text)" }
            drafts.append(.trueFalse(slot: "removed",
                                     claim: "The latest version of \"\(document)\" still says: \(shownStatement(rule))",
                                     isTrue: false, hint: "Look at the revision history of \(document).",
                                     explanation: explanation(rule, detail + ".")))
            return drafts
        } else {
            drafts.append(.trueFalse(slot: "statement", claim: shownStatement(rule), isTrue: true, hint: hintText,
                                     explanation: explanation(rule, sourcesLine(rule))))
        }
        if let swapped = swappedNumberStatement(rule) {
            drafts.append(.trueFalse(slot: "swapped-number", claim: swapped, isTrue: false, hint: hintText,
                                     explanation: explanation(rule, "The number was changed; the rule says it as above.")))
        } else if let swapped = swappedCrashCodeStatement(rule) {
            drafts.append(.trueFalse(slot: "swapped-code", claim: swapped, isTrue: false, hint: hintText,
                                     explanation: explanation(rule, "The crash code was changed; the rule says it as above.")))
        }
        return drafts
    }

    func sourcesLine(_ rule: Rule) -> String {
        guard !rule.sources.isEmpty else { return "" }
        return "Source: " + rule.sources.map(citationText).joined(separator: "; ") + "."
    }

    /// The statement with its first stated number doubled, when that number is written in it as
    /// a whole word (`30 seconds` → `60 seconds`). Misconceptions are left alone: their statement
    /// may itself be the corrected claim.
    func swappedNumberStatement(_ rule: Rule) -> String? {
        guard rule.kind != .misconception else { return nil }
        let statement = shownStatement(rule)
        // A vague figure ("a few seconds") has no value to double.
        for number in rule.numbers where number.firmness != .vague && number.value == number.value.rounded()
            && number.value >= 1 && number.value < 1e9 {
            let written = String(Int(number.value))
            let replacement = String(Int(number.value) * 2)
            if let range = wholeWordRange(of: written, in: statement) {
                var text = statement
                text.replaceSubrange(range, with: replacement)
                return text
            }
            // Written in words ("about five seconds"): doubled in words, past one so that the
            // noun after it is already plural.
            if let word = spelledNumbers[Int(number.value)], let doubled = spelledNumbers[Int(number.value) * 2], number.value > 1 {
                for form in [word, word.withFirstLetterUppercased] {
                    if let range = wholeWordRange(of: form, in: statement) {
                        var text = statement
                        text.replaceSubrange(range, with: form == word ? doubled : doubled.withFirstLetterUppercased)
                        return text
                    }
                }
            }
        }
        return nil
    }

    func swappedCrashCodeStatement(_ rule: Rule) -> String? {
        guard rule.kind != .misconception else { return nil }
        let others = Set(corpusCrashCodes)
        for code in rule.crashCodes {
            let lower = code.lowercased()
            guard let other = others.subtracting([lower]).sorted().first,
                  let range = caseInsensitiveRange(of: code, in: shownStatement(rule)) else { continue }
            var text = shownStatement(rule)
            text.replaceSubrange(range, with: other)
            return text
        }
        return nil
    }
}

/// Numbers as a sentence may spell them, for doubling a figure written in words.
let spelledNumbers = [2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 8: "eight", 10: "ten", 12: "twelve",
                      15: "fifteen", 20: "twenty", 30: "thirty", 60: "sixty"]

/// The first occurrence of `word` not inside a longer run of digits or letters.
func wholeWordRange(of word: String, in text: String) -> Range<String.Index>? {
    // Found by bytes (`Bytes.firstOffset`), kept only where both ends fall between Characters,
    // as a search by Characters would find it.
    let utf8 = text.utf8
    var from = 0
    while let offset = Bytes.firstOffset(of: word.utf8, in: utf8, from: from) {
        let start = utf8.index(utf8.startIndex, offsetBy: offset)
        let end = utf8.index(start, offsetBy: word.utf8.count)
        guard let lower = start.samePosition(in: text), let upper = end.samePosition(in: text) else {
            from = offset + 1
            continue
        }
        // The next search starts after this occurrence, as the search by Characters did.
        from = offset + word.utf8.count
        let range = lower..<upper
        let before = range.lowerBound > text.startIndex ? text[text.index(before: range.lowerBound)] : " "
        let after = range.upperBound < text.endIndex ? text[range.upperBound] : " "
        if !before.isLetter, !before.isNumber, !after.isLetter, !after.isNumber, before != ".", after != "." || range.upperBound == text.index(before: text.endIndex) {
            return range
        }
    }
    return nil
}
