import ArgumentParser
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
            let errors = result.diagnostics.errors.count, warnings = result.diagnostics.warnings.count
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
