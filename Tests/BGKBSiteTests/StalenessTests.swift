import BGKBExamples
import BGKBContent
import Foundation
import Testing
@testable import BGKBSite

/// The committed Site/ must be exactly what `bgkb build` makes from the committed Content/.
@Suite struct StalenessTests {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let siteFolder = packageRoot.appendingPathComponent("Site")
    static let contentFolder = packageRoot.appendingPathComponent("Content")

    /// As `bgkb build` configures a build of Content: with its fingerprint, so the browser quiz
    /// uses the bank embedded in this binary.
    static func configuration(_ loaded: ContentLoadResult) -> SiteConfiguration {
        var configuration = SiteConfiguration(contentDirectory: contentFolder.path)
        configuration.contentFingerprint = loaded.fingerprint
        return configuration
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: siteFolder.appendingPathComponent("index.html").path),
                   "Site/ is not committed yet"))
    func committedSiteIsCurrent() throws {
        let loaded = try ContentLoader.load(directory: Self.contentFolder.path)
        let (verdicts, _) = ExampleRunner.run(loaded.corpus)
        let site = SiteBuilder.build(corpus: loaded.corpus, verdicts: verdicts,
                                     configuration: Self.configuration(loaded))
        let stale = try SiteWriter.differences(site, directory: Self.siteFolder)
        #expect(stale.isEmpty, "Site/ is stale: run `swift run bgkb build` (\(stale.count) files differ: \(stale.prefix(5).joined(separator: ", ")))")
    }

    @Test func contentBuildsWithoutSiteErrors() throws {
        let loaded = try ContentLoader.load(directory: Self.contentFolder.path)
        let (verdicts, _) = ExampleRunner.run(loaded.corpus)
        let site = SiteBuilder.build(corpus: loaded.corpus, verdicts: verdicts,
                                     configuration: Self.configuration(loaded))
        #expect(site.diagnostics.errors.map(\.description) == [])
        #expect(LinkTests.brokenLinks(in: site) == [])
        #expect(site.files.count > loaded.corpus.rules.count)
    }
}
