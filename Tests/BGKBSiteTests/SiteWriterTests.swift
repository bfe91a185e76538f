import Foundation
import Testing
@testable import BGKBSite

@Suite struct SiteWriterTests {
    func temporaryFolder(_ name: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("bgkb-site-tests-\(name)-\(ProcessInfo.processInfo.processIdentifier)")
        try? FileManager.default.removeItem(at: url)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func writesThenFindsNoDifferences() throws {
        let root = try temporaryFolder("write")
        defer { try? FileManager.default.removeItem(at: root) }
        let site = SiteBuilder.build(corpus: SampleCorpus.corpus, verdicts: SampleCorpus.verdicts)
        let output = root.appendingPathComponent("Site")
        try SiteWriter.write(site, to: output)
        #expect(try SiteWriter.differences(site, directory: output) == [])
        // A second write replaces the first in place.
        try SiteWriter.write(site, to: output)
        #expect(try SiteWriter.differences(site, directory: output) == [])
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: root.path)
        #expect(leftovers == ["Site"], "no staging or previous folder is left behind")
    }

    /// Every page is world-readable (a link checker may run as another user): `fchmod` is skipped
    /// only when the umask keeps 0644 as it is, and the check reads the same umask a shell sees.
    @Test func pagesAreWorldReadableAndTheUmaskIsReadRight() throws {
        let root = try temporaryFolder("modes")
        defer { try? FileManager.default.removeItem(at: root) }
        let site = SiteBuild(files: ["a.html": "A", "b/c.html": "C"])
        let output = root.appendingPathComponent("Site")
        try SiteWriter.write(site, to: output)
        for path in ["a.html", "b/c.html"] {
            let attributes = try FileManager.default.attributesOfItem(atPath: output.appendingPathComponent(path).path)
            #expect((attributes[.posixPermissions] as? Int).map { $0 & 0o777 } == 0o644, "\(path)")
        }
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/sh")
        shell.arguments = ["-c", "umask"]
        let pipe = Pipe()
        shell.standardOutput = pipe
        try shell.run()
        shell.waitUntilExit()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let mask = try #require(Int(text.trimmingCharacters(in: .whitespacesAndNewlines), radix: 8))
        #if os(Linux)
        #expect(SiteWriter.umaskStripsReadBits == (mask & 0o644 != 0))
        #else
        #expect(SiteWriter.umaskStripsReadBits)
        #endif
    }

    @Test func reportsChangedMissingAndExtraFiles() throws {
        let root = try temporaryFolder("diff")
        defer { try? FileManager.default.removeItem(at: root) }
        var site = SiteBuild(files: ["a.html": "A", "b/c.html": "C"])
        let output = root.appendingPathComponent("Site")
        try SiteWriter.write(site, to: output)
        site.files["a.html"] = "changed"
        site.files["new.html"] = "N"
        site.files["b/c.html"] = nil
        #expect(try SiteWriter.differences(site, directory: output) == ["a.html", "b/c.html", "new.html"])
    }

