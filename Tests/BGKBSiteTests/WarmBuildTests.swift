@testable import BGKBExamples
import BGKBContent
import BGKBEngine
import BGKBModel
import Foundation
import Testing
@testable import BGKBSite

/// A rebuild with the verdict cache writes the very same site as a first build.
@Suite struct WarmBuildTests {
    /// The streaming build with a warm cache writes the same bytes as without one (the committed
    /// Site/, which `StalenessTests` checks against a fresh exploration), and explores nothing
    /// the second time.
    @Test func aWarmBuildWritesTheCommittedSite() throws {
        let content = StalenessTests.contentFolder.path
        let loaded = try ContentLoader.load(directory: content)
        let corpus = loaded.corpus
        let configuration = StalenessTests.configuration(loaded)
        let cache = VerdictCache(engine: "test")
        var sites: [[String: Data]] = []
        var explored: [Int] = []
        for _ in 0..<2 {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bgkb-warm-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: folder) }
            let staging = try SiteWriter.stage(folder.appendingPathComponent("Site"))
            let (site, writeError) = SiteBuilder.build(corpus: corpus, configuration: configuration, cache: cache, runningExamplesInto: staging)
            #expect(writeError == nil)
            #expect(!site.diagnostics.hasErrors && !site.exampleDiagnostics.hasErrors)
            sites.append(try Self.files(in: staging.folder))
            staging.discard()
            explored.append(cache.misses)
            // Encoded beside the last pages, after every example ran: the records the cache holds
            // at the end, one per distinct example.
            let encoded = try #require(site.verdictCacheFile, "a build with a cache encodes it")
            #expect(encoded == cache.encodedRecords())
            let records = try VerdictCache.decode(Data(encoded)).get()
            #expect(Set(records.keys) == Set(corpus.examples.map { VerdictRecord.key($0, engine: "test") }))
            #expect(site.steps.contains { $0.name.hasPrefix("verdict cache") && $0.inGroup })
        }
        // Examples with the same intent and text are one question: explored once, unless two
        // rule pages ask for it at the same moment on two cores (both explore; same answer).
        let distinct = Set(corpus.examples.map { VerdictRecord.key($0, engine: "test") }).count
        #expect(explored[0] >= distinct && explored[0] <= corpus.examples.count, "the first build explores every distinct example")
        #expect(explored[1] == explored[0], "the second build explores none")
        #expect(cache.hits + cache.misses == 2 * corpus.examples.count)
        #expect(sites[0] == sites[1])
        let committed = try Self.files(in: StalenessTests.siteFolder).filter { $0.key != SiteWriter.markerName }
        let differing = committed.keys.filter { committed[$0] != sites[1][$0] }.sorted()
        #expect(differing.isEmpty && committed.count == sites[1].count, "\(differing.prefix(5))")
    }

    static func files(in folder: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for path in try FileManager.default.subpathsOfDirectory(atPath: folder.path) {
            let url = folder.appendingPathComponent(path)
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue {
                files[path] = try Data(contentsOf: url)
            }
        }
        return files
    }
}
