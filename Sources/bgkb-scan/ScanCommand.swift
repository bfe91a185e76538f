import ArgumentParser
import BGKBContent
import BGKBModel
import BGKBScan
import Foundation

/// `bgkb-scan`, which `bgkb scan` runs: checks an app's Swift code against the rules.
/// A product of its own so that swift-syntax stays out of `bgkb`'s first build.
@main
struct ScanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bgkb scan",
        abstract: "Check an app's Swift code against the rules: each finding with the schedule that breaks the rule and the fix.",
        discussion: """
            Files and folders (recursively) are scanned; files that mention none of the covered APIs are skipped \
            before parsing. Each finding prints as `path:line:column: warning: message [rule-id]`, then the schedule \
            that breaks the rule, the rule's "instead" and its page. Exit status 0 unless --strict and there are \
            findings (after the baseline). Silence one finding with `// bgkb:ignore rule-id` on or above its line.
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, plain, json, sarif
    }

    @Argument(help: ArgumentHelp("Swift files or folders to scan.", valueName: "path"))
    var paths: [String] = ["."]

    @Option(name: .long, help: ArgumentHelp("Skip paths matching this glob (`*`, `**`, `?`; repeatable), e.g. 'Pods' or '**/Generated/**'.", valueName: "glob"))
    var exclude: [String] = []

    @Option(name: .long, help: "text (default: findings with their schedules), plain (diagnostics only, for an Xcode Run Script phase), json or sarif (SARIF 2.1.0).")
    var format: Format = .text

    @Flag(name: .long, help: "Exit with status 1 when there are findings (new ones, with --baseline).")
    var strict = false

    @Option(name: .long, help: ArgumentHelp("Report only findings not recorded in FILE; when FILE does not exist, record today's findings in it.", valueName: "file"))
    var baseline: String?

    @Flag(name: .long, help: "With --baseline: record today's findings in the file even when it exists.")
    var updateBaseline = false

    @Option(name: .long, help: ArgumentHelp("Link rule pages under this URL (BASE/rules/ID.html) instead of Site/rules/ID.html.", valueName: "url"))
    var baseURL: String?

    @Flag(name: .long, help: "Also print the scenarios generated for each type (in the engine's scenario language), or why a type was not checked.")
    var scenarios = false

    @Option(name: .long, help: ArgumentHelp("The Content directory, for each rule's title and \"instead\".", valueName: "dir"))
    var content: String?

    func run() throws {
        let files: [String]
        do {
            files = try SourceFinder.find(paths, excluding: exclude)
        } catch {
            printError("error: \(error)")
            throw ExitCode(2)
        }
        var sources: [SwiftSource] = []
        for file in files {
            guard let data = FileManager.default.contents(atPath: file) else {
                printError("\(file): error: cannot read the file")
                throw ExitCode(2)
            }
            sources.append(SwiftSource(path: file, text: String(decoding: data, as: UTF8.self)))
        }
        let start = Date()
        let result = Scanner.scan(sources, keepingScenarios: scenarios)
        for scenario in result.scenarios { write(scenario + "\n") }
        let seconds = Date().timeIntervalSince(start)
        for problem in result.problems { printError("bgkb scan: internal problem (please report): \(problem)") }

        let texts = Dictionary(uniqueKeysWithValues: sources.map { ($0.path, $0.text.split(separator: "\n", omittingEmptySubsequences: false)) })
        let lineText: (Finding) -> String = { finding in
            guard let lines = texts[finding.path], finding.place.line >= 1, finding.place.line <= lines.count else { return "" }
            return String(lines[finding.place.line - 1])
        }
        var findings = result.findings
        var baselineNote = ""
        if let baseline {
            if updateBaseline || !FileManager.default.fileExists(atPath: baseline) {
                let recorded = Baseline(findings: findings, lineText: lineText)
                do {
                    try recorded.encoded().write(toFile: baseline, atomically: true, encoding: .utf8)
                } catch {
                    printError("\(baseline): error: cannot write the baseline: \(error.localizedDescription)")
                    throw ExitCode(2)
                }
                baselineNote = "; \(findings.count) recorded in \(baseline)"
                findings = []
            } else {
                guard let data = FileManager.default.contents(atPath: baseline),
                      let recorded = try? JSONDecoder().decode(Baseline.self, from: data) else {
                    printError("\(baseline): error: not a bgkb scan baseline (delete it or pass --update-baseline to record a new one)")
                    throw ExitCode(2)
                }
                let all = findings.count
                findings = recorded.new(findings, lineText: lineText)
                baselineNote = "; \(all - findings.count) in the baseline"
            }
        }
        let report = ScanReport(findings: findings, rules: loadRules(), baseURL: baseURL)
        switch format {
        case .text:
            write(report.text)
            let summary = "bgkb scan: \(findings.count) finding\(findings.count == 1 ? "" : "s") in \(result.filesRead) files "
                + "(\(result.filesParsed) parsed, \(result.lines) lines, \(String(format: "%.2f", seconds)) s)"
                + (result.suppressed > 0 ? "; \(result.suppressed) silenced by bgkb:ignore" : "") + baselineNote
            printError(summary)
        case .plain:
            write(report.plain)
        case .json:
            write(try report.json())
        case .sarif:
            write(try report.sarif(version: "0.1.0"))
        }
        if strict, !findings.isEmpty { throw ExitCode(1) }
    }

    /// Titles and "instead" of the rules, from Content (the directory given, ./Content, or the
    /// one next to the build folder this executable runs from). Without Content the report
    /// still names each rule and links its page.
    func loadRules() -> [String: RuleInfo] {
        var candidates: [String] = []
        if let content { candidates.append(content) }
        candidates.append("Content")
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        // .build/<config>/bgkb-scan → the package root is three levels up.
        candidates.append(executable.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Content").path)
        for directory in candidates {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue,
                  let loaded = try? ContentLoader.load(directory: directory) else {
                if directory == content { printError("\(directory): warning: cannot load Content; rules are named without their advice") }
                continue
            }
            return Dictionary(loaded.corpus.rules.map { ($0.id, RuleInfo(title: $0.title, instead: $0.instead)) }, uniquingKeysWith: { first, _ in first })
        }
        return [:]
    }

    func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    func printError(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
