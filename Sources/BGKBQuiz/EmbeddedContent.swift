import BGKBModel
import Foundation

/// The corpus assembled from Content/ when this binary was built (the EmbedContent build plugin
/// runs the pipeline and writes it as JSON), so an installed `bgkb quiz` works from any directory
/// and starts without parsing Markdown. Document versions carry no rules (the corpus's `rules` has
/// them all), which halves what a start decodes. `--content DIR` bypasses it.
public enum EmbeddedContent {
    /// Errors the pipeline reported at build time (the corpus still holds what parsed).
    public static var errorCount: Int { generatedErrorCount }

    public static var corpusJSON: String { generatedCorpusJSON }

    /// Nil only if the embedded JSON does not decode, which the tests rule out.
    public static func corpus() -> Corpus? {
        try? JSONDecoder().decode(Corpus.self, from: Data(corpusJSON.utf8))
    }
}
