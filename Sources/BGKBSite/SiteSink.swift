import Foundation

/// Where the build puts each file as soon as it is made: kept in memory (tests, `--check`) or
/// written straight into a staging folder (`SiteWriter.Staging`), so a 10,000-rule build never
/// holds every page at once. Rule pages render on every core and call `emit` from several
/// threads: the bookkeeping is under a lock, the file writes are not (each path is its own file).
final class SiteSink: @unchecked Sendable {
    private let staging: SiteWriter.Staging?
    private let lock = NSLock()
    private var emitted = Set<String>()
    private var memory: [String: String] = [:]
    private var madeFolders = Set<String>()
    private(set) var byteCount = 0
    /// The first write that failed; the build goes on (its diagnostics are still useful) but
    /// nothing is swapped into place.
    private(set) var failure: SiteWriter.WriteError?

    /// Keeps every file in memory.
    init() { staging = nil }

    /// Writes every file into `staging`.
    init(staging: SiteWriter.Staging) { self.staging = staging }

    var files: [String: String] {
        lock.lock(); defer { lock.unlock() }
        return memory
    }

    var fileCount: Int {
        lock.lock(); defer { lock.unlock() }
        return emitted.count
    }

    /// A file given as bytes (a page written by `HTMLWriter`): on disk as they are.
    @discardableResult
    func emit(_ path: String, _ bytes: [UInt8]) -> Bool {
        guard staging != nil else { return emit(path, String(decoding: bytes, as: UTF8.self)) }
        return store(path, byteCount: bytes.count) { try $0.write(path, bytes) }
    }

    @discardableResult
    func emit(_ path: String, _ page: borrowing HTMLWriter) -> Bool {
        guard staging != nil else { return emit(path, page.string) }
        return store(path, byteCount: page.bytes.count) { try $0.write(path, page.bytes) }
    }

    /// One file whose pieces `produce` hands to `write` in order: written as they come (kept in
    /// memory for an in-memory build), so the whole file is never in memory at once.
    @discardableResult
    func stream(_ path: String, _ produce: (_ write: ([UInt8]) -> Void) -> Void) -> Bool {
        guard let staging else {
            var bytes: [UInt8] = []
            produce { bytes.append(contentsOf: $0) }
            return emit(path, String(decoding: bytes, as: UTF8.self))
        }
        var count = 0
        let isNew = store(path, byteCount: 0) { _ in
            let file = try staging.stream(path)
            var failure: Error?
            produce { piece in
                guard failure == nil else { return }
                do { try file.write(piece) } catch { failure = error }
                count += piece.count
            }
            if let failure { throw failure }
            try file.finish()
        }
        lock.lock(); byteCount += count; lock.unlock()
        return isNew
    }

    /// A file written piece by piece over a whole step, from any thread (the caller orders the
    /// pieces and does not append from two threads at once): the search index, which the rule
    /// pages fill as they go (`SearchIndexFeed`). `finish` closes it and says whether it was new.
    final class Appender: @unchecked Sendable {
        private let sink: SiteSink
        private let path: String
        private var file: SiteWriter.FileStream?
        private var memory: [UInt8] = []
        private var count = 0
        private var isNew = true

        fileprivate init(sink: SiteSink, path: String) {
            self.sink = sink
            self.path = path
            guard sink.staging != nil else { return }
            isNew = sink.store(path, byteCount: 0) { staging in file = try staging.stream(path) }
        }

        func append(_ bytes: [UInt8]) {
            count += bytes.count
            guard sink.staging != nil else { memory.append(contentsOf: bytes); return }
            guard let file else { return }
            do { try file.write(bytes) } catch { sink.fail(error); self.file = nil }
        }

        func finish() -> Bool {
            guard sink.staging != nil else { return sink.emit(path, String(decoding: memory, as: UTF8.self)) }
            if let file {
                do { try file.finish() } catch { sink.fail(error) }
                self.file = nil
            }
            sink.lock.lock(); sink.byteCount += count; sink.lock.unlock()
            return isNew
        }
    }

    func appender(_ path: String) -> Appender {
        Appender(sink: self, path: path)
    }

    private func fail(_ error: Error) {
        lock.lock(); record(error); lock.unlock()
    }

    /// Records (and writes) one file. Returns false when an earlier step already wrote `path`;
    /// the later contents win, as they did when the site was one dictionary.
    @discardableResult
    func emit(_ path: String, _ contents: String) -> Bool {
        guard staging != nil else {
            lock.lock()
            let isNew = emitted.insert(path).inserted
            byteCount += contents.utf8.count
            if let previous = memory[path] { byteCount -= previous.utf8.count }
            memory[path] = contents
            lock.unlock()
            return isNew
        }
        return store(path, byteCount: contents.utf8.count) { try $0.write(path, contents) }
    }

    /// Bookkeeping under the lock, then the write outside it.
    private func store(_ path: String, byteCount count: Int, write: (SiteWriter.Staging) throws -> Void) -> Bool {
        guard let staging else { return false }
        lock.lock()
        let isNew = emitted.insert(path).inserted
        byteCount += count
        let folder = SiteWriter.parentFolder(path)
        var needsFolder = false
        if !folder.isEmpty, !madeFolders.contains(folder) { madeFolders.insert(folder); needsFolder = true }
        // Folders are made under the lock, so no thread writes into a folder that is not there yet.
        if needsFolder {
            do { try staging.makeFolder(folder) } catch { record(error) }
        }
        lock.unlock()
        do {
            try write(staging)
        } catch {
            lock.lock(); record(error); lock.unlock()
        }
        return isNew
    }

    /// Must be called with the lock held.
    private func record(_ error: Error) {
        guard failure == nil else { return }
        failure = (error as? SiteWriter.WriteError) ?? SiteWriter.WriteError(path: staging?.folder.path ?? "", message: "\(error)")
    }
}
