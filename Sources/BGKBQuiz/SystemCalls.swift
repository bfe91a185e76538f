import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// The quiz's one file of system calls with pointers: reading and writing files by descriptor,
// the progress file's lock, standard input, the terminal's size and Ctrl-C. Everything else in
// the quiz calls these.

/// An I/O failure, always with the path.
public struct StoreError: Error, CustomStringConvertible {
    public var path: String
    public var operation: String
    public var code: Int32

    public init(path: String, operation: String, code: Int32) {
        self.path = path
        self.operation = operation
        self.code = code
    }

    public var description: String { "\(path): cannot \(operation): \(String(cString: strerror(code)))" }
}

enum SystemFile {
    /// The whole file; nil when there is no file at `path`. A directory or a file that cannot be
    /// read (permissions) is an error, never "no file".
    static func read(_ path: String) throws -> Data? {
        let descriptor = open(path, O_RDONLY)
        if descriptor < 0 {
            if errno == ENOENT { return nil }
            throw StoreError(path: path, operation: "read it", code: errno)
        }
        defer { close(descriptor) }
        var result = Data()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 { result.append(contentsOf: buffer[..<count]); continue }
            if count == 0 { return result }
            if errno == EINTR { continue }
            throw StoreError(path: path, operation: "read it", code: errno)
        }
    }

    /// Writes `data` to a temporary file in the same folder, flushes it, then renames it over
    /// `path`: a crash mid-save leaves the previous file whole. `beforeChunk` gets the offset
    /// before each chunk (tests throw from it to simulate a crash).
    static func writeAtomically(_ data: Data, to path: String, chunkSize: Int, beforeChunk: ((Int) throws -> Void)?) throws {
        let temporary = "\(path).tmp-\(getpid())"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard descriptor >= 0 else { throw StoreError(path: temporary, operation: "create it", code: errno) }
        var closed = false
        defer { if !closed { close(descriptor) } }
        func fail(_ operation: String, _ code: Int32) -> StoreError {
            unlink(temporary)
            return StoreError(path: temporary, operation: operation, code: code)
        }
        let bytes = [UInt8](data)
        var offset = 0
        while offset < bytes.count {
            do { try beforeChunk?(offset) } catch {
                unlink(temporary)
                throw error
            }
            let length = min(chunkSize, bytes.count - offset)
            let written = bytes[offset..<offset + length].withUnsafeBytes { write(descriptor, $0.baseAddress, length) }
            if written < 0 {
                if errno == EINTR { continue }
                throw fail("write it", errno)
            }
            offset += written
        }
        guard fsync(descriptor) == 0 else { throw fail("flush it", errno) }
        closed = true
        guard close(descriptor) == 0 else { throw fail("close it", errno) }
        guard Glibc.rename(temporary, path) == 0 else { throw fail("rename it to \(path)", errno) }
    }

    static func processIsGone(_ pid: Int32) -> Bool { pid != getpid() && kill(pid, 0) != 0 && errno == ESRCH }

    static func remove(_ path: String) { unlink(path) }

    static func rename(_ from: String, _ to: String) throws {
        guard Glibc.rename(from, to) == 0 else { throw StoreError(path: from, operation: "move it to \(to)", code: errno) }
    }
}

/// An exclusive lock on a file next to the progress file (`progress.json.lock`), held while a
/// session reads, merges and writes: two terminals take turns instead of overwriting each other.
/// The lock file itself is never removed (removing it would let two holders lock different files).
final class FileLock {
    private let descriptor: Int32

    /// Waits until the lock is free.
    init(path: String) throws {
        let descriptor = open(path, O_RDWR | O_CREAT, 0o600)
        guard descriptor >= 0 else { throw StoreError(path: path, operation: "create the lock file", code: errno) }
        while flock(descriptor, LOCK_EX) != 0 {
            if errno == EINTR { continue }
            let code = errno
            close(descriptor)
            throw StoreError(path: path, operation: "lock it", code: code)
        }
        self.descriptor = descriptor
    }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}

/// Set by the SIGINT handler; read by the input loop.
nonisolated(unsafe) private var interruptRequested: sig_atomic_t = 0

/// Standard input, read with read(2) so that Ctrl-C interrupts a waiting read (the handler is
/// installed without SA_RESTART) and the session can end cleanly.
public struct StandardInput: ByteSource {
    public init() {}

    public mutating func read(maximum: Int) -> ByteRead {
        if interruptRequested != 0 { return .interrupted }
        var buffer = [UInt8](repeating: 0, count: maximum)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(STDIN_FILENO, $0.baseAddress, maximum) }
            if count > 0 { return .bytes(Array(buffer[..<count])) }
            if count == 0 { return .end }
            if errno == EINTR {
                if interruptRequested != 0 { return .interrupted }
                continue
            }
            return .end
        }
    }

    /// Ctrl-C sets a flag instead of killing the process.
    public static func catchInterrupt() {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in interruptRequested = 1 }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        sigaction(SIGINT, &action, nil)
    }
}

public enum TerminalSize {
    /// Columns and rows of the terminal on standard output; nil when it is not a terminal.
    public static func ofStandardOutput() -> (columns: Int, rows: Int)? {
        var size = winsize()
        guard isatty(STDOUT_FILENO) == 1, ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return (Int(size.ws_col), Int(size.ws_row))
    }

    public static var inputIsTerminal: Bool { isatty(STDIN_FILENO) == 1 }
    public static var outputIsTerminal: Bool { isatty(STDOUT_FILENO) == 1 }
}
