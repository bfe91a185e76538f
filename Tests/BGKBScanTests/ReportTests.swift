@testable import BGKBScan
import Foundation
import Testing

/// The report's forms: diagnostics, SARIF 2.1.0, JSON; suppression, baselines and globs.
@Suite struct ReportTests {
    static let listing = """
    import UIKit

    final class Uploader {
        var backgroundTaskID: UIBackgroundTaskIdentifier?

        func applicationDidEnterBackground(_ application: UIApplication) {
            DispatchQueue.global().async {
                self.backgroundTaskID = UIApplication.shared.beginBackgroundTask(withName: "Send") {
                    UIApplication.shared.endBackgroundTask(self.backgroundTaskID!)
                    self.backgroundTaskID = .invalid
                }
                self.upload()
                UIApplication.shared.endBackgroundTask(self.backgroundTaskID!)
                self.backgroundTaskID = .invalid
            }
        }
    }
    """

    static func scan(_ text: String, path: String = "App/Uploader.swift") -> ScanResult {
        Scanner.scan([SwiftSource(path: path, text: text)])
    }

    /// Apple's listing breaks three rules: the race on the identifier, the second call's
    /// overwrite, and the work's end after the handler's.
    @Test func theListingBreaksThreeRules() {
        let families = Self.scan(Self.listing).findings.map(\.family)
        #expect(families == [.identifierRace, .overwrittenIdentifier, .endedTwice])
    }

    @Test func aFindingIsADiagnosticWithItsScheduleInsteadAndLink() throws {
        let result = Self.scan(Self.listing)
        let finding = try #require(result.findings.first)
        #expect(finding.family == .identifierRace)
        let report = ScanReport(findings: [finding], rules: [finding.rule: RuleInfo(title: "T", instead: "Begin on main.")], baseURL: nil)
        let lines = report.text.split(separator: "\n").map(String.init)
        #expect(lines.first == "App/Uploader.swift:8:37: warning: \(finding.message) [listing-identifier-read-before-stored]")
        #expect(lines.contains { $0.contains("the system calls task 1") })
        #expect(lines.contains { $0.contains("(line 8)") })
        #expect(lines.contains("    instead: Begin on main."))
        #expect(lines.contains("    see: Site/rules/listing-identifier-read-before-stored.html"))
        let linked = ScanReport(findings: [finding], rules: [:], baseURL: "https://example.com/kb")
        #expect(linked.text.contains("see: https://example.com/kb/rules/listing-identifier-read-before-stored.html"))
        #expect(report.plain == "App/Uploader.swift:8:37: warning: \(finding.message) [listing-identifier-read-before-stored]\n")
    }

    @Test func sarifHasWhatTheFormatRequires() throws {
        let result = Self.scan(Self.listing)
        let report = ScanReport(findings: result.findings, rules: [:], baseURL: "https://example.com/kb/")
        let data = Data(try report.sarif(version: "1.0").utf8)
        let log = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(log["version"] as? String == "2.1.0")
        #expect((log["$schema"] as? String)?.contains("sarif-2.1.0") == true)
        let run = try #require((log["runs"] as? [[String: Any]])?.first)
        let driver = try #require((run["tool"] as? [String: Any])?["driver"] as? [String: Any])
        #expect(driver["name"] as? String == "bgkb scan")
        #expect(driver["informationUri"] as? String == "https://example.com/kb/")
        let rules = try #require(driver["rules"] as? [[String: Any]])
        #expect(Set(rules.compactMap { $0["id"] as? String }) == Set(result.findings.map(\.rule)))
        let results = try #require(run["results"] as? [[String: Any]])
        #expect(results.count == result.findings.count)
        for item in results {
            let index = try #require(item["ruleIndex"] as? Int)
            #expect(rules.indices.contains(index) && rules[index]["id"] as? String == item["ruleId"] as? String)
        }
        let first = try #require(results.first { $0["ruleId"] as? String == "listing-identifier-read-before-stored" })
        #expect(first["level"] as? String == "warning")
        #expect(((first["message"] as? [String: Any])?["text"] as? String)?.isEmpty == false)
        let location = try #require((first["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])
        #expect((location["artifactLocation"] as? [String: Any])?["uri"] as? String == "App/Uploader.swift")
        let region = try #require(location["region"] as? [String: Any])
        #expect(region["startLine"] as? Int == 8)
        #expect(region["startColumn"] as? Int == 37)
    }

