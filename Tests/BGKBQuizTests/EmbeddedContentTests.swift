import BGKBQuiz
import Foundation
import Testing

/// The build plugin embeds Content/ byte for byte: the quiz a release binary runs is the
/// Content it was built from.
@Suite struct EmbeddedContentTests {
    static let contentDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appending(path: "Content").path

    @Test func everyContentFileIsEmbeddedExactly() throws {
        var onDisk: [String: [UInt8]] = [:]
        let walker = try #require(FileManager.default.enumerator(atPath: Self.contentDirectory))
        while let relative = walker.nextObject() as? String {
            let name = (relative as NSString).lastPathComponent
            guard !name.hasPrefix("."), name.lowercased() != "readme.md",
                  relative.hasSuffix(".md") || relative.hasSuffix(".yml") else { continue }
            onDisk["Content/" + relative] = Array(try #require(FileManager.default.contents(atPath: Self.contentDirectory + "/" + relative)))
        }
        let embedded = Dictionary(EmbeddedContent.files.map { ($0.path, $0.bytes) }, uniquingKeysWith: { a, _ in a })
        #expect(Set(embedded.keys) == Set(onDisk.keys))
        for (path, bytes) in onDisk { #expect(embedded[path] == bytes, "\(path) differs from its embedded copy") }
        #expect(EmbeddedContent.sources != nil)
        #expect(EmbeddedContent.topics != nil)
    }
}
