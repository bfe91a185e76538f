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