    @Test func jsonListsEachFindingWithItsSchedule() throws {
        let result = Self.scan(Self.listing)
        let report = ScanReport(findings: result.findings, rules: [:], baseURL: nil)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(try report.json().utf8)) as? [String: Any])
        let findings = try #require(object["findings"] as? [[String: Any]])
        #expect(findings.first?["rule"] as? String == "listing-identifier-read-before-stored")
        #expect(findings.first?["basis"] as? String == "engine")
        #expect((findings.first?["schedule"] as? String)?.contains("expire=") == true)
    }

    /// Line 8 carries the race and the overwrite: a comment naming one silences it, a bare one both.
    @Test(arguments: [
        ("// bgkb:ignore listing-identifier-read-before-stored", 1),
        ("// bgkb:ignore", 2),
        ("// bgkb:ignore identifier-race", 1),
        ("// bgkb:ignore end-every-task-you-begin", 0),
    ])
    func ignoreCommentsOnOrAboveTheLine(comment: String, silenced: Int) {
        var lines = Self.listing.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let above = lines
        lines[7] += " " + comment
        var aboveLines = above
        aboveLines.insert("            " + comment, at: 7)
        for text in [lines.joined(separator: "\n"), aboveLines.joined(separator: "\n")] {
            let result = Self.scan(text)
            #expect(result.findings.contains { $0.family == .identifierRace } == (silenced == 0))
            #expect(result.suppressed == silenced)
        }
    }

    @Test func aBaselineExcusesTodaysFindingsEvenWhenLinesMove() {
        let today = Self.scan(Self.listing).findings
        let lineText: (String) -> (Finding) -> String = { text in
            { finding in String(text.split(separator: "\n", omittingEmptySubsequences: false)[finding.place.line - 1]) }
        }
        let baseline = Baseline(findings: today, lineText: lineText(Self.listing))
        let moved = "// a new header line\n" + Self.listing
        let tomorrow = Self.scan(moved).findings
        #expect(tomorrow.first?.place.line == 9)
        #expect(baseline.new(tomorrow, lineText: lineText(moved)).isEmpty)
        let other = Self.listing.replacingOccurrences(of: "withName: \"Send\"", with: "withName: \"Resend\"")
        // The two findings on the edited line are new; the one on an untouched line is not.
        #expect(baseline.new(Self.scan(other).findings, lineText: lineText(other)).count == 2)
    }

    @Test(arguments: [
        ("Pods", "App/Pods/Lib/A.swift", true),
        ("*.generated.swift", "App/Model.generated.swift", true),
        ("**/Generated/**", "App/Sources/Generated/X.swift", true),
        ("Sources/*/X.swift", "App/Sources/Generated/X.swift", true),
        ("Sources/*/X.swift", "App/Sources/A/B/X.swift", false),
        ("Tests", "App/Sources/Tests.swift", false),
    ])
    func excludeGlobs(pattern: String, path: String, excluded: Bool) {
        #expect(Glob.matches(pattern, path) == excluded)
    }

    @Test func filesWithoutTheAPIsAreNotParsed() {
        let result = Scanner.scan([SwiftSource(path: "A.swift", text: "struct A { func f() { print(1) } }\n"),
                                   SwiftSource(path: "B.swift", text: Self.listing)])
        #expect(result.filesRead == 2)
        #expect(result.filesParsed == 1)
    }
}
