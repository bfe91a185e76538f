import BGKBContent
import BGKBEngine
import BGKBModel
import BGKBScan
import Foundation
import Testing

/// For Content examples, the Swift an app would contain (written by hand, in
/// Tests/Fixtures/scan/content-examples, named `rule-id.intent.swift`) gets from the scan the
/// verdict the engine gives the example: findings for a `breaks` example, silence for `follows`.
@Suite struct ContentVerdictTests {
    static let folder = repositoryRoot + "/Tests/Fixtures/scan/content-examples"
    static let files = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".swift") }.sorted()
    static let rules: [String: BGKBModel.Rule] = {
        guard let loaded = try? ContentLoader.load(directory: repositoryRoot + "/Content") else { return [:] }
        return Dictionary(loaded.corpus.rules.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }()

    @Test func thereAreSeveral() {
        #expect(Self.files.count >= 6)
    }

    @Test(arguments: files)
    func theScanAgreesWithTheEngine(_ file: String) throws {
        let parts = file.split(separator: ".")
        let ruleID = String(parts[0])
        let intent = try #require(Example.Intent(rawValue: String(parts[1])))
        let rule = try #require(Self.rules[ruleID], "no rule \(ruleID) in Content")
        let example = try #require(rule.examples.first { $0.intent == intent }, "\(ruleID) has no \(intent) example")
        let (verdict, _) = check(example)
        #expect(verdict?.passed == true, "the engine does not give \(example.identifier) its stated verdict")
        let text = try String(contentsOfFile: Self.folder + "/" + file, encoding: .utf8)
        let findings = Scanner.scan([SwiftSource(path: file, text: text)]).findings
        if intent == .breaks {
            #expect(!findings.isEmpty, "the engine breaks \(example.identifier) but the scan finds nothing in \(file)")
        } else {
            #expect(findings.isEmpty, "the engine holds \(example.identifier) but the scan reports \(findings.map { "\($0.place.line) \($0.rule)" })")
        }
    }
}
