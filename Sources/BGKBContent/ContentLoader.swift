import BGKBModel
import Foundation

/// Reads a Content directory from disk. The only I/O in the pipeline: everything after it is the
/// pure `ContentAssembler`.
public enum ContentLoader {
    public struct ReadError: Error, CustomStringConvertible {
        public var path: String
        public var reason: String
        public var description: String { "\(path): error: \(reason)" }
    }

    /// Loads every `*.md` under `directory` (except README.md files), with `sources.yml` and `topics.yml`.
    public static func load(directory: String) throws -> ContentLoadResult {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ReadError(path: directory, reason: "no Content directory here (pass --content DIR)")
        }
        let root = directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        var markdown: [String] = []
        guard let walker = FileManager.default.enumerator(atPath: root) else {
            throw ReadError(path: root, reason: "cannot list the directory")
        }
        while let relative = walker.nextObject() as? String {
            let name = (relative as NSString).lastPathComponent
            if name.hasPrefix(".") { continue }
            if relative.hasSuffix(".md"), name.lowercased() != "readme.md" { markdown.append(relative) }
        }
        let documents = try markdown.sorted().map { try read(root + "/" + $0) }
        let sources = try optional(root + "/sources.yml")
        let topics = try optional(root + "/topics.yml")
        return ContentAssembler.assemble(documents: documents, sources: sources, topics: topics)
    }

    static func read(_ path: String) throws -> ContentFile {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ReadError(path: path, reason: "cannot read the file")
        }
        return ContentFile(path: path, bytes: Array(data))
    }

    static func optional(_ path: String) throws -> ContentFile? {
        FileManager.default.fileExists(atPath: path) ? try read(path) : nil
    }
}
