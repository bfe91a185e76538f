import BGKBModel

/// Runs every example of the corpus through the engine, for the pages' verdicts and timelines.
/// The CLI and the staleness test both call this, so the committed site and a fresh build always
/// come from the same verdicts.
public enum ExampleRunner {
    public static func run(_ corpus: Corpus) -> (verdicts: [ExampleVerdict], diagnostics: Diagnostics) {
        var diagnostics = Diagnostics()
        // TODO(engine): call BGKBEngine's `check(_:)` for every example once the engine is merged
        // into main. Until then no example is run and no verdict is invented: the pages say
        // "not run", and this warning says why.
        if !corpus.examples.isEmpty {
            diagnostics.warning("examples-not-run", "\(corpus.examples.count) example(s) not run: the engine is not available in this build", at: nil)
        }
        return ([], diagnostics)
    }
}
