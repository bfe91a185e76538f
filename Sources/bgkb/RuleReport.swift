import BGKBModel

/// The plain-text page `bgkb show` prints for a rule.
struct RuleReport {
    let rule: Rule
    let corpus: Corpus

    var text: String {
        var out: [String] = []
        out.append("\(rule.title)")
        out.append("id: \(rule.id)   kind: \(rule.kind.rawValue)\(rule.callout.map { "   callout: \($0.rawValue)" } ?? "")")
        out.append("topics: \(rule.topics.joined(separator: ", "))")
        out.append("defined at: \(rule.location)")
        out.append("")
        out.append(rule.statement)
        if !rule.details.isEmpty { out.append(""); out.append(rule.details) }
        if let why = rule.why { out.append(""); out.append("Why it matters: \(why)") }
        if let instead = rule.instead { out.append(""); out.append("Instead: \(instead)") }
        if !rule.numbers.isEmpty {
            out.append("")
            out.append("Numbers:")
            for number in rule.numbers { out.append("  - \(number)\(number.measures.isEmpty ? "" : " (\(number.measures))")\(number.note.map { ": \($0)" } ?? "")") }
        }
        if !rule.apis.isEmpty { out.append(""); out.append("APIs: \(rule.apis.joined(separator: ", "))") }
        if !rule.crashCodes.isEmpty { out.append("Crash codes: \(rule.crashCodes.joined(separator: ", "))") }
        if let dispute = rule.dispute {
            out.append("")
            out.append("Disputed claim (\(dispute.verdict.rawValue)): \(dispute.claim)")
            out.append("  claimed by: \(citation(dispute.claimedBy))")
            for counter in dispute.counterSources { out.append("  countered by: \(citation(counter))") }
            if !dispute.correctedBy.isEmpty { out.append("  see: \(dispute.correctedBy.joined(separator: ", "))") }
        }
        out.append("")
        out.append("Sources:")
        for source in rule.sources { out.append("  - \(citation(source))") }
        if !rule.examples.isEmpty {
            out.append("")
            out.append("Examples:")
            for example in rule.examples { out.append("  - \(example.intent.rawValue)\(example.name.map { " “\($0)”" } ?? "") at \(example.location)") }
        }
        if let reason = rule.notSimulated { out.append(""); out.append("Not simulated: \(reason)") }
        if !rule.history.isEmpty {
            out.append("")
            out.append("Revision history:")
            for revision in rule.history {
                let when = revision.entry.map { "\($0.date)" } ?? (revision.version.map { "version \($0)" } ?? "undated")
                var line = "  \(when)  \(revision.change.rawValue)"
                if revision.entry == nil, revision.previousVersion == nil, revision.change == .added, let version = revision.version {
                    line = "  (first)     present in version \(version), the earliest we have"
                }
                if let version = revision.version, revision.previousVersion != nil { line += " in \(version) (since \(revision.previousVersion ?? ""))" }
                out.append(line)
                if let entry = revision.entry { out.append("      entry: “\(entry.writtenDate): \(entry.text)” (\(entry.location))") }
                if revision.change != .unchanged, revision.change != .added, let previous = revision.previousWording {
                    out.append("      before: \(previous.replacingOccurrences(of: "\n", with: " "))")
                    if let now = revision.wording { out.append("      after:  \(now.replacingOccurrences(of: "\n", with: " "))") }
                }
            }
        }
        let conflicts = corpus.conflicts.filter { $0.rules.contains(rule.id) || $0.claims.contains { c in rule.history.contains { $0.entry?.location == c.location } } }
        if !conflicts.isEmpty {
            out.append("")
            out.append("Conflicts:")
            for conflict in conflicts { out.append(contentsOf: Self.lines(for: conflict)) }
        }
        if !rule.related.isEmpty { out.append(""); out.append("Related: \(rule.related.joined(separator: ", "))") }
        return out.joined(separator: "\n")
    }

    static func lines(for conflict: Conflict) -> [String] {
        var out = ["  \(conflict.id): \(conflict.subject)"]
        for claim in conflict.claims { out.append("      “\(claim.value)” — \(claim.citation.source)\(claim.citation.version.map { " (\($0))" } ?? "") at \(claim.location)") }
        if let assessment = conflict.assessment { out.append("      assessment: \(assessment)") }
        return out
    }

    private func citation(_ citation: Citation) -> String {
        let source = corpus.source(citation.source)
        var text = source?.title ?? citation.source
        if let version = citation.version { text += ", version \(version)" }
        if let locator = citation.locator { text += ", \(locator)" }
        if let url = source?.url { text += " <\(url)>" }
        if citation.unverified { text += " [unverified]" }
        return text
    }
}
