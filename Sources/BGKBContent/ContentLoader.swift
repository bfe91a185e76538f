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
        let paths = markdown.sorted().map { root + "/" + $0 }
        let sources: ContentFile?, topics: ContentFile?
        do {
            sources = try optional(root + "/sources.yml")
            topics = try optional(root + "/topics.yml")
        } catch {
            // A document that cannot be read is reported before these, as when every file was read first.
            for path in paths { _ = try read(path) }
            throw error
        }
        // Each document is read when its turn to parse comes: only the files being parsed are in memory.
        let result = ContentAssembler.assemble(documentCount: paths.count, document: { index in Result { try read(paths[index]) } },
                                               sources: sources, topics: topics)
        var loaded = try result.get()
        loaded.fingerprint = try fingerprint(root: root, files: ["sources.yml", "topics.yml"] + markdown.sorted())
        return loaded
    }

    /// The fingerprint of the files a load reads (see `ContentLoadResult.fingerprint`). It reads
    /// them again rather than while they parse, so parsing keeps no state shared between threads.
    /// Each file is read and hashed on its own, on every core; the fingerprint hashes their names,
    /// sizes and hashes in order.
    static func fingerprint(root: String, files: [String]) throws -> UInt64 {
        let perFile = ParallelMap.map(files) { relative -> Result<(count: Int, hash: UInt64)?, Error> in
            let path = root + "/" + relative
            guard FileManager.default.fileExists(atPath: path) else { return .success(nil) }
            return Result {
                let bytes = try read(path).bytes
                var hash = StableHash()
                hash.combine(bytes: bytes)
                return (bytes.count, hash.value)
            }
        }
        var hash = StableHash()
        for (relative, file) in zip(files, perFile) {
            guard let file = try file.get() else { continue }
            hash.combine(relative)
            hash.combine(String(file.count))
            hash.combine(String(file.hash))
        }
        return hash.value
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
