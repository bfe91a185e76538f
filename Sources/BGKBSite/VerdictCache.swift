import BGKBEngine
import BGKBModel
import Foundation

/// What earlier builds found when they explored each example, so a rebuild explores only the
/// examples whose text (or the engine) changed. A record is found by `VerdictRecord.key`: the
/// engine's identity (`engine`), the constants, the options, the intent and the scenario text,
/// so a record is reused only for the very same question put to the very same engine. The pages are
/// still drawn from runs replayed now (`checkRecording`); only the exploration is skipped.
///
/// Lookups and stores come from every core (rule pages render in parallel), hence the lock.
public final class VerdictCache: @unchecked Sendable {
    /// Names the engine: `bgkb` uses a hash of its own executable, so any rebuild with other
    /// code starts from an empty cache.
    public let engine: String
    let keys: VerdictRecord.KeyPrefix
    private let lock = NSLock()
    private let stored: [UInt64: VerdictRecord]
    /// The keys of the stored records this build used, and the records it made: what `save`
    /// writes, so records of examples that no longer exist do not pile up.
    private var used = Set<UInt64>()
    private var made: [UInt64: VerdictRecord] = [:]
    private var hitCount = 0
    private var missCount = 0

    public init(engine: String, records: [UInt64: VerdictRecord] = [:]) {
        self.engine = engine
        keys = VerdictRecord.KeyPrefix(engine: engine)
        stored = records
    }

    /// `VerdictRecord.key(example, engine: engine)`, with the engine's part hashed once.
    func key(_ example: Example) -> UInt64 {
        keys.key(example)
    }

    /// Examples whose verdict came from the cache, and examples explored, so far.
    public var hits: Int { lock.withLock { hitCount } }
    public var misses: Int { lock.withLock { missCount } }

    func record(for key: UInt64) -> VerdictRecord? {
        lock.withLock {
            if let record = stored[key] {
                hitCount += 1
                used.insert(key)
                return record
            }
            if let record = made[key] {
                hitCount += 1
                return record
            }
            missCount += 1
            return nil
        }
    }

    func store(_ record: VerdictRecord, for key: UInt64) {
        lock.withLock { made[key] = record }
    }

    // MARK: On disk

    static let header = "bgkb verdict cache 1"

    /// Reads a cache file. A missing file is an empty cache; an unreadable or malformed one is
    /// an empty cache plus a warning saying why (the build then explores everything and writes a
    /// good file): a cache can only ever cost time, never a wrong verdict.
    public static func load(from url: URL, engine: String) -> (cache: VerdictCache, warning: String?) {
        guard let data = FileManager.default.contents(atPath: url.path) else {
            if FileManager.default.fileExists(atPath: url.path) {
                return (VerdictCache(engine: engine), "\(url.path): cannot read the verdict cache; exploring every example")
            }
            return (VerdictCache(engine: engine), nil)
        }
        switch decode(data) {
        case let .success(records):
            return (VerdictCache(engine: engine, records: records), nil)
        case let .failure(problem):
            return (VerdictCache(engine: engine), "\(url.path):\(problem.line): malformed verdict cache (\(problem.message)); exploring every example")
        }
    }

    /// What identifies the file at `path` (the running executable, for `engine`): the build ID
    /// the linker wrote into an ELF executable (a hash of its contents: `build-id-` and its hex)
    /// when it has one, else a hash of the whole file. Hashing a 17 MB binary took 7 ms of every
    /// build, where reading the note reads a few kilobytes.
    public static func identity(ofFileAt path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        if let buildID = elfBuildID(handle) { return "build-id-" + buildID }
        try? handle.seek(toOffset: 0)
        return contentHash(handle)
    }

