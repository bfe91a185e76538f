import BGKBContent
import BGKBModel
import BGKBQuiz
import Foundation
import Testing

/// The build plugin embeds the corpus of Content/: the quiz a release binary runs is exactly what
/// the pipeline makes of the Content it was built from.
@Suite struct EmbeddedContentTests {
    static let packageDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    @Test func theEmbeddedCorpusIsTheCorpusOfContent() throws {
        let embedded = try #require(EmbeddedContent.corpus())
        let previous = FileManager.default.currentDirectoryPath
        #expect(FileManager.default.changeCurrentDirectoryPath(Self.packageDirectory))
        defer { _ = FileManager.default.changeCurrentDirectoryPath(previous) }
        let loaded = try ContentLoader.load(directory: "Content")
        var expected = loaded.corpus
        for document in expected.documents.indices {
            for version in expected.documents[document].versions.indices {
                expected.documents[document].versions[version].rules = []
            }
        }
        #expect(embedded == expected)
        #expect(EmbeddedContent.errorCount == loaded.diagnostics.errors.count)
        #expect(!embedded.rules.isEmpty)
    }
}

/// The outcome table computed at build time is what the live engine says, for every embedded
/// example under every condition a question may ask about.
@Suite struct EmbeddedOutcomeTests {
    @Test func everyEntryAgreesWithTheLiveEngine() throws {
        let engine = try #require(QuizOutcomes.engine)
        let corpus = try #require(EmbeddedContent.corpus())
        let table = EmbeddedContent.outcomeTable()
        var expected = 0
        for example in corpus.examples {
            for conditions in RunConditions.all {
                guard let live = engine(example, conditions) else { continue }
                expected += 1
                #expect(table[example.identifier + "|" + conditions.tableKey] == live, "\(example.identifier) \(conditions)")
            }
        }
        #expect(table.count == expected)
    }
}
