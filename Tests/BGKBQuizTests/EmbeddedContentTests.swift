import BGKBContent
import BGKBModel
import BGKBQuiz
import Foundation
import Testing

/// The build plugin embeds the bank of Content/: the quiz a release binary runs is exactly what
/// the generator and the live engine make of the Content it was built from.
@Suite struct EmbeddedContentTests {
    static let packageDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    static func loadContent() throws -> ContentLoadResult {
        // Relative paths, as the plugin loads them, so locations (and example ids) match.
        try ContentLoader.load(directory: packageDirectory + "/Content")
    }

    @Test func theEmbeddedBankIsTheBankOfContent() throws {
        let embedded = try #require(EmbeddedContent.bank())
        let loaded = try Self.loadContent()
        let live = QuestionBank(corpus: loaded.corpus, outcomes: QuizOutcomes.engine)
        #expect(embedded.questions.count == live.questions.count)
        #expect(embedded.questions == live.questions)
        #expect(embedded.diagnostics.errors.count == live.diagnostics.errors.count)
        #expect(EmbeddedContent.contentErrorCount == loaded.diagnostics.errors.count)
        #expect(EmbeddedContent.ruleCount == loaded.corpus.rules.count)
        #expect(EmbeddedContent.topics() == loaded.corpus.topics)
        #expect(!embedded.questions.isEmpty)
    }
}
