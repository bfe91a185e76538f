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

    static let header = "bgkb verdict cache 2"

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

    /// What identifies the file at `path` (the running executable, for `engine`): its device,
    /// inode, size, and the times of its last change of contents (mtime) and of its last change
    /// of any kind (ctime), to the nanosecond.
    ///
    /// Safe as a cache key: a different bgkb cannot reuse stale verdicts. Writing an executable
    /// in place sets its mtime and ctime; linking or copying a new one makes a new file with
    /// its own ctime, and a rename sets the ctime too. Programs can set mtime back (`touch -r`,
    /// `cp -p`) but not ctime: the kernel sets it to the current time on every change. So any
    /// change to the file gives another key. The converse does not hold (a `chmod`, or the same
    /// binary copied elsewhere, gives a new key too); that costs one build's exploration, never
    /// a wrong verdict. Reading the key is one `stat` call, where hashing the executable read
    /// all of it on every build.
    public static func identity(ofFileAt path: String) -> String? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        #if canImport(Darwin)
        let modified = status.st_mtimespec, changed = status.st_ctimespec
        #else
        let modified = status.st_mtim, changed = status.st_ctim
        #endif
        return ["stat", status.st_dev, status.st_ino, status.st_size, modified.tv_sec, modified.tv_nsec, changed.tv_sec, changed.tv_nsec]
            .map { "\($0)" }.joined(separator: "-")
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
            return Self.encode(records)
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

    /// One record per line, tab-separated: key, passed, schedules, systematic schedules,
    /// exhausted (0 or 1), failing schedule, summary.
    /// Doubles are stored as their bit patterns, so a schedule comes back exactly.
    static func encode(_ records: [UInt64: VerdictRecord]) -> [UInt8] {
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
            appendDecimal(record.schedules, to: &bytes)
            bytes.append(UInt8(ascii: "\t"))
            bytes.append(record.exhausted ? UInt8(ascii: "1") : UInt8(ascii: "0"))
            bytes.append(UInt8(ascii: "\t"))
            if let schedule = record.failureSchedule { appendSchedule(schedule, to: &bytes) } else { bytes.append(UInt8(ascii: "-")) }
            bytes.append(UInt8(ascii: "\t"))
            appendEscaped(record.summary, to: &bytes)
            bytes.append(UInt8(ascii: "\n"))
        }
        return bytes
    }

    /// Works on bytes: a rebuild reads every record before its first page.
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
            guard fields.count == 7, let key = number(fields[0], radix: 16), isFlag(fields[1]),
                  let schedules = number(fields[2], radix: 10), schedules <= UInt64(Int.max),
                  let systematic = number(fields[3], radix: 10), systematic <= UInt64(Int.max), isFlag(fields[4]),
                  let summary = unescape(fields[6]) else {
                return .failure(Problem(line: lineNumber, message: "expected key, passed, schedules, systematic schedules, exhausted, schedule and summary"))
            }
            var schedule: Schedule?
            if !fields[5].elementsEqual("-".utf8) {
                guard let decoded = decodeSchedule(Substring(decoding: fields[5], as: UTF8.self)) else {
                    return .failure(Problem(line: lineNumber, message: "unreadable schedule"))
                }
                schedule = decoded
            }
            records[key] = VerdictRecord(passed: fields[1].first == UInt8(ascii: "1"), schedulesExplored: Int(schedules),
                                         summary: summary, failureSchedule: schedule, schedules: Int(systematic),
                                         exhausted: fields[4].first == UInt8(ascii: "1"))
        }
        return .success(records)
    }

    /// "0" or "1".
    private static func isFlag(_ field: ArraySlice<UInt8>) -> Bool {
        field.count == 1 && (field.first == UInt8(ascii: "0") || field.first == UInt8(ascii: "1"))
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
