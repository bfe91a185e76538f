import ArgumentParser
import BGKBContent
import BGKBModel
import Foundation

/// `--content DIR`, shared by every subcommand, and the one way they load Content.
struct ContentOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The Content directory.", valueName: "dir"))
    var content: String = "Content"

    /// Loads Content and prints its diagnostics to standard error. Exits with status 1 when
    /// there is an error unless `allowErrors` is set (lint prints and decides itself).
    func load(printWarnings: Bool = true) throws -> ContentLoadResult {
        let result: ContentLoadResult
        do {
            result = try ContentLoader.load(directory: content)
            KeptUntilExit.keep(result)
        } catch {
            DiagnosticPrinter.standardError.print(line: "\(error)")
            throw ExitCode(2)
        }
        let shown = printWarnings ? result.diagnostics.all : result.diagnostics.errors
        DiagnosticPrinter.standardError.print(shown)
        return result
    }

    /// Like `load`, but stops with status 1 when Content has errors.
    func loadValid() throws -> ContentLoadResult {
        let result = try load(printWarnings: false)
        if result.diagnostics.hasErrors {
            DiagnosticPrinter.standardError.print(line: "error: Content has \(result.diagnostics.errors.count) error(s); run `bgkb lint` for details")
            throw ExitCode(1)
        }
        return result
    }
}
