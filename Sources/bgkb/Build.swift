import ArgumentParser
import BGKBExamples
import BGKBModel
import BGKBSite
import Foundation

extension BGKB {
    /// Lints Content, runs every example, and writes the static site.
    struct Build: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "build",
            abstract: "Generate the static site (default Content/ → Site/) from Content and the engine's verdicts.",
            discussion: """
            Content is linted and every example is run first; on any error the diagnostics are printed, the \
            exit status is non-zero and the previous output is left untouched. The same input always gives \
            byte-identical output.
            """
        )

        @OptionGroup var options: ContentOptions

        @Option(name: .long, help: ArgumentHelp("Where to write the site.", valueName: "dir"))
        var output: String = "Site"

        @Option(name: .long, help: ArgumentHelp(
            "The absolute URL the site is published at, for sitemap.xml and the Atom feed.",
            discussion: "Without it there is no sitemap.xml and the feed links relatively: no domain is invented.", valueName: "url"))
        var baseURL: String?

        @Option(name: .long, help: ArgumentHelp(
            "The URL Content-relative paths are appended to for each page's \"Edit this page\" link, e.g. https://github.com/ORG/bgkb/edit/main/Content/.",
            discussion: "Without it pages carry no edit link.", valueName: "url"))
        var repoURL: String?

        @Flag(name: .long, help: ArgumentHelp(
            "Build the browser quiz's questions from this Content even when they are not the ones bgkb was built with.",
            discussion: "By default the browser quiz uses the question bank embedded in bgkb when the site is built from the same Content (as `swift run bgkb build` ensures), and carries no questions otherwise: building a bank runs every example again under several conditions."))
        var quizBank = false

        @Flag(name: .long, help: "Print how long each build step took.")
        var timings = false

        @Flag(name: .long, help: "Write nothing; exit 1 when the output folder is not what a build produces now.")
        var check = false

        @Flag(name: .long, help: ArgumentHelp(
            "Explore every example, ignoring and leaving alone the verdicts of earlier builds.",
            discussion: "By default a build reuses what earlier builds of the same engine found for examples whose text is unchanged, kept in .<output>.verdicts next to the output folder. --check never uses it."))
        var noCache = false

        func run() throws {
            let clock = ContinuousClock()
            let started = clock.now
            let err = DiagnosticPrinter.standardError

            let loaded = try options.loadValid()
            let loadTime = clock.now - started

            var configuration = SiteConfiguration(baseURL: baseURL, repositoryURL: repoURL, contentDirectory: options.content)
            configuration.contentFingerprint = loaded.fingerprint
            configuration.computesQuizBank = quizBank
            let target = URL(fileURLWithPath: output)
            if check {
                try checkOnly(loaded.corpus, configuration: configuration, target: target)
                return
            }

            // Pages go straight into a staging folder next to the output as they are rendered (so
            // they are never all in memory), each rule's examples run just before its page (so
            // their traces are never all in memory either); only a build without errors is
            // swapped into place. Example errors are reported alone, as when they ran first.
            let staging: SiteWriter.Staging
            do {
                staging = try SiteWriter.stage(target)
            } catch {
                err.print(line: "error: \(error)")
                throw ExitCode(2)
            }
            // Verdicts of earlier builds: an example whose text and engine are unchanged is not
            // explored again (its pages are still drawn from runs replayed now).
            let cacheFile = target.deletingLastPathComponent().appendingPathComponent(".\(target.lastPathComponent).verdicts")
            let cacheStart = clock.now
            let cache = loadCache(cacheFile)
            let cacheTime = clock.now - cacheStart
            let (site, writeError) = SiteBuilder.build(corpus: loaded.corpus, configuration: configuration, cache: cache,
                                                       runningExamplesInto: staging)
            err.print(site.exampleDiagnostics.sorted)
            if site.exampleDiagnostics.hasErrors {
                staging.discard()
                err.print(line: "error: examples failed; \(output) left untouched")
                throw ExitCode(1)
            }
            err.print(site.diagnostics.sorted)
            if site.diagnostics.hasErrors {
                staging.discard()
                err.print(line: "error: the site has \(site.diagnostics.errors.count) error(s); \(output) left untouched")
                throw ExitCode(1)
            }
            if let writeError {
                staging.discard()
                err.print(line: "error: \(writeError); \(output) left untouched")
                throw ExitCode(2)
            }

            let swapStart = clock.now
            do {
                try staging.commit()
            } catch {
                err.print(line: "error: \(error)")
                throw ExitCode(2)
            }
            let swapTime = clock.now - swapStart
            if let cache {
                do {
                    try VerdictCache.write(site.verdictCacheFile ?? cache.encodedRecords(), to: cacheFile)
                } catch {
                    // The site is in place; only the next build's speed is at stake.
                    err.print(line: "warning: \(cacheFile.path): cannot save the verdict cache: \(error.localizedDescription)")
                }
            }

            if timings {
                print(Self.row("load and lint Content", files: nil, loadTime))
                if cache != nil { print(Self.row("read the verdict cache", files: nil, cacheTime)) }
                let examplesTime = site.examplesTime ?? .zero
                print(Self.row("run \(loaded.corpus.examples.count) examples", files: nil, examplesTime)
                    + Self.throughput(site.examplesWork, examplesTime, reused: cache?.hits ?? 0))
                for step in site.steps { print(Self.row((step.inGroup ? "  " : "") + step.name, files: step.fileCount, step.duration)) }
                print(Self.row("swap into place", files: nil, swapTime))
            }
            let kilobytes = (site.totalBytes + 1023) / 1024
            print("wrote \(site.fileCount) files (\(kilobytes) KB) to \(output)/ in \(Self.milliseconds(clock.now - started)) ms")
        }

        /// `--check`: builds in memory from verdicts run now (never the cache) and compares with
        /// the output folder; writes nothing.
        private func checkOnly(_ corpus: Corpus, configuration: SiteConfiguration, target: URL) throws {
            let err = DiagnosticPrinter.standardError
            let (verdicts, exampleDiagnostics) = ExampleRunner.run(corpus)
            err.print(exampleDiagnostics.sorted)
            if exampleDiagnostics.hasErrors {
                err.print(line: "error: examples failed; \(output) left untouched")
                throw ExitCode(1)
            }
            let site = SiteBuilder.build(corpus: corpus, verdicts: verdicts, configuration: configuration)
            err.print(site.diagnostics.sorted)
            if site.diagnostics.hasErrors {
                err.print(line: "error: the site has \(site.diagnostics.errors.count) error(s); \(output) left untouched")
                throw ExitCode(1)
            }
            let stale: [String]
            do {
                stale = try SiteWriter.differences(site, directory: target)
            } catch {
                err.print(line: "error: \(error)")
                throw ExitCode(2)
            }
            if !stale.isEmpty {
                for path in stale.prefix(20) { err.print(line: "stale: \(output)/\(path)") }
                if stale.count > 20 { err.print(line: "... and \(stale.count - 20) more") }
                err.print(line: "error: \(output)/ is stale: run `swift run bgkb build`")
                throw ExitCode(1)
            }
            print("\(output)/ is up to date (\(site.files.count) files)")
        }

        /// Verdicts of earlier builds by this very executable, or nil with `--no-cache`.
        private func loadCache(_ cacheFile: URL) -> VerdictCache? {
            guard !noCache else { return nil }
            let err = DiagnosticPrinter.standardError
            // The engine's identity is this very executable: any rebuild with other code
            // misses every record rather than trusting a verdict an older engine gave.
            guard let executable = Bundle.main.executablePath, let engine = VerdictCache.identity(ofFileAt: executable) else {
                err.print(line: "warning: cannot read bgkb's own executable to identify the engine; exploring every example")
                return nil
            }
            let (cache, warning) = VerdictCache.load(from: cacheFile, engine: engine)
            if let warning { err.print(line: "warning: \(warning)") }
            return cache
        }

        static func milliseconds(_ duration: Duration) -> String {
            let (seconds, attoseconds) = duration.components
            let ms = Double(seconds) * 1000 + Double(attoseconds) / 1e15
            return ms < 10 ? String(Double(Int(ms * 10)) / 10) : String(Int(ms.rounded()))
        }

        /// `2819 examples/s; 43675262 events in 2542342 schedules = 30.8 M events/s`: the example
        /// step in the engine's units, per second of the step's wall time (both cores at work).
        /// With verdicts from the cache (`reused`: from earlier builds, or from an example with the
        /// same text earlier in this one), says how many; the events per second are those of the
        /// examples explored now (replaying the pages' runs is counted as no events).
        static func throughput(_ work: ExampleWork, _ duration: Duration, reused: Int = 0) -> String {
            let (whole, fraction) = duration.components
            let seconds = Double(whole) + Double(fraction) / 1e18
            guard seconds > 0, work.examples > 0 else { return "" }
            let examplesPerSecond = Int((Double(work.examples) / seconds).rounded())
            let eventsPerSecond = Double(work.events) / seconds / 1e6
            let millions = (eventsPerSecond * 10).rounded() / 10
            if reused == work.examples {
                return "  \(examplesPerSecond) examples/s; \(reused) verdicts reused, 0 explored (\(work.schedules) schedules covered by them)"
            }
            let cached = reused > 0 ? "; \(reused) verdicts reused, \(work.examples - reused) explored" : ""
            return "  \(examplesPerSecond) examples/s; \(work.events) events in \(work.schedules) schedules = \(millions) M events/s" + cached
        }

        static func row(_ name: String, files: Int?, _ duration: Duration) -> String {
            let time = milliseconds(duration) + " ms"
            let count = files.map { $0 == 1 ? "1 file" : "\($0) files" } ?? ""
            return name.padding(toLength: 34, withPad: " ", startingAt: 0)
                + String(repeating: " ", count: max(0, 10 - time.count)) + time
                + "  " + count
        }
    }
}
