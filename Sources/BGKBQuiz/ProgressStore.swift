import Foundation

/// Reads and writes the progress file, and never loses it:
/// - a save takes an exclusive lock (`progress.json.lock`), reads the file again, merges this
///   session's answers with whatever another terminal saved meanwhile, and writes atomically
///   (a temporary file, flushed, renamed over the old one);
/// - a file that cannot be read, is not JSON, is not ours, comes from a newer bgkb or holds
///   impossible values is an error that names it, and is left exactly as it is: never moved
///   aside, never overwritten;
/// - loading writes nothing (`--stats` changes no file).
public struct ProgressStore: Sendable {
    public var path: String

    public init(path: String) { self.path = path }

    public var lockPath: String { path + ".lock" }

    public struct Loaded: Sendable {
        public var progress: QuizProgress
        /// Messages for the learner (a schema 1 file read through migration); the CLI prints them.
        public var notices: [String]
    }

    /// Why a progress file cannot be used.
    public enum Problem: Error, CustomStringConvertible, Equatable {
        case notJSON
        case foreign
        case newerSchema(Int)
        case damaged(String)
        case invalidValues([String])

        public var description: String {
            switch self {
            case .notJSON: return "is not JSON (truncated or corrupt)"
            case .foreign: return "is not a bgkb progress file"
            case let .newerSchema(version): return "was written by a newer bgkb (schema \(version); this one reads up to \(QuizProgress.currentSchemaVersion))"
            case let .damaged(detail): return "is damaged (\(detail))"
            case let .invalidValues(list):
                let shown = list.prefix(3).joined(separator: "; ") + (list.count > 3 ? "; and \(list.count - 3) more" : "")
                return "holds impossible values: \(shown)"
            }
        }
    }

    /// Every way loading or saving can fail; the description says what to do.
    public enum Failure: Error, CustomStringConvertible {
        case io(StoreError)
        /// The file is there but cannot be read (permissions, a loop of links).
        case unreadable(StoreError)
        case directory(String)
        case unusable(path: String, Problem)
        case unsavable(path: String, String)

        public var description: String {
            switch self {
            case let .io(error): return "\(error)"
            case let .unreadable(error):
                return "\(error); it was left as it is. If it belongs to another user (after a run under sudo), "
                    + "give it back to yourself with chown, or pass --progress with another file."
            case let .directory(path): return "\(path) is a directory, not a progress file; pass --progress FILE"
            case let .unusable(path, problem):
                return "the progress file \(path) \(problem); it was left as it is. "
                    + "Fix or move it yourself, or pass --progress with another file."
            case let .unsavable(path, detail): return "cannot save \(path): \(detail)"
            }
        }
    }

    /// Reads the progress; a missing file is fresh progress. Writes nothing, moves nothing.
    public func load() throws -> Loaded {
        if isDirectory(path) { throw Failure.directory(path) }
        let data: Data?
        do { data = try SystemFile.read(path) } catch let error as StoreError { throw Failure.unreadable(error) }
        guard let data else { return Loaded(progress: QuizProgress(), notices: []) }
        switch ProgressStore.decode(data) {
        case let .success(decoded):
            var notices: [String] = []
            if decoded.schemaVersion < QuizProgress.currentSchemaVersion {
                notices.append("The progress file \(path) is from an earlier bgkb (SM-2 scheduling); its answers now schedule "
                    + "with FSRS, and it is rewritten in the new form at the next save (the SM-2 values are kept in it).")
            }
            return Loaded(progress: decoded.rebuilt(), notices: notices)
        case let .failure(problem):
            throw Failure.unusable(path: path, problem)
        }
    }