    /// The NT_GNU_BUILD_ID note of a 64-bit little-endian ELF file, as lowercase hex: found
    /// through the program headers' PT_NOTE segments. Nil for anything else, or anything
    /// malformed (then the whole file is hashed instead).
    static func elfBuildID(_ handle: FileHandle) -> String? {
        func read(_ offset: UInt64, _ count: Int) -> Data? {
            guard count > 0, count <= 1 << 20, (try? handle.seek(toOffset: offset)) != nil,
                  let data = try? handle.read(upToCount: count), data.count == count else { return nil }
            return data
        }
        func integer<T: FixedWidthInteger>(_ data: Data, _ offset: Int, as: T.Type) -> T? {
            guard offset >= 0, offset + MemoryLayout<T>.size <= data.count else { return nil }
            let start = data.startIndex + offset
            return data[start..<(start + MemoryLayout<T>.size)].reversed().reduce(T(0)) { $0 << 8 | T($1) }
        }
        // e_ident: magic, ELFCLASS64, ELFDATA2LSB.
        guard let header = read(0, 64), header.prefix(6).elementsEqual([0x7F, 0x45, 0x4C, 0x46, 2, 1]),
              let tableOffset = integer(header, 32, as: UInt64.self),
              let entrySize = integer(header, 54, as: UInt16.self), entrySize >= 56,
              let entryCount = integer(header, 56, as: UInt16.self), entryCount > 0,
              let table = read(tableOffset, Int(entrySize) * Int(entryCount)) else { return nil }
        for entry in 0..<Int(entryCount) {
            let base = entry * Int(entrySize)
            guard integer(table, base, as: UInt32.self) == 4, // PT_NOTE
                  let offset = integer(table, base + 8, as: UInt64.self),
                  let size = integer(table, base + 32, as: UInt64.self), size < 1 << 20,
                  let notes = read(offset, Int(size)) else { continue }
            var position = 0
            while let nameSize = integer(notes, position, as: UInt32.self),
                  let descriptionSize = integer(notes, position + 4, as: UInt32.self),
                  let type = integer(notes, position + 8, as: UInt32.self) {
                let name = position + 12
                let description = name + (Int(nameSize) + 3) / 4 * 4
                let next = description + (Int(descriptionSize) + 3) / 4 * 4
                guard next <= notes.count else { break }
                if type == 3, nameSize == 4, notes[notes.startIndex + name ..< notes.startIndex + name + 4].elementsEqual([0x47, 0x4E, 0x55, 0]),
                   descriptionSize >= 8 {
                    let bytes = notes[notes.startIndex + description ..< notes.startIndex + description + Int(descriptionSize)]
                    return bytes.map { String(format: "%02x", $0) }.joined()
                }
                position = next
            }
        }
        return nil
    }

    /// A hash of the whole file (`StableHash` over its bytes, read in large blocks) and its length.
    static func contentHash(_ handle: FileHandle) -> String? {
        var hash = StableHash()
        var length: UInt64 = 0
        while let block = try? handle.read(upToCount: 1 << 20), !block.isEmpty {
            length += UInt64(block.count)
            hash.combine(bytes: block)
        }
        return String(hash.value, radix: 16) + "-" + String(length)
    }

    /// Writes the records this build used or made, atomically (a temporary file renamed over
    /// the old one), sorted by key so the same records give the same bytes.
    public func save(to url: URL) throws {
        try Self.write(encodedRecords(), to: url)
    }

    /// The file `save` writes, as bytes: the records this build used or made. The streaming
    /// build encodes them beside its last pages (`SiteBuild.verdictCacheFile`), so the caller
    /// only writes them once the site is in place.
    public func encodedRecords() -> [UInt8] {
        lock.withLock {
            var records = made
            for key in used { records[key] = stored[key] }
            return Self.encodeBytes(records)
        }
    }

    /// Writes a cache file's bytes (`encodedRecords()`) atomically.
    public static func write(_ bytes: [UInt8], to url: URL) throws {
        let folder = url.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let temporary = folder.appendingPathComponent(".\(url.lastPathComponent).tmp-\(ProcessInfo.processInfo.processIdentifier)")
        do {
            try Data(bytes).write(to: temporary)
            // rename(2) replaces the old file in one step: a reader sees the old cache or the new.
            guard rename(temporary.path, url.path) == 0 else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
            }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
    }

    struct Problem: Error, Equatable {
        var line: Int
        var message: String
    }

    /// One record per line, tab-separated: key, passed, schedules, failing schedule, summary.
    /// Doubles are stored as their bit patterns, so a schedule comes back exactly.
    static func encode(_ records: [UInt64: VerdictRecord]) -> String {
        String(decoding: encodeBytes(records), as: UTF8.self)
    }

