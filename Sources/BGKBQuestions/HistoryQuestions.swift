import BGKBModel

/// Revision history: what a dated revision changed about a rule, and when.
extension QuestionGenerator {
    func historyDrafts(for rule: Rule) -> [QuestionDraft] {
        var drafts: [QuestionDraft] = []
        let changes: Set<RuleRevision.Change> = [.reworded, .corrected, .removed, .added]
        for revision in rule.history where changes.contains(revision.change) {
            guard let entry = revision.entry else { continue }
            // "Added" in the first version is just the beginning, not a change worth asking about.
            if revision.change == .added && revision.previousVersion == nil { continue }
            let document = documentTitle(entry.document)
            let entries = entriesByDocument[entry.document] ?? []
            let verb = revision.change.rawValue
            let slot = "\(verb):\(entry.date)"
            var detail = "\(entry.date) (\(entry.writtenDate)): \(entry.text)"
            // Versions that disagree on this entry's date make "when?" unanswerable: ask only
            // what changed, and say the date is disputed.
            let dateConflict = corpus.conflicts.first { conflict in
                conflict.claims.contains { $0.value == entry.writtenDate || $0.value == entry.date.description }
            }
            if let dateConflict {
                detail += " The date is disputed (\(dateConflict.subject)): "
                    + dateConflict.claims.map { "\($0.value) in \($0.citation.version ?? $0.citation.source)" }.joined(separator: ", ") + "."
            }

            let dates = stableShuffle(entries.map(\.date.description), salt: rule.id + slot)
                + stableSample(entryDates, salt: rule.id + slot, count: 6)
            let dateDistractors = pickDistractors(answer: entry.date.description, candidates: dates)
            if !dateDistractors.isEmpty && dateConflict == nil {
                drafts.append(QuestionDraft(
                    kind: .history, slot: "when:" + slot,
                    prompt: "In \"\(document)\", when was this point \(verb)? \(shownStatement(rule))",
                    answer: entry.date.description, distractors: dateDistractors,
                    hint: "The revision entry says: \(blank([entry.writtenDate, entry.date.description], in: entry.text))",
                    explanation: explanation(rule, detail)))
            }

            let texts = stableShuffle(entries.filter { $0.date != entry.date }.map(\.text), salt: rule.id + slot)
            let textDistractors = pickDistractors(answer: entry.text, candidates: texts)
            if !textDistractors.isEmpty {
                drafts.append(QuestionDraft(
                    kind: .history, slot: "what:" + slot,
                    prompt: "What did the revision \(dateConflict == nil ? "of" : "dated") \(entry.writtenDate) to \"\(document)\" change?",
                    answer: entry.text, distractors: textDistractors,
                    hint: "It concerns this point: \(rule.title)",
                    explanation: explanation(rule, detail)))
            }
        }
        return drafts
    }
}
