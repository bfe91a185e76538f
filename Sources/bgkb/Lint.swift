import ArgumentParser
import BGKBEngine
import BGKBModel

extension BGKB {
    /// Checks Content and prints every problem at once.
    struct Lint: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "lint", abstract: "Check Content and report every problem as path:line:column.")

        @OptionGroup var options: ContentOptions

        @Flag(name: .long, help: "Treat warnings as errors.")
        var strict = false

        func run() throws {
            let result = try options.load()
            let corpus = result.corpus
            // Every example's scenario is parsed too (not run: that is `bgkb check`), so a syntax
            // error or an expectation that could never hold is found here.
            var scenarios = Diagnostics()
            for found in ParallelMap.map(corpus.examples, { ScenarioParser.parse($0.text, at: $0.location).1 }) {
                scenarios.append(contentsOf: found)
            }
            DiagnosticPrinter.standardError.print(scenarios.all)
            let errors = result.diagnostics.errors.count + scenarios.errors.count
            let warnings = result.diagnostics.warnings.count + scenarios.warnings.count
            let versions = corpus.documents.reduce(0) { $0 + $1.versions.count }
            let summary = "\(corpus.rules.count) rules in \(corpus.documents.count) documents (\(versions) versions), "
                + "\(corpus.sources.count) sources, \(corpus.conflicts.count) conflicts, \(corpus.disputes.count) disputed claims, "
                + "\(corpus.examples.count) examples" + (result.chromeLines > 0 ? ", \(result.chromeLines) forum page line(s) left out" : "")
                + ": \(errors) error(s), \(warnings) warning(s)"
            DiagnosticPrinter.standardError.print(line: summary)
            if errors > 0 || (strict && warnings > 0) { throw ExitCode(1) }
        }
    }
}
