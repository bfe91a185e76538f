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
        let timeline = TimelineRenderer.render(v.shownTrace)
        #expect(v.passed, "\(c.example.location): \(c.example.intent.rawValue): \(v.summary)\n\(timeline)")
        #expect(v.exhausted, "\(c.example.location): \(v.summary)")
    }

    /// `explore` tries each space without the state cache first and goes back to it only when
    /// that attempt cannot cover the space: the verdict and the failure found are those of a
    /// cached exploration from the start, and a space larger than the attempt is still covered.
    @Test(arguments: cases)
    func theAttemptWithoutTheCacheGivesTheCachedVerdict(_ c: Case) throws {
        let scenario = try #require(ScenarioParser.parse(c.example.text, at: c.example.location).0)
        var always = Explorer.Options()
        always.uncachedAttempt = 0
        let cached = Explorer(scenario: scenario, options: always).explore(checking: c.example.intent)
        let adaptive = Explorer(scenario: scenario).explore(checking: c.example.intent)
        #expect(adaptive.exhausted && cached.exhausted)
        #expect((adaptive.failure == nil) == (cached.failure == nil))
        var small = Explorer.Options()
        small.uncachedAttempt = 5
        let retried = Explorer(scenario: scenario, options: small).explore(checking: c.example.intent)
        #expect(retried.exhausted)
        #expect((retried.failure == nil) == (cached.failure == nil))
    }

    /// The state cache changes no example's verdict and loses none of its outcomes: explored
    /// whole, with and without it, the runs end in the same distinct ways.
    @Test(arguments: cases)
    func theStateCacheKeepsEveryOutcome(_ c: Case) throws {
        let scenario = try #require(ScenarioParser.parse(c.example.text, at: c.example.location).0)
        var options = Explorer.Options()
        options.maxRuns = 300_000
        options.cachesStates = false
        let whole = Explorer(scenario: scenario, options: options).reachableOutcomes()
        options.cachesStates = true
        let cached = Explorer(scenario: scenario, options: options).reachableOutcomes(depthFirst: c.example.intent == .follows)
        #expect(whole.result.exhausted && cached.result.exhausted)
        #expect(cached.outcomes == whole.outcomes, "\(cached.outcomes.symmetricDifference(whole.outcomes))")
        #expect((cached.result.failure == nil) == (whole.result.failure == nil))
        #expect(cached.result.systematicRuns <= whole.result.systematicRuns)
    }

    /// The partial-order reduction (hidden steps taken first, `Machine.systemHiding`) changes no
    /// example's verdict and loses none of its ends: explored whole without the state cache, with
    /// and without it, the runs end in the same distinct ways and fail the same expectations.
    @Test(arguments: cases)
    func thePartialOrderReductionKeepsEveryEnd(_ c: Case) throws {
        let scenario = try #require(ScenarioParser.parse(c.example.text, at: c.example.location).0)
        var options = Explorer.Options()
        options.maxRuns = 300_000
        options.cachesStates = false
        options.randomSchedules = 0
        let reduced = Explorer(scenario: scenario, options: options).reachableOutcomes()
        options.takesHiddenStepsFirst = false
        let whole = Explorer(scenario: scenario, options: options).reachableOutcomes()
        #expect(whole.result.exhausted && reduced.result.exhausted)
        #expect(reduced.outcomes == whole.outcomes, "\(reduced.outcomes.symmetricDifference(whole.outcomes))")
        #expect(reduced.result.systematicRuns <= whole.result.systematicRuns)
    }
}