    /// The progress in `data`, as written (not yet rebuilt), or why it cannot be used.
    public static func decode(_ data: Data) -> Result<QuizProgress, Problem> {
        guard let object = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) else {
            return .failure(.notJSON)
        }
        guard let fields = object as? [String: Any], fields["schema"] as? String == QuizProgress.schemaName,
              let version = fields["schemaVersion"] as? Int
        else { return .failure(.foreign) }
        guard version <= QuizProgress.currentSchemaVersion else { return .failure(.newerSchema(version)) }
        let progress: QuizProgress
        do {
            progress = try decoder.decode(QuizProgress.self, from: data)
        } catch {
            return .failure(.damaged(String(String(describing: error).prefix(160))))
        }
        let problems = progress.problems
        return problems.isEmpty ? .success(progress) : .failure(.invalidValues(problems))
    }

    /// The file's bytes for `progress`; impossible values are an error, never a file that
    /// cannot be read back.
    public func encode(_ progress: QuizProgress) throws -> Data {
        try refuseImpossibleValues(progress)
        do { return try ProgressStore.encoder.encode(progress) } catch {
            throw Failure.unsavable(path: path, String(String(describing: error).prefix(160)))
        }
    }

    func refuseImpossibleValues(_ progress: QuizProgress) throws {
        let problems = progress.problems
        guard problems.isEmpty else {
            throw Failure.unsavable(path: path, "it would hold impossible values: " + problems.prefix(3).joined(separator: "; "))
        }
    }

    static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }

    static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }

    /// Makes sure a save can happen before any question is asked: the folder exists (created if
    /// need be) and the lock file can be created in it.
    public func checkWritable() throws {
        try createDirectory()
        do { _ = try FileLock(path: lockPath) } catch let error as StoreError { throw Failure.io(error) }
    }

    /// Saves `progress` merged with what the file holds now (another terminal's answers), under
    /// the lock, atomically; returns the merged progress, which the session goes on with. A
    /// file that has become unusable meanwhile is left alone and the save fails.
    /// `beforeChunk` is called with the byte offset before each chunk is written; tests throw
    /// from it to simulate a crash in the middle of a save.
    @discardableResult
    public func save(_ progress: QuizProgress, chunkSize: Int = 1 << 16,
                     beforeChunk: ((Int) throws -> Void)? = nil) throws -> QuizProgress {
        // Checked before merging too: a merge recomputes schedules and could hide a bad value.
        try refuseImpossibleValues(progress)
        try createDirectory()
        do {
            let lock = try FileLock(path: lockPath)
            defer { withExtendedLifetime(lock) {} }
            removeStaleTemporaries()
            var merged = progress
            if let data = try SystemFile.read(path) {
                switch ProgressStore.decode(data) {
                case let .success(onDisk): merged = progress.merged(with: onDisk)
                case let .failure(problem): throw Failure.unusable(path: path, problem)
                }
            }
            try SystemFile.writeAtomically(try encode(merged), to: path, chunkSize: chunkSize, beforeChunk: beforeChunk)
            return merged
        } catch let error as StoreError {
            throw Failure.io(error)
        }
    }

    func createDirectory() throws {
        let directory = (path as NSString).deletingLastPathComponent
        guard !directory.isEmpty, !isDirectory(directory) else { return }
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw Failure.unsavable(path: path, "cannot create the folder \(directory)")
        }
    }

    func isDirectory(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// A save that crashed leaves `progress.json.tmp-PID`; remove those whose process is gone
    /// (a live one may be saving right now). Called with the lock held.
    func removeStaleTemporaries() {
        let directory = (path as NSString).deletingLastPathComponent
        let prefix = (path as NSString).lastPathComponent + ".tmp-"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.isEmpty ? "." : directory) else { return }
        for name in names where name.hasPrefix(prefix) {
            guard let pid = Int32(name.dropFirst(prefix.count)) else { continue }
            if SystemFile.processIsGone(pid) { SystemFile.remove(directory.isEmpty ? name : directory + "/" + name) }
        }
    }

    /// Moves the progress file aside (`--reset`, the learner's own request), keeping it as a
    /// backup; returns where.
    public func reset(now: Date = Date()) throws -> String? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        let target = "\(path).reset-\(Int(now.timeIntervalSince1970))"
        do {
            let lock = try FileLock(path: lockPath)
            defer { withExtendedLifetime(lock) {} }
            try SystemFile.rename(path, target)
        } catch let error as StoreError {
            throw Failure.io(error)
        }
        return target
    }
}
