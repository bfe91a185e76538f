import BGKBModel

/// Links the versions of one document: per rule, what changed between consecutive versions
/// (added, removed, reworded, corrected, unchanged) and which dated entry explains it; and the
/// facts the versions disagree on, as conflicts.
struct VersionLinker {
    let documentID: String
    /// Oldest first.
    let versions: [DocumentVersion]

    struct Result {
        var rules: [Rule]
        var conflicts: [Conflict]
    }

    func link() -> Result {
        guard let latest = versions.last else { return Result(rules: [], conflicts: []) }
        var histories: [String: [RuleRevision]] = [:]
        var removed: [String: Rule] = [:]
        var conflicts: [Conflict] = []
        var renamed: [String: String] = [:]   // old id → id in the next version

        if let first = versions.first {
            for rule in first.rules {
                // A linked entry dates the addition only if it says it added the point; one that
                // revised it comes later in the history as a rewording.
                let entry = explicitEntry(for: rule.id, in: latest.revisions, notAfter: first.label).flatMap { entry in
                    Self.change(described: entry.clauses.first { $0.linkedRules.contains(rule.id) }?.text ?? entry.text) == .added ? entry : nil
                }
                histories[rule.id, default: []].append(RuleRevision(change: .added, version: first.label, previousVersion: nil,
                                                                    entry: entry, wording: rule.wording))
            }
        }
        for (old, new) in zip(versions, versions.dropFirst()) {
            let pairs = match(old.rules, new.rules)
            let fresh = newEntries(old: old, new: new)
            for (oldRule, newRule) in pairs.matched {
                if oldRule.id != newRule.id {
                    renamed[oldRule.id] = newRule.id
                    histories[newRule.id] = histories.removeValue(forKey: oldRule.id)
                }
                let same = Self.normalized(oldRule.wording) == Self.normalized(newRule.wording)
                let entry = same ? nil : explain(newRule, previous: oldRule, among: fresh)
                let corrected = entry.map { Self.isCorrection(Self.clause(of: $0, about: newRule, previous: oldRule)) } ?? false
                histories[newRule.id, default: []].append(RuleRevision(
                    change: same ? .unchanged : (corrected ? .corrected : .reworded), version: new.label, previousVersion: old.label,
                    entry: entry, previousWording: same ? nil : oldRule.wording, wording: same ? nil : newRule.wording))
                conflicts += numberConflicts(oldRule, newRule, old: old, new: new)
            }
            for rule in pairs.added {
                histories[rule.id, default: []].append(RuleRevision(change: .added, version: new.label, previousVersion: old.label,
                                                                   entry: explain(rule, previous: nil, among: fresh), wording: rule.wording))
            }
            for rule in pairs.removed {
                histories[rule.id, default: []].append(RuleRevision(change: .removed, version: new.label, previousVersion: old.label,
                                                                   entry: explain(rule, previous: rule, among: fresh), previousWording: rule.wording))
                removed[rule.id] = rule
            }
            conflicts += entryConflicts(old: old, new: new)
        }

        // Entries that link a rule explicitly but that no version diff accounts for (older history).
        let latestIDs = Set(latest.rules.map(\.id))
        var rules = (latest.rules + versions.dropLast().reversed().flatMap(\.rules).filter { removed[$0.id] != nil && !latestIDs.contains($0.id) }).uniquedByID
        for index in rules.indices {
            var history = histories[rules[index].id] ?? []
            for entry in latest.revisions where entry.linkedRules.contains(rules[index].id) && !history.contains(where: { $0.entry == entry }) {
                let clause = entry.clauses.first { $0.linkedRules.contains(rules[index].id) }?.text ?? entry.text
                history.append(RuleRevision(change: Self.change(described: clause), version: nil, previousVersion: nil, entry: entry))
            }
            let sorted = history.enumerated().sorted { a, b in
                let (left, right) = (Self.sortDay(a.element), Self.sortDay(b.element))
                return left != right ? left < right : a.offset < b.offset
            }.map(\.element)
            rules[index] = rules[index].with { $0.history = sorted }
        }
        return Result(rules: rules, conflicts: conflicts)
    }

    /// When a revision happened, for ordering: its entry's date, else its version's date, else the start.
    static func sortDay(_ revision: RuleRevision) -> Day {
        if let date = revision.date { return date }
        // Present in the earliest version we have: it was there before any dated change we know of.
        if revision.previousVersion == nil { return Day(year: 0, month: 0, day: 0) }
        if let label = revision.version, case let .date(day, _, _) = RevisionDate.parse(label) { return day }
        return Day(year: 0, month: 0, day: 0)
    }

