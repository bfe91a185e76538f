@testable import BGKBContent
import BGKBModel
import Foundation

/// Loads in-memory Content: `documents` maps paths (under `Content/`) to text.
func assemble(_ documents: [String: String], sources: String? = nil, topics: String? = nil) -> ContentLoadResult {
    ContentAssembler.assemble(
        documents: documents.map { ContentFile(path: "Content/" + $0.key, text: $0.value) },
        sources: sources.map { ContentFile(path: "Content/sources.yml", text: $0) },
        topics: topics.map { ContentFile(path: "Content/topics.yml", text: $0) })
}

/// `path:line:column [id]` of each diagnostic: what the tests compare.
func places(_ diagnostics: Diagnostics) -> [String] {
    diagnostics.all.map { "\($0.location.map(\.description) ?? "-") [\($0.id)]" }
}

/// The repository's root, found from this file, for tests that read Tests/Fixtures or Content/.
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

let testSources = """
- id: notes-old
  title: Notes, old
  reliability: primary
- id: notes-new
  title: Notes, new
  reliability: primary
"""

let testTopics = """
- id: expiry
  title: Expiry
  summary: Handlers.
  keywords: [handler]
- id: budgets
  title: Budgets
  summary: Time.
  keywords: [seconds]
"""

/// Texts made of random pieces of `alphabet`, one of each length in `lengths`, from a seeded
/// xorshift: the same texts on every run, for tests that compare a fast path with a reference.
func randomMixes(of alphabet: [String], seed: Int, lengths: ClosedRange<Int>) -> [String] {
    var state = UInt64(seed) &* 0x9E37_79B9_7F4A_7C15 | 1
    func next() -> Int {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return Int(state % UInt64(alphabet.count))
    }
    return lengths.map { length in (0..<length).map { _ in alphabet[next()] }.joined() }
}