    /// `encode`, written into one buffer of bytes: String appends, a String per number and a
    /// join per schedule cost about 3,000 instructions a record, on one core at the end of a
    /// build (`VerdictCacheTests` holds it to the String form it replaces).
    static func encodeBytes(_ records: [UInt64: VerdictRecord]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(header.utf8.count + 1 + records.count * 96)
        bytes.append(contentsOf: header.utf8)
        bytes.append(UInt8(ascii: "\n"))
        for key in records.keys.sorted() {
            let record = records[key]!
            appendHex(key, to: &bytes)
            bytes.append(UInt8(ascii: "\t"))
            bytes.append(record.passed ? UInt8(ascii: "1") : UInt8(ascii: "0"))
            bytes.append(UInt8(ascii: "\t"))
            appendDecimal(record.schedulesExplored, to: &bytes)
            bytes.append(UInt8(ascii: "\t"))
            if let schedule = record.failureSchedule { appendSchedule(schedule, to: &bytes) } else { bytes.append(UInt8(ascii: "-")) }
            bytes.append(UInt8(ascii: "\t"))
            appendEscaped(record.summary, to: &bytes)
            bytes.append(UInt8(ascii: "\n"))
        }
        return bytes
    }

    static func decode(_ text: String) -> Result<[UInt64: VerdictRecord], Problem> {
        decode(Data(text.utf8))
    }

    /// Works on bytes: a rebuild reads tens of thousands of records before its first page.
    static func decode(_ data: Data) -> Result<[UInt64: VerdictRecord], Problem> {
        decode(Array(data))
    }

    /// Line by line over the file's bytes, without copying them or splitting them up front.
    static func decode(_ bytes: [UInt8]) -> Result<[UInt64: VerdictRecord], Problem> {
        var records: [UInt64: VerdictRecord] = [:]
        var lineNumber = 0
        var start = 0
        while start < bytes.count || lineNumber == 0 {
            let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
            lineNumber += 1
            let line = bytes[start..<end]
            start = end + 1
            if lineNumber == 1 {
                guard line.elementsEqual(header.utf8) else { return .failure(Problem(line: 1, message: "expected \"\(header)\"")) }
                if end == bytes.count { break }
                continue
            }
            let fields = line.split(separator: UInt8(ascii: "\t"), omittingEmptySubsequences: false)
            guard fields.count == 5, let key = number(fields[0], radix: 16), fields[1].count == 1,
                  fields[1].first == UInt8(ascii: "0") || fields[1].first == UInt8(ascii: "1"),
                  let schedules = number(fields[2], radix: 10), schedules <= UInt64(Int.max), let summary = unescape(fields[4]) else {
                return .failure(Problem(line: lineNumber, message: "expected key, passed, schedules, schedule and summary"))
            }
            var schedule: Schedule?
            if !fields[3].elementsEqual("-".utf8) {
                guard let decoded = decodeSchedule(Substring(decoding: fields[3], as: UTF8.self)) else {
                    return .failure(Problem(line: lineNumber, message: "unreadable schedule"))
                }
                schedule = decoded
            }
            records[key] = VerdictRecord(passed: fields[1].first == UInt8(ascii: "1"), schedulesExplored: Int(schedules),
                                         summary: summary, failureSchedule: schedule)
        }
        return .success(records)
    }

    /// An unsigned number in `radix` (10 or 16), all of `digits`, or nil.
    private static func number<Digits: Collection<UInt8>>(_ digits: Digits, radix: UInt64) -> UInt64? {
        guard !digits.isEmpty, digits.count <= (radix == 16 ? 16 : 19) else { return nil }
        var value: UInt64 = 0
        for byte in digits {
            let digit: UInt64
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt64(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f") where radix == 16: digit = UInt64(byte - UInt8(ascii: "a") + 10)
            default: return nil
            }
            value = value * radix + digit
        }
        return value
    }

