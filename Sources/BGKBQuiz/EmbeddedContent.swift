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

    /// Outcomes the engine computed at build time for every embedded example under every
    /// `RunConditions.all`, keyed `example.identifier|conditions.tableKey`.
    public static func outcomeTable() -> [String: SimulationOutcome] {
        (try? JSONDecoder().decode([String: SimulationOutcome].self, from: Data(generatedOutcomesJSON.utf8))) ?? [:]
    }

    /// Answers from the build-time table, and from `fallback` (the live engine) for anything the
    /// table lacks: the embedded corpus starts without running a single scenario.
    public static func outcomeSource(fallback: OutcomeSource?) -> OutcomeSource? {
        let table = outcomeTable()
        if table.isEmpty { return fallback }
        return { example, conditions in
            table[example.identifier + "|" + conditions.tableKey] ?? fallback?(example, conditions)
        }
    }
}
