import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads and writes the progress file. Writes are atomic (a temporary file in the same folder,
/// flushed, then renamed over the old one), so a crash mid-save leaves the previous file whole.
/// A file that cannot be read as progress is moved aside, never overwritten, and the quiz starts
/// afresh with a notice.
public struct ProgressStore: Sendable {
    public var path: String

    public init(path: String) { self.path = path }

    public struct Loaded: Sendable {
        public var progress: QuizProgress
        /// Messages for the learner (a file moved aside); the CLI prints them.
        public var notices: [String]
    }

    /// Only an I/O failure while moving a bad file aside throws; a missing file is fresh progress.
    public func load(now: Date = Date()) throws -> Loaded {
        removeStaleTemporaries()
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            // Not a damaged file: a wrong path. Moving a directory aside would be a surprise.
            throw StoreError(path: path, operation: "use it as the progress file (it is a directory)", code: EISDIR)
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            if FileManager.default.fileExists(atPath: path) {
                return Loaded(progress: QuizProgress(), notices: [try moveAside(reason: "could not be read", now: now)])
            }
            return Loaded(progress: QuizProgress(), notices: [])
        }
        switch ProgressStore.decode(data) {
        case let .success(progress):
            return Loaded(progress: progress, notices: [])
        case let .failure(problem):
            return Loaded(progress: QuizProgress(), notices: [try moveAside(reason: problem.description, now: now)])
        }
    }

    public enum Problem: Error, CustomStringConvertible, Equatable {
        case notJSON
        case foreign
        case newerSchema(Int)
        case damaged(String)

        public var description: String {
            switch self {
            case .notJSON: return "is not JSON (truncated or corrupt)"
            case .foreign: return "is not a bgkb progress file"
            case let .newerSchema(version): return "was written by a newer bgkb (schema \(version))"
            case let .damaged(detail): return "is damaged (\(detail))"
            }
        }
    }

    public static func decode(_ data: Data) -> Result<QuizProgress, Problem> {
        guard let object = try? JSONSerialization.jsonObject(with: data), let fields = object as? [String: Any] else {
            return .failure(.notJSON)
        }
        guard fields["schema"] as? String == QuizProgress.schemaName, let version = fields["schemaVersion"] as? Int else {
            return .failure(.foreign)
        }
        guard version <= QuizProgress.currentSchemaVersion else { return .failure(.newerSchema(version)) }
        do {
            return .success(try decoder.decode(QuizProgress.self, from: data))
        } catch {
            return .failure(.damaged(String(describing: error).prefix(120).description))
        }
    }

    public static func encode(_ progress: QuizProgress) throws -> Data {
        try encoder.encode(progress)
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

    /// Renames the bad file to `progress.json.bad-20260122T031500Z` (with `-2`... if taken).
    func moveAside(reason: String, now: Date) throws -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withYear, .withMonth, .withDay, .withTime, .withTimeZone]
        let stamp = formatter.string(from: now).replacingOccurrences(of: ":", with: "").replacingOccurrences(of: "-", with: "")
        var target = "\(path).bad-\(stamp)"
        var suffix = 2
        while FileManager.default.fileExists(atPath: target) {
            target = "\(path).bad-\(stamp)-\(suffix)"
            suffix += 1
        }
        guard rename(path, target) == 0 else {
            throw StoreError(path: path, operation: "move aside to \(target)", code: errno)
        }
        return "The progress file \(path) \(reason); moved it to \(target) and started afresh."
    }

    /// Writes atomically. `beforeChunk` is called with the byte offset before each chunk is
    /// written; tests throw from it to simulate a crash in the middle of a save.
    public func save(_ progress: QuizProgress, chunkSize: Int = 1 << 16,
                     beforeChunk: ((Int) throws -> Void)? = nil) throws {
        let data = try ProgressStore.encode(progress)
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty {
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            } catch {
                throw StoreError(path: directory, operation: "create directory", code: errno)
            }
        }
        let temporary = "\(path).tmp-\(getpid())"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard descriptor >= 0 else { throw StoreError(path: temporary, operation: "create", code: errno) }
        var closed = false
        defer { if !closed { close(descriptor) } }
        var offset = 0
        let bytes = [UInt8](data)
        while offset < bytes.count {
            try beforeChunk?(offset)
            let length = min(chunkSize, bytes.count - offset)
            let written = bytes[offset..<offset + length].withUnsafeBytes { write(descriptor, $0.baseAddress, length) }
            if written < 0 {
                if errno == EINTR { continue }
                let code = errno
                unlink(temporary)
                throw StoreError(path: temporary, operation: "write", code: code)
            }
            offset += written
        }
        guard fsync(descriptor) == 0 else {
            let code = errno
            unlink(temporary)
            throw StoreError(path: temporary, operation: "flush", code: code)
        }
        closed = true
        close(descriptor)
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw StoreError(path: temporary, operation: "rename to \(path)", code: code)
        }
    }

    /// A save that crashed leaves `progress.json.tmp-PID`; remove those whose process is gone
    /// (a live one may be saving right now).
    func removeStaleTemporaries() {
        let directory = (path as NSString).deletingLastPathComponent
        let prefix = (path as NSString).lastPathComponent + ".tmp-"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.isEmpty ? "." : directory) else { return }
        for name in names where name.hasPrefix(prefix) {
            guard let pid = Int32(name.dropFirst(prefix.count)) else { continue }
            if pid != getpid() && kill(pid, 0) != 0 && errno == ESRCH {
                unlink(directory.isEmpty ? name : directory + "/" + name)
            }
        }
    }

    /// Moves the progress file aside (`--reset`), keeping it as a backup; returns where.
    public func reset(now: Date = Date()) throws -> String? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        let target = "\(path).reset-\(Int(now.timeIntervalSince1970))"
        guard rename(path, target) == 0 else { throw StoreError(path: path, operation: "move to \(target)", code: errno) }
        return target
    }
}

/// An I/O failure, always with the path.
public struct StoreError: Error, CustomStringConvertible {
    public var path: String
    public var operation: String
    public var code: Int32

    public var description: String { "\(path): cannot \(operation): \(String(cString: strerror(code)))" }
}
