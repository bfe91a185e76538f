@testable import BGKBContent
import BGKBModel
import Foundation
import Testing

/// The real Content/: clean, cited, and in our own words.
@Suite struct ContentCorpusTests {
    static let result = Result { try ContentLoader.load(directory: repositoryRoot + "/Content") }

    @Test func contentHasNoErrorsOrWarnings() throws {
        let result = try Self.result.get()
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics.sorted.map(\.description).joined(separator: "\n"))")
    }

    @Test func everyRuleCitesAKnownSource() throws {
        let corpus = try Self.result.get().corpus
        let known = Set(corpus.sources.map(\.id))
        for rule in corpus.rules {
            #expect(!rule.sources.isEmpty, "\(rule.id) cites no source (\(rule.location))")
            #expect(rule.sources.allSatisfy { known.contains($0.source) }, "\(rule.id)")
        }
    }

    @Test func backgroundTaskNotesHaveBothVersionsAndTheDateConflict() throws {
        let corpus = try Self.result.get().corpus
        let notes = try #require(corpus.documents.first { $0.id == "background-task-notes" })
        #expect(notes.versions.map(\.label) == ["2021-02-27", "2023-06-16"])
        let conflict = try #require(corpus.conflicts.first { $0.id == "background-task-notes-revision-date-2019" })
        #expect(Set(conflict.claims.map(\.value)).isSuperset(of: ["20 Jun 2019", "2019-01-20"]))
        #expect(conflict.assessment != nil)
        let framework = try #require(corpus.rule("bgtasks-framework-request-types"))
        #expect(framework.history.contains { $0.change == .corrected && $0.entry?.date.description == "2022-06-08" && $0.previousWording != nil })
    }

    /// No run of eight words may be shared with a seed, except inside quotation marks: a claim we
    /// dispute is quoted so the reader knows exactly what is wrong. Runs where ../shared/seeds exists.
    @Test func contentIsInOurOwnWords() throws {
        let seedsDirectory = repositoryRoot + "/../shared/seeds"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: seedsDirectory)) ?? []
        let seeds = names.filter { $0.hasPrefix("0") && $0.hasSuffix(".txt") }
        guard !seeds.isEmpty else { return }
        var shingles = [String: String]()
        for name in seeds {
            guard let data = FileManager.default.contents(atPath: seedsDirectory + "/" + name) else { continue }
            var text = String(decoding: data, as: UTF8.self)
            // Seed 000 holds unrelated forum posts after line 49: they are not guidance we restate.
            if name.hasPrefix("000") { text = text.split(separator: "\n", omittingEmptySubsequences: false).prefix(49).joined(separator: "\n") }
            let words = Self.words(text)
            for index in 0..<max(0, words.count - 7) { shingles[words[index..<index + 8].joined(separator: " ")] = name }
        }
        let corpus = try Self.result.get().corpus
        for rule in corpus.documents.flatMap({ $0.versions.flatMap(\.rules) }) {
            let text = Self.unquoted([rule.statement, rule.details, rule.why ?? "", rule.instead ?? ""].joined(separator: "\n"))
            let words = Self.words(text)
            for index in 0..<max(0, words.count - 7) {
                let run = words[index..<index + 8].joined(separator: " ")
                if let seed = shingles[run] {
                    Issue.record("\(rule.location): “\(run)” is copied from \(seed)")
                    break
                }
            }
        }
    }

    /// The text with "quoted" and “quoted” passages removed.
    static func unquoted(_ text: String) -> String {
        var result = ""
        var closing: Character?
        for character in text {
            if let close = closing {
                if character == close || character == "\n" { closing = nil; result.append(" ") }
            } else if character == "\"" || character == "“" {
                closing = character == "“" ? "”" : "\""
            } else {
                result.append(character)
            }
        }
        return result
    }

    static func words(_ text: String) -> [String] {
        VersionLinker.wordList(text.replacingOccurrences(of: "’", with: "'").replacingOccurrences(of: "'", with: ""))
    }
}

/// The fingerprint of the files a load reads: the same files give the same value, and any
/// change to a file's bytes or name gives another.
@Suite struct ContentFingerprintTests {
    @Test func anyChangeToTheFilesChangesIt() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("bgkb-fingerprint-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        func write(_ name: String, _ text: String) throws { try text.write(toFile: root + "/" + name, atomically: true, encoding: .utf8) }
        try write("a.md", "one")
        try write("b.md", "two")
        let first = try ContentLoader.fingerprint(root: root, files: ["a.md", "b.md", "missing.md"])
        #expect(try ContentLoader.fingerprint(root: root, files: ["a.md", "b.md"]) == first)
        try write("b.md", "twO")
        let changed = try ContentLoader.fingerprint(root: root, files: ["a.md", "b.md"])
        #expect(changed != first)
        #expect(try ContentLoader.fingerprint(root: root, files: ["b.md", "a.md"]) != changed)
        try write("b.md", "two")
        #expect(try ContentLoader.fingerprint(root: root, files: ["a.md", "b.md"]) == first)
    }
}