    // MARK: Matching rules across versions

    struct Pairs {
        var matched: [(Rule, Rule)] = []
        var added: [Rule] = []
        var removed: [Rule] = []
    }

    /// Same id first; then, for the rest, the most similar wording above a threshold (a reworded
    /// point whose derived id changed is still the same point).
    func match(_ old: [Rule], _ new: [Rule]) -> Pairs {
        var pairs = Pairs()
        var unmatchedOld = old
        var unmatchedNew: [Rule] = []
        for rule in new {
            if let index = unmatchedOld.firstIndex(where: { $0.id == rule.id }) {
                pairs.matched.append((unmatchedOld.remove(at: index), rule))
            } else {
                unmatchedNew.append(rule)
            }
        }
        // Each wording's words once, not once per comparison (kept in step with `unmatchedOld`).
        var unmatchedOldWords = unmatchedNew.isEmpty ? [] : unmatchedOld.map { Set(Self.wordList($0.wording)) }
        for rule in unmatchedNew {
            let ruleWords = Set(Self.wordList(rule.wording))
            let scored = unmatchedOldWords.enumerated().map { ($0.offset, Self.similarity($0.element, ruleWords)) }
            if let best = scored.max(by: { $0.1 < $1.1 }), best.1 >= 0.5 {
                unmatchedOldWords.remove(at: best.0)
                pairs.matched.append((unmatchedOld.remove(at: best.0), rule))
            } else {
                pairs.added.append(rule)
            }
        }
        pairs.removed = unmatchedOld
        return pairs
    }

    // MARK: Explaining changes

    /// Entries in the newer version that the older one does not have.
    func newEntries(old: DocumentVersion, new: DocumentVersion) -> [RevisionEntry] {
        let oldWords = old.revisions.map { Set(Self.wordList($0.text)) }
        return new.revisions.filter { entry in
            let entryWords = Set(Self.wordList(entry.text))
            return !oldWords.contains { Self.similarity($0, entryWords) >= 0.8 }
        }
    }

    /// The earliest entry that links the rule and is no newer than the version it first appears in.
    private func explicitEntry(for id: String, in entries: [RevisionEntry], notAfter label: String?) -> RevisionEntry? {
        let limit: Day? = label.flatMap { if case let .date(day, _, _) = RevisionDate.parse($0) { return day } else { return nil } }
        return entries.filter { entry in entry.linkedRules.contains(id) && (limit.map { entry.date <= $0 } ?? true) }.min { $0.date < $1.date }
    }

    /// The entry that explains a change: one that links the rule; else the only new entry; else the
    /// new entry whose words best match what changed and what the rule is about. An entry that links
    /// other rules explicitly is a weaker candidate: its author said what it touched.
    func explain(_ rule: Rule, previous: Rule?, among entries: [RevisionEntry]) -> RevisionEntry? {
        if let linked = entries.first(where: { $0.linkedRules.contains(rule.id) }) { return linked }
        if entries.count == 1 { return entries[0] }
        let changed = Self.changedWords(from: previous?.wording ?? "", to: rule.wording)
        let subject = Self.wordSet(rule.wording + " " + rule.apis.joined(separator: " "))
        let scored = entries.map { entry -> (RevisionEntry, Int) in
            let words = Self.wordSet(entry.text)
            let score = 2 * words.intersection(changed).count + words.intersection(subject).count - (entry.linkedRules.isEmpty ? 0 : 3)
            return (entry, score)
        }
        guard let best = scored.max(by: { $0.1 < $1.1 }), best.1 > 0 else { return nil }
        return best.0
    }

    /// The clause of an entry that concerns a rule: the one linking it, else the one sharing most
    /// words with the change, else the whole entry when it has a single clause.
    static func clause(of entry: RevisionEntry, about rule: Rule, previous: Rule?) -> String {
        if let linked = entry.clauses.first(where: { $0.linkedRules.contains(rule.id) }) { return linked.text }
        if entry.clauses.count <= 1 { return entry.text }
        let changed = changedWords(from: previous?.wording ?? "", to: rule.wording).union(wordSet(rule.wording))
        let scored = entry.clauses.map { ($0.text, wordSet($0.text).intersection(changed).count) }
        guard let best = scored.max(by: { $0.1 < $1.1 }), best.1 > 0 else { return "" }
        return best.0
    }

