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

    @Test(.enabled(if: FileManager.default.fileExists(atPath: siteFolder.appendingPathComponent("index.html").path),
                   "Site/ is not committed yet"))
    func committedSiteIsCurrent() throws {
        let loaded = try ContentLoader.load(directory: Self.contentFolder.path)
        let (verdicts, _) = ExampleRunner.run(loaded.corpus)
        let site = SiteBuilder.build(corpus: loaded.corpus, verdicts: verdicts,
                                     configuration: SiteConfiguration(contentDirectory: Self.contentFolder.path))
        let stale = try SiteWriter.differences(site, directory: Self.siteFolder)
        #expect(stale.isEmpty, "Site/ is stale: run `swift run bgkb build` (\(stale.count) files differ: \(stale.prefix(5).joined(separator: ", ")))")
    }

    @Test func contentBuildsWithoutSiteErrors() throws {
        let loaded = try ContentLoader.load(directory: Self.contentFolder.path)
        let (verdicts, _) = ExampleRunner.run(loaded.corpus)
        let site = SiteBuilder.build(corpus: loaded.corpus, verdicts: verdicts,
                                     configuration: SiteConfiguration(contentDirectory: Self.contentFolder.path))
        #expect(site.diagnostics.errors.map(\.description) == [])
        #expect(LinkTests.brokenLinks(in: site) == [])
        #expect(site.files.count > loaded.corpus.rules.count)
    }
}
