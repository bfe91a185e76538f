import Foundation
import SwiftParser
import SwiftSyntax

/// What a scan found in a set of files.
public struct ScanResult: Sendable {
    public var findings: [Finding] = []
    /// Findings silenced by a `// bgkb:ignore rule-id` comment.
    public var suppressed = 0
    /// Files read, and those among them that mention a covered API and were parsed.
    public var filesRead = 0
    public var filesParsed = 0
    public var lines = 0
    /// Scenarios the scan generated that the engine could not parse: a fault of the scan, shown
    /// so it can be fixed, never a finding in the app.
    public var problems: [String] = []
    /// With `keepingScenarios`: for each type, the scenarios the scan generated (flags all
    /// false), or why it made none.
    public var scenarios: [String] = []
}

/// Scans Swift sources: skips files that mention none of the covered APIs, parses the rest in
/// parallel, and runs each type's harness through the engine and the structural checks.
public enum Scanner {
    public static func scan(_ sources: [SwiftSource], keepingScenarios: Bool = false) -> ScanResult {
        let results = Slots<FileResult>(count: sources.count)
        DispatchQueue.concurrentPerform(iterations: sources.count) { index in
            results.set(index, scan(sources[index], keepingScenarios: keepingScenarios))
        }
        var result = ScanResult()
        result.filesRead = sources.count
        for index in sources.indices {
            guard let file = results.get(index) else { continue }
            result.lines += file.lines
            result.filesParsed += file.parsed ? 1 : 0
            result.findings.append(contentsOf: file.findings)
            result.suppressed += file.suppressed
            result.problems.append(contentsOf: file.problems)
            result.scenarios.append(contentsOf: file.scenarios)
        }
        result.findings.sort { ($0.path, $0.place, $0.rule) < ($1.path, $1.place, $1.rule) }
        return result
    }

    struct FileResult {
        var findings: [Finding] = []
        var suppressed = 0
        var problems: [String] = []
        var scenarios: [String] = []
        var lines = 0
        var parsed = false
    }

    static func scan(_ source: SwiftSource, keepingScenarios: Bool = false) -> FileResult {
        var result = FileResult()
        result.lines = source.text.utf8.reduce(0) { $1 == 10 ? $0 + 1 : $0 }
        guard source.mentionsCoveredAPI else { return result }
        result.parsed = true
        let tree = Parser.parse(source: source.text)
        let converter = SourceLocationConverter(fileName: source.path, tree: tree)
        var findings: [Finding] = []
        var engineSessions: Set<SourcePlace> = []
        let models = TypeCollector.collect(tree)
        let fileTypes = Dictionary(models.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        for model in models {
            guard let harness = HarnessBuilder.build(model, converter: converter, fileTypes: fileTypes) else { continue }
            if keepingScenarios {
                let header = "// \(source.path): \(model.name)"
                if let reason = harness.unmodelled {
                    result.scenarios.append("\(header): not checked: \(reason)\n")
                } else {
                    for concern in Harness.Concern.allCases where harness.applies(concern) {
                        for variant in 0..<harness.variants(of: concern) {
                            result.scenarios.append("\(header) (\(concern), flags \(harness.flags(for: concern).joined(separator: ", ")))\n"
                                                    + harness.text(flags: [], concern: concern, variant: variant))
                        }
                    }
                }
            }
            guard harness.unmodelled == nil else { continue }
            if let place = harness.sessionPlace { engineSessions.insert(place) }
            let checked = EngineCheck.findings(harness, path: source.path)
            findings.append(contentsOf: checked.findings)
            result.problems.append(contentsOf: checked.problems)
        }
        // Where the engine ran a background session's events, the structural check stays silent.
        let structural = StructuralChecks(path: source.path, file: tree, converter: converter, engineCheckedSessions: engineSessions)
        for place in structural.beginsWithoutHandler where !findings.contains(where: { $0.place == place && $0.family == .noExpirationHandler }) {
            if let finding = EngineCheck.beginWithoutHandler(at: place, path: source.path) { findings.append(finding) }
        }
        findings.append(contentsOf: structural.findings)
        let lines = source.text.split(separator: "\n", omittingEmptySubsequences: false)
        for finding in findings {
            if Suppression.isSuppressed(finding, lines: lines) { result.suppressed += 1 } else { result.findings.append(finding) }
        }
        return result
    }
}

/// `// bgkb:ignore rule-id` (several ids separated by spaces or commas, or none for every rule)
/// on the finding's line or the line above silences it.
public enum Suppression {
    static func isSuppressed(_ finding: Finding, lines: [Substring]) -> Bool {
        for number in [finding.place.line, finding.place.line - 1] where number >= 1 && number <= lines.count {
            let line = lines[number - 1]
            guard let range = line.range(of: "bgkb:ignore") else { continue }
            let ids = line[range.upperBound...].split { $0 == " " || $0 == "," || $0 == "\t" }.map(String.init)
            let named = ids.prefix { !$0.hasPrefix("//") && !$0.hasPrefix("—") && !$0.hasPrefix("-") }
            if named.isEmpty || named.contains(finding.rule) || named.contains(finding.family.rawValue) { return true }
        }
        return false
    }
}

/// Result slots written from concurrent iterations, one writer per slot.
final class Slots<Value>: @unchecked Sendable {
    private var slots: [Value?]
    private let lock = NSLock()
    init(count: Int) { slots = Array(repeating: nil, count: count) }
    func set(_ index: Int, _ value: Value) {
        lock.lock()
        slots[index] = value
        lock.unlock()
    }
    func get(_ index: Int) -> Value? {
        lock.lock()
        defer { lock.unlock() }
        return slots[index]
    }
}
