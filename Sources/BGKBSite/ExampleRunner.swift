import BGKBEngine
import BGKBModel

/// Runs every example of the corpus through the engine, for the pages' verdicts and timelines.
/// The CLI and the staleness test both call this, so the committed site and a fresh build always
/// come from the same verdicts: nothing on a page is an outcome someone typed in.
public enum ExampleRunner {
    public static func run(_ corpus: Corpus) -> (verdicts: [ExampleVerdict], diagnostics: Diagnostics) {
        var verdicts: [ExampleVerdict] = []
        var diagnostics = Diagnostics()
        // Examples are independent and the engine is deterministic: check them on every core,
        // then read the results in corpus order.
        let results = ParallelMap.map(corpus.examples) { example in (example, BGKBEngine.check(example)) }
        for (example, (verdict, found)) in results {
            diagnostics.append(contentsOf: found)
            guard let verdict else {
                if !found.hasErrors {
                    diagnostics.error("example-not-run", "example \(example.identifier) could not be run", at: example.location)
                }
                continue
            }
            if !verdict.passed {
                diagnostics.error("example-failed", "example \(example.identifier) does not do what it says: \(verdict.summary)",
                                  at: example.location)
            }
            verdicts.append(verdict)
        }
        return (verdicts, diagnostics)
    }
}
