import BGKBModel
import Testing
@testable import BGKBSite

/// The ranking's top-cause test scans the rule's text once; it must find a phrase exactly where
/// searching the lowercased text for each phrase in turn does.
@Suite struct ImportanceTests {
    static let cases: [(statement: String, details: String, why: String?)] = [
        ("The NUMBER ONE CAUSE of kills.", "", nil),
        ("Plain.", "This is the most common source of leaks.", nil),
        ("Plain.", "", "The Top Cause, by far."),
        ("It is the number one", "cause of trouble.", nil),
        ("Ends with most common", "", "source: the logs."),
        ("number one causes", "", nil),
        ("numberone cause", "top  cause", "most common sauce"),
        ("İstanbul’s top cause", "", nil),
        ("the top caus", "e", nil),
        ("", "", nil),
        ("source cause", "top cau", "se"),
        ("Most common source", "", nil),
    ]

    @Test(arguments: cases.indices)
    func topCauseIsFoundWhereSearchingEachPhraseFindsIt(_ index: Int) {
        let (statement, details, why) = Self.cases[index]
        let rule = Rule(id: "r", title: "r", statement: statement, details: details, kind: .fact, why: why,
                        document: "d", location: SourceLocation(path: "p", line: 1, column: 1))
        let text = [statement, details, why ?? ""].joined(separator: " ").lowercased()
        let expected = ["number one cause", "most common cause", "most common source", "top cause", "number one source"]
            .contains { text.contains($0) }
        #expect(Importance.mentionsTopCause(rule) == expected, "\(statement) | \(details) | \(why ?? "-")")
    }

    /// The scan skips eight bytes at a time to the next `c` or `s`: random mixes of the phrases'
    /// words, near misses and filler of every length put them at every offset of a word.
    @Test(arguments: 0..<8)
    func topCauseInRandomMixesIsFoundWhereSearchingFindsIt(seed: Int) {
        let alphabet = ["top ", "Top", "cause", "CAUSE", "source", "Source", "number one ", "most common ", "c", "s", "S", "x", " ",
                        "İ", "é", "caus", "sourc", "topcause", "most  common "]
        let texts = (0..<20).flatMap { randomMixes(of: alphabet, seed: seed * 20 + $0, lengths: 0...12) }
        var found = 0
        for (index, statement) in texts.enumerated() {
            let details = texts[(index + 1) % texts.count]
            let rule = Rule(id: "r", title: "r", statement: statement, details: details, kind: .fact, why: index % 2 == 0 ? nil : statement,
                            document: "d", location: SourceLocation(path: "p", line: 1, column: 1))
            let text = [statement, details, rule.why ?? ""].joined(separator: " ").lowercased()
            let expected = ["number one cause", "most common cause", "most common source", "top cause", "number one source"]
                .contains { text.contains($0) }
            #expect(Importance.mentionsTopCause(rule) == expected, "\(statement) | \(details)")
            if expected { found += 1 }
        }
        // Both answers are tested.
        #expect(found > 5 && found < texts.count - 5, "\(found) of \(texts.count)")
    }
}