    @Test func failedWriteLeavesThePreviousSiteIntact() throws {
        let root = try temporaryFolder("fail")
        defer { try? FileManager.default.removeItem(at: root) }
        let good = SiteBuild(files: ["index.html": "old"])
        let output = root.appendingPathComponent("Site")
        try SiteWriter.write(good, to: output)
        let bad = SiteBuild(files: ["index.html": "new", "../escape.html": "x"])
        #expect(throws: SiteWriter.WriteError.self) { try SiteWriter.write(bad, to: output) }
        #expect(try SiteWriter.differences(good, directory: output) == [])
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path) == ["Site"])
    }

    @Test func streamingIntoStagingWritesWhatTheMemoryBuildHolds() throws {
        let root = try temporaryFolder("stream")
        defer { try? FileManager.default.removeItem(at: root) }
        let memory = SiteBuilder.build(corpus: SampleCorpus.corpus, verdicts: SampleCorpus.verdicts)
        let output = root.appendingPathComponent("Site")
        let staging = try SiteWriter.stage(output)
        let (streamed, writeError) = SiteBuilder.build(corpus: SampleCorpus.corpus, verdicts: SampleCorpus.verdicts,
                                                       writingInto: staging)
        #expect(writeError == nil)
        #expect(streamed.files.isEmpty, "pages went to disk, not memory")
        #expect(streamed.fileCount == memory.files.count)
        #expect(streamed.byteCount == memory.totalBytes)
        #expect(streamed.steps.map(\.fileCount) == memory.steps.map(\.fileCount))
        #expect(FileManager.default.fileExists(atPath: output.path) == false, "nothing is in place before the commit")
        try staging.commit()
        #expect(try SiteWriter.differences(memory, directory: output) == [])
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path) == ["Site"])
    }

    @Test func discardedStagingLeavesThePreviousSite() throws {
        let root = try temporaryFolder("discard")
        defer { try? FileManager.default.removeItem(at: root) }
        let good = SiteBuild(files: ["index.html": "old"])
        let output = root.appendingPathComponent("Site")
        try SiteWriter.write(good, to: output)
        let staging = try SiteWriter.stage(output)
        _ = SiteBuilder.build(corpus: SampleCorpus.corpus, verdicts: SampleCorpus.verdicts, writingInto: staging)
        staging.discard()
        #expect(try SiteWriter.differences(good, directory: output) == [])
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path) == ["Site"])
    }

    @Test func refusesToReplaceAFolderItDidNotMake() throws {
        let root = try temporaryFolder("refuse")
        defer { try? FileManager.default.removeItem(at: root) }
        let precious = root.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: precious, withIntermediateDirectories: true)
        try Data("keep".utf8).write(to: precious.appendingPathComponent("notes.txt"))
        #expect(throws: SiteWriter.WriteError.self) { try SiteWriter.write(SiteBuild(files: ["index.html": "x"]), to: precious) }
        #expect(FileManager.default.fileExists(atPath: precious.appendingPathComponent("notes.txt").path))
    }

    @Test(arguments: ["a.html", "rules/x.html"])
    func acceptsSafePaths(_ path: String) { #expect(SiteWriter.isSafeRelativePath(path)) }

    @Test(arguments: ["", "/etc/passwd", "../x", "a/../../x", "a//b", "./a"])
    func rejectsUnsafePaths(_ path: String) { #expect(SiteWriter.isSafeRelativePath(path) == false) }

    static let paths = ["a.html", "rules/x.html", "", "/", "/etc/passwd", "../x", "a/../../x", "a//b", "./a", "a/.", "a/..", "a/",
                        "..", ".", ".a", "a..", "..a/b", "a/.b/c", "a/b/c/d.html", "é/ü.html", "a/b/", "//", "a/./b", "assets/style.css"]

    /// The byte checks must decide as the split-based check and NSString did.
    @Test(arguments: paths)
    func safePathsAreJudgedAsBySplitting(_ path: String) {
        let split = !path.isEmpty && !path.hasPrefix("/")
            && !path.split(separator: "/", omittingEmptySubsequences: false).contains { $0 == ".." || $0 == "." || $0.isEmpty }
        #expect(SiteWriter.isSafeRelativePath(path) == split)
        if split { #expect(SiteWriter.parentFolder(path) == (path as NSString).deletingLastPathComponent) }
    }

    static func inode(_ url: URL) throws -> UInt64 {
        try #require((try FileManager.default.attributesOfItem(atPath: url.path))[.systemFileNumber] as? UInt64)
    }

    /// A rebuild links unchanged files from the previous site instead of writing them, and never
    /// writes through such a link: the previous site stays as it was until the swap, even when
    /// the build writes a linked path a second time and is then discarded.
    @Test func unchangedFilesAreLinkedAndThePreviousSiteIsNeverWrittenThrough() throws {
        let root = try temporaryFolder("link")
        defer { try? FileManager.default.removeItem(at: root) }
        let target = root.appendingPathComponent("Site")
        let first = try SiteWriter.stage(target)
        try first.write("same.html", "unchanged")
        try first.write("changed.html", "old")
        try first.commit()
        let sameBefore = try Self.inode(target.appendingPathComponent("same.html"))

        let second = try SiteWriter.stage(target)
        try second.write("same.html", "unchanged")
        try second.write("changed.html", "new")
        #expect(try Self.inode(second.folder.appendingPathComponent("same.html")) == sameBefore, "unchanged: linked")
        #expect(try Self.inode(second.folder.appendingPathComponent("changed.html")) != Self.inode(target.appendingPathComponent("changed.html")))
        try second.write("same.html", "written twice")
        #expect(try String(contentsOf: target.appendingPathComponent("same.html"), encoding: .utf8) == "unchanged")
        second.discard()
        #expect(try String(contentsOf: target.appendingPathComponent("same.html"), encoding: .utf8) == "unchanged")
        #expect(try String(contentsOf: target.appendingPathComponent("changed.html"), encoding: .utf8) == "old")

        let third = try SiteWriter.stage(target)
        try third.write("same.html", "unchanged")
        try third.write("changed.html", "new")
        try third.commit()
        #expect(try String(contentsOf: target.appendingPathComponent("same.html"), encoding: .utf8) == "unchanged")
        #expect(try String(contentsOf: target.appendingPathComponent("changed.html"), encoding: .utf8) == "new")
        #expect(try Self.inode(target.appendingPathComponent("same.html")) == sameBefore)
    }

    /// A symbolic link or a file with other permissions in the previous site is never reused.
    @Test func onlyPlainFilesAsWeWriteThemAreReused() throws {
        let root = try temporaryFolder("link-odd")
        defer { try? FileManager.default.removeItem(at: root) }
        let target = root.appendingPathComponent("Site")
        let first = try SiteWriter.stage(target)
        try first.write("private.html", "same")
        try first.commit()
        let elsewhere = root.appendingPathComponent("elsewhere.html")
        try "same".write(to: elsewhere, atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(at: target.appendingPathComponent("linked.html"), withDestinationURL: elsewhere)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: target.appendingPathComponent("private.html").path)

        let second = try SiteWriter.stage(target)
        try second.write("linked.html", "same")
        try second.write("private.html", "same")
        let linked = second.folder.appendingPathComponent("linked.html")
        #expect((try FileManager.default.attributesOfItem(atPath: linked.path))[.type] as? FileAttributeType == .typeRegular)
        #expect(try Self.inode(second.folder.appendingPathComponent("private.html")) != Self.inode(target.appendingPathComponent("private.html")))
        second.discard()
    }

    /// Large files are compared block by block, to the last byte, whether written whole or
    /// streamed in pieces that do not line up with the blocks.
    @Test func largeFilesAreComparedToTheLastByte() throws {
        let root = try temporaryFolder("link-large")
        defer { try? FileManager.default.removeItem(at: root) }
        let target = root.appendingPathComponent("Site")
        let bytes = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let first = try SiteWriter.stage(target)
        try first.write("big.js", bytes)
        try first.commit()
        let before = try Self.inode(target.appendingPathComponent("big.js"))

        var changed = bytes
        changed[150_000] &+= 1
        let second = try SiteWriter.stage(target)
        try second.write("big.js", changed)
        #expect(try Self.inode(second.folder.appendingPathComponent("big.js")) != before, "one byte differs at 150,000")
        second.discard()

        let third = try SiteWriter.stage(target)
        try third.write("big.js", bytes)
        #expect(try Self.inode(third.folder.appendingPathComponent("big.js")) == before, "the same bytes")
        third.discard()

        for pieces in [[bytes], [Array(bytes[..<3]), Array(bytes[3..<65_537]), [], Array(bytes[65_537...])]] {
            let staging = try SiteWriter.stage(target)
            let file = try staging.stream("big.js")
            for piece in pieces { try file.write(piece) }
            try file.finish()
            #expect(try Self.inode(staging.folder.appendingPathComponent("big.js")) == before, "streamed in \(pieces.count) pieces")
            staging.discard()
        }
        let streamedChanged = try SiteWriter.stage(target)
        let file = try streamedChanged.stream("big.js")
        try file.write(Array(changed[..<100_000]))
        try file.write(Array(changed[100_000...]))
        try file.finish()
        #expect(try Self.inode(streamedChanged.folder.appendingPathComponent("big.js")) != before)
        streamedChanged.discard()
        #expect(try Data(contentsOf: target.appendingPathComponent("big.js")) == Data(bytes))
    }

    /// A file written piece by piece is linked to the previous one only when every byte and the
    /// length match, and never writes into the previous site.
    @Test func streamedFilesAreLinkedOnlyWhenWhollyUnchanged() throws {
        let root = try temporaryFolder("stream-link")
        defer { try? FileManager.default.removeItem(at: root) }
        let target = root.appendingPathComponent("Site")
        func stream(_ staging: SiteWriter.Staging, _ pieces: [String]) throws {
            let file = try staging.stream("index.js")
            for piece in pieces { try file.write(Array(piece.utf8)) }
            try file.finish()
        }
        let first = try SiteWriter.stage(target)
        try stream(first, ["window.X = [", "1,2", "];\n"])
        try first.commit()
        let file = target.appendingPathComponent("index.js")
        let before = try Self.inode(file)

        for (pieces, linked) in [(["window.X = [1,", "2];\n"], true), (["window.X = [", "1,2", "];"], false),
                                 (["window.X = [", "1,2", "];\n", "more"], false), (["window.Y = [", "1,2", "];\n"], false)] {
            let staging = try SiteWriter.stage(target)
            try stream(staging, pieces)
            let written = staging.folder.appendingPathComponent("index.js")
            #expect((try Self.inode(written) == before) == linked, "\(pieces)")
            #expect(try String(contentsOf: written, encoding: .utf8) == pieces.joined())
            staging.discard()
            #expect(try String(contentsOf: file, encoding: .utf8) == "window.X = [1,2];\n", "the previous site is untouched")
        }
    }
}
