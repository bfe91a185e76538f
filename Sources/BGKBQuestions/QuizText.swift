import BGKBModel

/// What a question shows of the knowledge, cleaned of what would mislead or give the answer away:
/// listings without comments, outcomes without the simulator's own timings, statements without
/// references to figures the quiz does not show.

/// A scenario as a question shows it: `shownListing` without `//` comments (authors' comments
/// often name the defect or describe the simulator rather than the app) and without the blank
/// lines they leave.
public func quizListing(_ text: String) -> String {
    var lines: [String] = []
    for line in shownListing(text).split(separator: "\n", omittingEmptySubsequences: false) {
        let code = withoutComment(String(line))
        let isBlank = code.allSatisfy { $0 == " " || $0 == "\t" }
        // A line that held only a comment goes; a blank line the author left stays, once.
        if isBlank && !(line.allSatisfy { $0 == " " || $0 == "\t" }) { continue }
        if isBlank, lines.last.map({ $0.isEmpty }) ?? true { continue }
        lines.append(isBlank ? "" : code)
    }
    while lines.last?.isEmpty == true { lines.removeLast() }
    return lines.joined(separator: "\n")
}

/// A line without its `//` comment (one outside a string literal) and the spaces before it,
/// found by bytes: `"` and `/` are ASCII, so no byte of another character can be taken for one.
func withoutComment(_ line: String) -> String {
    var quoted = false
    var previous: UInt8 = 0x20
    var offset = 0
    for byte in line.utf8 {
        if byte == 0x22 { quoted.toggle() }
        if !quoted, byte == 0x2F, previous == 0x2F {
            var code = Array(line.utf8.prefix(offset - 1))
            while let last = code.last, last == 0x20 || last == 0x09 { code.removeLast() }
            return String(decoding: code, as: UTF8.self)
        }
        previous = byte
        offset += 1
    }
    return line
}

extension SimulationOutcome {
    /// `choiceText` as the quiz offers it: without the figures the simulator assumes where the
    /// sources give none (an expiry handler's second, the handlers' few seconds), so that no
    /// answer teaches them. "did not finish within 5s" reads "did not finish in time".
    public var quizChoiceText: String { withoutFigures(choiceText) }
}

/// `within 5s` → `in time`, `longer than 1s` → `too long`: durations in an outcome's reason are
/// the simulator's, not the sources'.
func withoutFigures(_ text: String) -> String {
    var result = text
    for (prefix, replacement) in [(" within ", " in time"), (" longer than ", " too long")] {
        var searchStart = result.startIndex
        while let found = result[searchStart...].firstRange(of: prefix) {
            var end = found.upperBound
            while end < result.endIndex, result[end].isNumber || result[end] == "." { end = result.index(after: end) }
            guard end > found.upperBound else {
                searchStart = found.upperBound
                continue
            }
            while end < result.endIndex, result[end] == " " || "mshin".contains(result[end]) { end = result.index(after: end) }
            result.replaceSubrange(found.lowerBound..<end, with: replacement + (end < result.endIndex && result[end] != ")" ? " " : ""))
            searchStart = result.startIndex
        }
    }
    return result
}

/// Whether an outcome is one the code in `listing` could plausibly reach: a reason about a push,
/// a BGTask, an expiry handler or the delegate method needs code that has one. Outcomes of other
/// scenarios are offered as distractors only when they fit.
func outcomeFits(_ choice: String, listing: String) -> Bool {
    outcomeNeeds(choice).allSatisfy(requirementsMet(by: listing).contains)
}

/// Which of `outcomeRequirements` an outcome's words call for (by index). The quiz works it out
/// once per outcome (`OutcomeTexts`), as a generator offers the same outcomes again and again.
func outcomeNeeds(_ choice: String) -> [Int] {
    let lower = choice.lowercased()
    // A byte search (`Bytes.contains`): Foundation's `contains` goes through CFString and the
    // standard library's `firstRange` compares Characters, and both showed in the start-up time.
    return outcomeRequirements.indices.filter { index in
        outcomeRequirements[index].mentions.contains { Bytes.contains($0.utf8, in: lower.utf8) }
    }
}

/// Which of `outcomeRequirements` the code of a listing meets (its `system` lines are no code: a
/// `system grants beginBackgroundTask` line is no call to it).
func requirementsMet(by listing: String) -> Set<Int> {
    let code = listing.split(separator: "\n").filter { !$0.drop(while: { $0 == " " }).hasPrefix("system ") }.joined(separator: "\n")
    return Set(outcomeRequirements.indices.filter { index in
        outcomeRequirements[index].needsAny.contains { Bytes.contains($0.utf8, in: code.utf8) }
    })
}

/// Words an outcome's reason may use, and what a listing must contain (one of) for it to fit.
let outcomeRequirements: [(mentions: [String], needsAny: [String])] = [
    (["remotenotification", "push"], ["didReceiveRemoteNotification", "push arrives"]),
    (["bgtask", "launch handler", "settaskcompleted"], ["BGTaskScheduler", "setTaskCompleted"]),
    (["expiration handler"], ["beginBackgroundTask", "expirationHandler"]),
    (["applicationdidenterbackground"], ["applicationDidEnterBackground"]),
    (["scenedidenterbackground"], ["sceneDidEnterBackground"]),
    (["assertions"], ["for "]),
    (["outstanding", "leaked"], ["beginBackgroundTask", "BGTaskScheduler", "performExpiringActivity"]),
    (["force unwrap", "nil"], ["!"]),
    (["expiring activity", "performexpiringactivity"], ["performExpiringActivity"]),
    (["main thread"], ["work ", "sync", "lock"]),
]

extension QuestionGenerator {
    /// The rule's statement as a question shows it: a reference to a numbered listing of a source
    /// ("Listing 1's handler"), which the quiz cannot show, names the source it is in.
    func shownStatement(_ rule: Rule) -> String {
        withoutListingReferences(rule.statement, rule: rule)
    }

    func withoutListingReferences(_ text: String, rule: Rule) -> String {
        guard text.contains("Listing ") else { return text }
        let title = rule.sources.first { $0.locator?.contains("Listing") == true }.flatMap { sourceTitles[$0.source] }
            ?? rule.sources.first.flatMap { sourceTitles[$0.source] }
        let place = title.map { "the sample code of \"\($0)\"" } ?? "the sample code it discusses"
        var result = ""
        var rest = Substring(text)
        while let found = rest.firstRange(of: "Listing ") {
            var end = found.upperBound
            while end < rest.endIndex, rest[end].isNumber { end = rest.index(after: end) }
            guard end > found.upperBound else {
                result += rest[..<found.upperBound]
                rest = rest[found.upperBound...]
                continue
            }
            let atSentenceStart = result.isEmpty || result.hasSuffix(". ")
            result += rest[..<found.lowerBound]
            result += atSentenceStart ? "T" + place.dropFirst() : place
            rest = rest[end...]
        }
        return result + rest
    }
}
