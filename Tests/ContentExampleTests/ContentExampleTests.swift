import BGKBContent
import BGKBEngine
import BGKBModel
import Foundation
import Testing

/// Every example in Content/ is its own test case, named `rule-id:line`: `swift test` fails when
/// an example does not behave as its rule says, and the name says which one.
@Suite struct ContentExampleTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var example: Example
        var testDescription: String { example.identifier }
    }

    static let contentDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Content").path

    static let loaded: ContentLoadResult? = try? ContentLoader.load(directory: contentDirectory)

    static let cases: [Case] = (loaded?.corpus.rules ?? []).flatMap { $0.examples.map { Case(example: $0) } }

    @Test func contentLoads() throws {
        let result = try #require(Self.loaded, "Content/ did not load from \(Self.contentDirectory)")
        #expect(!result.diagnostics.hasErrors, "\(result.diagnostics.errors.map(\.description).joined(separator: "\n"))")
    }

    @Test(arguments: cases)
    func example(_ c: Case) throws {
        let (verdict, diagnostics) = check(c.example)
        #expect(!diagnostics.hasErrors, "\(diagnostics.all.map(\.description).joined(separator: "\n"))")
        let v = try #require(verdict)
        let timeline = TimelineRenderer.render(v.counterexample ?? v.representative)
        #expect(v.passed, "\(c.example.location): \(c.example.intent.rawValue): \(v.summary)\n\(timeline)")
    }
}
