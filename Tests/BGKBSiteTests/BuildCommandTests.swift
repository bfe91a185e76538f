import Foundation
import Testing

/// `bgkb build` end to end: the built binary, a pinned environment, a temporary output folder.
@Suite struct BuildCommandTests {
    static let packageRoot = StalenessTests.packageRoot

    /// The `bgkb` executable next to the test bundle (SwiftPM builds it with the tests).
    static var binary: URL? {
        let candidates = [
            Bundle.main.bundleURL.appendingPathComponent("bgkb"),
            Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("bgkb"),
            packageRoot.appendingPathComponent(".build/debug/bgkb"),
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    struct Run {
        var status: Int32
        var output: String
        var errors: String
    }

    static func run(_ arguments: [String]) throws -> Run {
        let process = Process()
        // A guard, not #require: the macro took `binary` for non-optional and warned on every build.
        guard let binary = Self.binary else {
            Issue.record("bgkb is not built next to the tests")
            throw CancellationError()
        }
        process.executableURL = binary
        process.arguments = arguments
        process.currentDirectoryURL = packageRoot
        process.environment = ["NO_COLOR": "1", "COLUMNS": "100", "PATH": "/usr/bin:/bin"]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, output: String(decoding: outData, as: UTF8.self),
                   errors: String(decoding: errData, as: UTF8.self))
    }

    func temporarySite() throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("bgkb-build-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        return root.appendingPathComponent("Site")
    }

    @Test(.enabled(if: binary != nil, "the bgkb executable is not built"))
    func buildsChecksAndKeepsTheOldSiteOnFailure() throws {
        let site = try temporarySite()
        defer { try? FileManager.default.removeItem(at: site.deletingLastPathComponent()) }
        let good = ["build", "--content", "Tests/Fixtures/forum-plain", "--output", site.path]

        let first = try Self.run(good)
        #expect(first.status == 0, "\(first.errors)")
        #expect(first.output.contains("wrote "))
        let index = site.appendingPathComponent("index.html")
        let before = try Data(contentsOf: index)

        let check = try Self.run(good + ["--check"])
        #expect(check.status == 0, "\(check.errors)")

        try Data("changed".utf8).write(to: index)
        let stale = try Self.run(good + ["--check"])
        #expect(stale.status == 1)
        #expect(stale.errors.contains("is stale: run `swift run bgkb build`"))
        try before.write(to: index)

        let broken = try Self.run(["build", "--content", "Tests/Fixtures/broken", "--output", site.path])
        #expect(broken.status != 0)
        #expect(broken.errors.contains("error:"))
        #expect(try Data(contentsOf: index) == before, "a failed build must leave the previous site untouched")
    }

    /// `bgkb lint` parses every example's scenario: an expectation that can never hold is an
    /// error with its place, and the exit status says so.
    @Test(.enabled(if: binary != nil, "the bgkb executable is not built"))
    func lintReportsAScenarioThatCanNeverHold() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("bgkb-lint-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let content = root.appendingPathComponent("Content")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Self.packageRoot.appendingPathComponent("Content"), to: content)
        let clean = try Self.run(["lint", "--strict", "--content", content.path])
        #expect(clean.status == 0, "\(clean.errors)")

        // The first `expect` line of the first document with an example gets an impossible twin.
        let documents = try FileManager.default.contentsOfDirectory(atPath: content.appendingPathComponent("documents").path).sorted()
        for name in documents where name.hasSuffix(".md") {
            let file = content.appendingPathComponent("documents").appendingPathComponent(name)
            var lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            guard let index = lines.firstIndex(where: { $0.hasPrefix("expect ") }) else { continue }
            lines.insert("expect terminated 0xdeadbeef", at: index)
            try lines.joined(separator: "\n").write(to: file, atomically: true, encoding: .utf8)
            let broken = try Self.run(["lint", "--content", content.path])
            #expect(broken.status == 1)
            #expect(broken.errors.contains("documents/\(name):\(index + 1):"), "\(broken.errors)")
            #expect(broken.errors.contains("0xdeadbeef"))
            #expect(broken.errors.contains("1 error(s)"))
            return
        }
        Issue.record("no document in Content has an example")
    }

    @Test(.enabled(if: binary != nil, "the bgkb executable is not built"))
    func twoProcessesWriteIdenticalSites() throws {
        // Separate processes get separate hash seeds: any output that follows Dictionary or Set
        // order would differ here even though an in-process rebuild matches.
        let a = try temporarySite(), b = try temporarySite()
        defer {
            try? FileManager.default.removeItem(at: a.deletingLastPathComponent())
            try? FileManager.default.removeItem(at: b.deletingLastPathComponent())
        }
        for site in [a, b] {
            let run = try Self.run(["build", "--output", site.path])
            #expect(run.status == 0, "\(run.errors)")
        }
        let files = try FileManager.default.subpathsOfDirectory(atPath: a.path).sorted()
        #expect(files == (try FileManager.default.subpathsOfDirectory(atPath: b.path).sorted()))
        for file in files {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: a.appendingPathComponent(file).path, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
            #expect(try Data(contentsOf: a.appendingPathComponent(file)) == Data(contentsOf: b.appendingPathComponent(file)), "\(file) differs")
        }
    }

    /// The second build reuses the first one's verdicts and writes the same site; a damaged
    /// cache is a warning and a full exploration, never a failed or different build.
    @Test(.enabled(if: binary != nil, "the bgkb executable is not built"))
    func rebuildsReuseVerdictsAndSurviveADamagedCache() throws {
        let site = try temporarySite()
        defer { try? FileManager.default.removeItem(at: site.deletingLastPathComponent()) }
        let cacheFile = site.deletingLastPathComponent().appendingPathComponent(".Site.verdicts")
        let build = ["build", "--output", site.path, "--timings"]

        let cold = try Self.run(build)
        #expect(cold.status == 0, "\(cold.errors)")
        #expect(!cold.output.contains(" 0 explored"), "\(cold.output)")
        #expect(FileManager.default.fileExists(atPath: cacheFile.path))
        let index = try Data(contentsOf: site.appendingPathComponent("index.html"))

        let warm = try Self.run(build)
        #expect(warm.status == 0, "\(warm.errors)")
        #expect(warm.output.contains(" verdicts reused, 0 explored"), "\(warm.output)")
        #expect(try Data(contentsOf: site.appendingPathComponent("index.html")) == index)
        let check = try Self.run(["build", "--output", site.path, "--check"])
        #expect(check.status == 0, "a warm build wrote what a fresh exploration gives: \(check.errors)")

        try Data("bgkb verdict cache 2\nnot a record\n".utf8).write(to: cacheFile)
        let damaged = try Self.run(build)
        #expect(damaged.status == 0, "\(damaged.errors)")
        #expect(damaged.errors.contains(".Site.verdicts:2: malformed verdict cache"), "\(damaged.errors)")
        #expect(!damaged.output.contains(" 0 explored"), "\(damaged.output)")
        #expect(try String(contentsOf: cacheFile, encoding: .utf8).hasPrefix("bgkb verdict cache 2\n"))
        let repaired = try Self.run(build)
        #expect(repaired.errors.isEmpty && repaired.output.contains("0 explored"), "the damaged file was replaced by a good one")

        let uncached = try Self.run(build + ["--no-cache"])
        #expect(uncached.status == 0)
        #expect(!uncached.output.contains("reused"), "\(uncached.output)")
    }
}
