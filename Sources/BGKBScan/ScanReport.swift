import Foundation

/// What the report says about a rule, from Content: its title, its "instead", its page.
public struct RuleInfo: Sendable {
    public var title: String
    public var instead: String?

    public init(title: String, instead: String?) {
        self.title = title
        self.instead = instead
    }
}

/// Turns findings into text: diagnostics with timelines, plain diagnostics (for Xcode), JSON,
/// or SARIF 2.1.0 (for GitHub code scanning). Only text: the executable prints it.
public struct ScanReport {
    public var findings: [Finding]
    public var rules: [String: RuleInfo]
    /// Where rule pages live: `Site/rules/ID.html` by default, or `BASE/rules/ID.html`.
    public var baseURL: String?

    public init(findings: [Finding], rules: [String: RuleInfo], baseURL: String?) {
        self.findings = findings
        self.rules = rules
        self.baseURL = baseURL
    }

    public func link(_ rule: String) -> String {
        guard let baseURL else { return "Site/rules/\(rule).html" }
        return (baseURL.hasSuffix("/") ? baseURL : baseURL + "/") + "rules/\(rule).html"
    }

    /// The tool's page: the site's home with `--base-url`, otherwise a URN (SARIF wants an absolute URI).
    public var informationURI: String { baseURL.map { $0.hasSuffix("/") ? $0 : $0 + "/" } ?? "urn:bgkb:scan" }

    /// `path:line:column: warning: message [rule-id]`, the form Xcode and editors read.
    public func diagnostic(_ finding: Finding) -> String {
        "\(finding.path):\(finding.place.line):\(finding.place.column): warning: \(finding.message) [\(finding.rule)]"
    }

    /// Each diagnostic, then the schedule that breaks the rule, the rule's "instead" and its page.
    public var text: String {
        var out = ""
        for finding in findings {
            out += diagnostic(finding) + "\n"
            let basis = finding.basis == .engine ? "schedule that breaks it" : "found from the code's shape (the scan could not lower this code into a scenario)"
            out += "    \(basis):\n"
            for line in finding.timeline { out += "      \(line)\n" }
            if let instead = rules[finding.rule]?.instead { out += "    instead: \(Self.oneLine(instead))\n" }
            out += "    see: \(link(finding.rule))\n\n"
        }
        return out
    }

    /// One diagnostic a line, nothing else: for an Xcode Run Script phase.
    public var plain: String {
        findings.map { diagnostic($0) + "\n" }.joined()
    }

    struct JSONFinding: Encodable {
        var path: String
        var line: Int
        var column: Int
        var rule: String
        var family: String
        var basis: String
        var message: String
        var timeline: [String]
        var schedule: String?
        var instead: String?
        var link: String
    }

    public func json() throws -> String {
        let items = findings.map { finding in
            JSONFinding(path: finding.path, line: finding.place.line, column: finding.place.column, rule: finding.rule,
                        family: finding.family.rawValue, basis: finding.basis.rawValue, message: finding.message,
                        timeline: finding.timeline, schedule: finding.schedule, instead: rules[finding.rule]?.instead.map(Self.oneLine),
                        link: link(finding.rule))
        }
        return try Self.encode(["findings": items])
    }

    /// SARIF 2.1.0: one run, the rules the findings break in `tool.driver.rules`, one result per finding.
    public func sarif(version: String) throws -> String {
        let ruleIDs = Array(Set(findings.map(\.rule))).sorted()
        let rules = ruleIDs.map { id -> SARIF.Rule in
            let info = self.rules[id]
            return SARIF.Rule(id: id, name: id, shortDescription: .init(text: info?.title ?? id),
                              help: info?.instead.map { .init(text: Self.oneLine($0)) }, helpUri: link(id))
        }
        let results = findings.map { finding in
            SARIF.Result(ruleId: finding.rule, ruleIndex: ruleIDs.firstIndex(of: finding.rule) ?? 0, level: "warning",
                         message: .init(text: finding.message),
                         locations: [.init(physicalLocation: .init(artifactLocation: .init(uri: finding.path),
                                                                   region: .init(startLine: finding.place.line, startColumn: finding.place.column)))])
        }
        let log = SARIF.Log(version: "2.1.0", schema: "https://json.schemastore.org/sarif-2.1.0.json",
                            runs: [.init(tool: .init(driver: .init(name: "bgkb scan", version: version, informationUri: informationURI, rules: rules)),
                                         results: results)])
        return try Self.encode(log)
    }

    static func encode(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self) + "\n"
    }

    static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
    }
}

/// The parts of SARIF 2.1.0 the report writes.
enum SARIF {
    struct Log: Encodable {
        var version: String
        var schema: String
        var runs: [Run]
        enum CodingKeys: String, CodingKey { case version, schema = "$schema", runs }
    }
    struct Run: Encodable {
        var tool: Tool
        var results: [Result]
    }
    struct Tool: Encodable { var driver: Driver }
    struct Driver: Encodable {
        var name: String
        var version: String
        var informationUri: String
        var rules: [Rule]
    }
    struct Text: Encodable { var text: String }
    struct Rule: Encodable {
        var id: String
        var name: String
        var shortDescription: Text
        var help: Text?
        var helpUri: String
    }
    struct Result: Encodable {
        var ruleId: String
        var ruleIndex: Int
        var level: String
        var message: Text
        var locations: [Location]
    }
    struct Location: Encodable { var physicalLocation: PhysicalLocation }
    struct PhysicalLocation: Encodable {
        var artifactLocation: ArtifactLocation
        var region: Region
    }
    struct ArtifactLocation: Encodable { var uri: String }
    struct Region: Encodable {
        var startLine: Int
        var startColumn: Int
    }
}

/// Findings recorded on a day, so only new ones fail: keyed by file, rule and the text of the
/// anchor line (so edits elsewhere in the file do not make old findings look new).
public struct Baseline: Codable, Sendable {
    public var version = 1
    public var findings: [Entry]

    public struct Entry: Codable, Hashable, Sendable {
        public var path: String
        public var rule: String
        public var line: String
    }

    public init(findings: [Finding], lineText: (Finding) -> String) {
        self.findings = findings.map { Entry(path: $0.path, rule: $0.rule, line: lineText($0).trimmingCharacters(in: .whitespaces)) }
    }

    /// The findings not in the baseline (each recorded entry excuses one finding).
    public func new(_ findings: [Finding], lineText: (Finding) -> String) -> [Finding] {
        var remaining = Dictionary(self.findings.map { ($0, 1) }, uniquingKeysWith: +)
        return findings.filter { finding in
            let key = Entry(path: finding.path, rule: finding.rule, line: lineText(finding).trimmingCharacters(in: .whitespaces))
            if let count = remaining[key], count > 0 {
                remaining[key] = count - 1
                return false
            }
            return true
        }
    }

    public func encoded() throws -> String { try ScanReport.encode(self) }
}