    /// `budget-bits refusal forced-bits|- choices|- seed|-`, space-separated.
    private static func appendSchedule(_ schedule: Schedule, to bytes: inout [UInt8]) {
        appendHex(schedule.budget.bitPattern, to: &bytes)
        bytes.append(UInt8(ascii: " "))
        bytes.append(contentsOf: schedule.refusal.rawValue.utf8)
        bytes.append(UInt8(ascii: " "))
        if let forced = schedule.forcedExpiry { appendHex(forced.bitPattern, to: &bytes) } else { bytes.append(UInt8(ascii: "-")) }
        bytes.append(UInt8(ascii: " "))
        if schedule.choices.isEmpty { bytes.append(UInt8(ascii: "-")) }
        for (position, choice) in schedule.choices.enumerated() {
            if position > 0 { bytes.append(UInt8(ascii: ",")) }
            appendDecimal(choice.index, to: &bytes)
            bytes.append(UInt8(ascii: ":"))
            appendDecimal(choice.choice, to: &bytes)
        }
        bytes.append(UInt8(ascii: " "))
        if let seed = schedule.seed { appendHex(seed, to: &bytes) } else { bytes.append(UInt8(ascii: "-")) }
    }

    static func decodeSchedule(_ text: Substring) -> Schedule? {
        let parts = text.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 5, let budget = UInt64(parts[0], radix: 16).map(Double.init(bitPattern:)),
              let refusal = Conditions.Refusal(rawValue: String(parts[1])) else { return nil }
        var forced: Double?
        if parts[2] != "-" {
            guard let bits = UInt64(parts[2], radix: 16) else { return nil }
            forced = Double(bitPattern: bits)
        }
        var choices: [Schedule.Choice] = []
        if parts[3] != "-" {
            for item in parts[3].split(separator: ",") {
                let pair = item.split(separator: ":")
                guard pair.count == 2, let index = Int32(pair[0]), let choice = UInt8(pair[1]) else { return nil }
                choices.append(Schedule.Choice(index: index, choice: choice))
            }
        }
        var seed: UInt64?
        if parts[4] != "-" {
            guard let value = UInt64(parts[4], radix: 16) else { return nil }
            seed = value
        }
        return Schedule(budget: budget, refusal: refusal, forcedExpiry: forced, choices: choices, seed: seed)
    }

    /// Sixteen lower-case hex digits, zero-padded.
    private static func appendHex(_ value: UInt64, to bytes: inout [UInt8]) {
        let digits: StaticString = "0123456789abcdef"
        for shift in stride(from: 60, through: 0, by: -4) {
            bytes.append(digits.utf8Start[Int((value >> UInt64(shift)) & 0xF)])
        }
    }

    /// As `String(value)` writes it (a small string: no allocation).
    private static func appendDecimal<Value: BinaryInteger>(_ value: Value, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: String(value).utf8)
    }

    /// Byte by byte, so "\r\n" (one Character in Swift) is escaped as the two bytes it is.
    private static func appendEscaped(_ text: String, to bytes: inout [UInt8]) {
        func special(_ byte: UInt8) -> Bool {
            byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")
        }
        // Nearly every summary has nothing to escape: appended whole, not byte by byte.
        guard text.utf8.contains(where: special) else {
            bytes.append(contentsOf: text.utf8)
            return
        }
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\\"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case UInt8(ascii: "\t"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case UInt8(ascii: "\n"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case UInt8(ascii: "\r"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            default: bytes.append(byte)
            }
        }
    }

    private static func unescape<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String? {
        guard bytes.contains(UInt8(ascii: "\\")) else { return String(decoding: bytes, as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var escaped = false
        for byte in bytes {
            if escaped {
                switch byte {
                case UInt8(ascii: "\\"): out.append(byte)
                case UInt8(ascii: "t"): out.append(UInt8(ascii: "\t"))
                case UInt8(ascii: "n"): out.append(UInt8(ascii: "\n"))
                case UInt8(ascii: "r"): out.append(UInt8(ascii: "\r"))
                default: return nil
                }
                escaped = false
            } else if byte == UInt8(ascii: "\\") {
                escaped = true
            } else {
                out.append(byte)
            }
        }
        return escaped ? nil : String(decoding: out, as: UTF8.self)
    }
}
