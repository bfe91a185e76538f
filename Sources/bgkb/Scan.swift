import ArgumentParser
import Foundation

extension BGKB {
    /// `bgkb scan`: runs the `bgkb-scan` executable built next to this one, with the same
    /// arguments. The scan parses Swift with swift-syntax, which would more than double a first
    /// build of `bgkb`; kept in its own product, `bgkb build` and `bgkb quiz` do not pay for it.
    struct Scan: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "scan",
            abstract: "Check an app's Swift code against the rules (runs bgkb-scan; `bgkb scan --help` for its options).",
            discussion: "Build the scanner once with `swift build --product bgkb-scan` (or `swift build`, which builds every product)."
        )

        @Argument(parsing: .captureForPassthrough, help: ArgumentHelp("Paths and options, passed to bgkb-scan.", valueName: "arguments"))
        var arguments: [String] = []

        func run() throws {
            let here = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
            let scanner = here.appendingPathComponent("bgkb-scan")
            guard FileManager.default.isExecutableFile(atPath: scanner.path) else {
                FileHandle.standardError.write(Data("error: bgkb scan needs the bgkb-scan executable next to bgkb (\(scanner.path)); build it with `swift build --product bgkb-scan`\n".utf8))
                throw ExitCode(2)
            }
            let process = Process()
            process.executableURL = scanner
            process.arguments = arguments
            do {
                try process.run()
            } catch {
                FileHandle.standardError.write(Data("error: cannot run \(scanner.path): \(error.localizedDescription)\n".utf8))
                throw ExitCode(2)
            }
            process.waitUntilExit()
            if process.terminationStatus != 0 { throw ExitCode(process.terminationStatus) }
        }
    }
}
