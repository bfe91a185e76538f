import BGKBScan
import Foundation
import Testing

/// The scan against the corpus in Tests/Fixtures/scan: every marked finding found (file, line,
/// rule) and nothing else reported. Precision and recall are printed in the closing note.
@Suite struct CorpusTests {
    static let sources = (try? Corpus.sources("scan")) ?? []
    static let result = Scanner.scan(sources)
    static let expected = Corpus.marks(in: sources)
    static let reported = Corpus.marks(of: result.findings)

    /// Marked findings the scan does not report yet, each with what stands in its way. A miss
    /// that is found again fails `knownMissesAreStillMissed`, so the list cannot go stale.
    static let knownMisses: [String: String] = [:]
    /// Findings on unmarked lines, with why.
    static let knownFalsePositives: [String: String] = [:]

    @Test func theCorpusIsThere() {
        #expect(Self.sources.count >= 40)
        #expect(Self.expected.count >= 12)
    }

    @Test func everyGeneratedScenarioParses() {
        #expect(Self.result.problems.isEmpty, "\(Self.result.problems.joined(separator: "\n"))")
    }

    @Test func everyMarkedFindingIsReported() {
        let missed = Self.expected.subtracting(Self.reported).filter { Self.knownMisses[$0.description] == nil }.sorted()
        #expect(missed.isEmpty, "missed: \(missed.map(\.description).joined(separator: "\n"))")
    }

    @Test func nothingElseIsReported() {
        let extra = Self.reported.subtracting(Self.expected).filter { Self.knownFalsePositives[$0.description] == nil }.sorted()
        #expect(extra.isEmpty, "not marked: \(extra.map(\.description).joined(separator: "\n"))")
    }

    @Test func knownMissesAreStillMissed() {
        let missed = Set(Self.expected.subtracting(Self.reported).map(\.description))
        let extra = Set(Self.reported.subtracting(Self.expected).map(\.description))
        #expect(Set(Self.knownMisses.keys).subtracting(missed).isEmpty, "found now, take off knownMisses: \(Set(Self.knownMisses.keys).subtracting(missed))")
        #expect(Set(Self.knownFalsePositives.keys).subtracting(extra).isEmpty, "gone now, take off knownFalsePositives")
    }

    @Test(arguments: Family.allCases)
    func eachFamilyIsFoundInTheCorpus(_ family: Family) {
        let marked = Self.expected.filter { $0.family == family.rawValue }
        #expect(!marked.isEmpty, "the corpus marks no \(family.rawValue)")
        #expect(!marked.intersection(Self.reported).isEmpty, "no \(family.rawValue) found")
    }

    @Test func precisionAndRecall() {
        let truePositives = Self.expected.intersection(Self.reported).count
        let precision = Self.reported.isEmpty ? 1 : Double(truePositives) / Double(Self.reported.count)
        let recall = Self.expected.isEmpty ? 1 : Double(truePositives) / Double(Self.expected.count)
        let clean = Self.sources.filter { source in !Self.expected.contains { $0.path == source.path } }
        let noisyClean = clean.filter { source in Self.reported.contains { $0.path == source.path } }
        print(String(format: "scan corpus: %d files (%d clean, %d of them with a finding), %d marked findings, %d reported, %d right: precision %.3f, recall %.3f",
                     Self.sources.count, clean.count, noisyClean.count, Self.expected.count, Self.reported.count, truePositives, precision, recall))
        for family in Family.allCases {
            let marked = Self.expected.filter { $0.family == family.rawValue }
            let found = marked.intersection(Self.reported).count
            let wrong = Self.reported.filter { $0.family == family.rawValue }.subtracting(Self.expected).count
            print("  \(family.rawValue) [\(family.basis.rawValue)]: \(found)/\(marked.count) found, \(wrong) not marked")
        }
        for (mark, reason) in Self.knownMisses.sorted(by: { $0.key < $1.key }) { print("  known miss \(mark): \(reason)") }
        for (mark, reason) in Self.knownFalsePositives.sorted(by: { $0.key < $1.key }) {
            print("  known false positive \(mark): \(reason)")
        }
        #expect(precision >= 0.95)
        #expect(recall >= 0.8)
    }
}