    static func isCorrection(_ text: String) -> Bool {
        let lower = text.lowercased()
        let words = ["correct", "error", "mistake", "wrong", "fixed a"]
        return words.contains { PlainText.contains(lower, $0) }
    }

    static func change(described text: String) -> RuleRevision.Change {
        let lower = text.lowercased()
        if isCorrection(lower) { return .corrected }
        if lower.hasPrefix("added") || lower.hasPrefix("first posted") || lower.hasPrefix("introduced") { return .added }
        if lower.hasPrefix("removed") || lower.hasPrefix("deleted") { return .removed }
        return .reworded
    }

    // MARK: Conflicts

    /// The same entry (by its words) dated differently in two versions.
    func entryConflicts(old: DocumentVersion, new: DocumentVersion) -> [Conflict] {
        var result: [Conflict] = []
        // Each entry's words once, not once per comparison.
        let oldWords = old.revisions.map { Set(Self.wordList($0.text)) }
        for entry in new.revisions {
            let entryWords = Set(Self.wordList(entry.text))
            // The most similar old entry; the first of equals, as `max(by:)` picks.
            var best: (index: Int, similarity: Double)?
            for (index, words) in oldWords.enumerated() {
                let similarity = Self.similarity(words, entryWords)
                if best.map({ similarity > $0.similarity }) ?? true { best = (index, similarity) }
            }
            guard let best, best.similarity >= 0.6 else { continue }
            let twin = old.revisions[best.index]
            guard twin.date != entry.date else { continue }
            let year = min(twin.date.year, entry.date.year)
            result.append(Conflict(
                id: "\(documentID)-revision-date-\(year)",
                subject: "Date of the revision entry “\(PlainText.title(from: entry.text))”",
                claims: [
                    Conflict.Claim(value: twin.writtenDate, citation: Citation(source: old.source ?? documentID, version: old.label),
                                   location: twin.location),
                    Conflict.Claim(value: entry.writtenDate, citation: Citation(source: new.source ?? documentID, version: new.label),
                                   location: entry.location),
                ]))
        }
        return result
    }

    /// One rule stating different numbers in two versions (same unit and measure, different value).
    func numberConflicts(_ old: Rule, _ new: Rule, old oldVersion: DocumentVersion, new newVersion: DocumentVersion) -> [Conflict] {
        var result: [Conflict] = []
        for number in new.numbers {
            guard let before = old.numbers.first(where: { $0.unit == number.unit && $0.measures == number.measures }),
                  before.value != number.value, old.numbers.count == new.numbers.count else { continue }
            result.append(Conflict(
                id: "\(new.id)-number-\(number.unit.rawValue)",
                subject: "Value of “\(number.measures.isEmpty ? new.title : number.measures)” in two versions of \(documentID)",
                claims: [
                    Conflict.Claim(value: before.description, citation: Citation(source: oldVersion.source ?? documentID, version: oldVersion.label), location: old.location),
                    Conflict.Claim(value: number.description, citation: Citation(source: newVersion.source ?? documentID, version: newVersion.label), location: new.location),
                ],
                rules: [new.id]))
        }
        return result
    }

    // MARK: Words

    static func normalized(_ text: String) -> String { wordList(text).joined(separator: " ") }

    static func wordList(_ text: String) -> [String] {
        var words: [String] = []
        var current = ""
        for character in text.lowercased() {
            if character.isLetter || character.isNumber { current.append(character) } else if !current.isEmpty { words.append(current); current = "" }
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    static func wordSet(_ text: String) -> Set<String> { Set(wordList(text).filter { $0.count > 3 }) }

    /// Jaccard similarity of the two texts' word sets.
    static func similarity(_ a: String, _ b: String) -> Double {
        similarity(Set(wordList(a)), Set(wordList(b)))
    }

    static func similarity(_ left: Set<String>, _ right: Set<String>) -> Double {
        guard !left.isEmpty || !right.isEmpty else { return 1 }
        return Double(left.intersection(right).count) / Double(left.union(right).count)
    }

    /// Words present in one wording and not the other: what a revision entry should talk about.
    static func changedWords(from old: String, to new: String) -> Set<String> {
        wordSet(old).symmetricDifference(wordSet(new))
    }
}

extension Array where Element == Rule {
    var uniquedByID: [Rule] {
        var seen = Set<String>()
        return filter { seen.insert($0.id).inserted }
    }
}
