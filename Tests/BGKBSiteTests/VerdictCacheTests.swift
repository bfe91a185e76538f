@testable import BGKBSite
import BGKBContent
import BGKBEngine
import BGKBModel
import Foundation
import Testing

/// The verdict cache: a rebuild reuses what an earlier build explored, and must give the very
/// same verdicts and pages; a damaged cache costs time, never a wrong verdict.
@Suite struct VerdictCacheTests {
    /// A record replayed gives the verdict a fresh exploration gives: same summary, counts and
    /// drawn traces, for examples that hold and examples that break. (A fresh exploration keeps
    /// the runs it draws as they ran; a replay runs them again: this also holds those equal.)
    @Test(arguments: ScenarioSamples.all)
    func aRecordGivesTheSameVerdictAsExploring(sample: ScenarioSamples.Sample) throws {
        let fresh = checkRecording(sample.example, recorded: nil)
        let record = try #require(fresh.record)
        let replayed = checkRecording(sample.example, recorded: record)
        var expected = try #require(fresh.verdict)
        let actual = try #require(replayed.verdict)
        #expect(actual.simulatedEvents == 0, "a replayed verdict explores nothing")
        expected.simulatedEvents = 0
        #expect(actual == expected)
    }

    static let schedules: [Schedule] = [
        Schedule(budget: 30),
        Schedule(budget: 0.1 + 0.2, refusal: .returnsInvalid, forcedExpiry: 10.999_000_1),
        Schedule(budget: 5, refusal: .callsExpirationHandler, forcedExpiry: 0, choices: [.init(index: 3, choice: 1), .init(index: 40, choice: 255)],
                 seed: 0xFFFF_FFFF_FFFF_FFFF),
    ]

    /// Doubles go to disk as bit patterns, so a forced expiry at 10.9990001 s comes back exactly
    /// (the printed schedule rounds it to milliseconds).
    @Test(arguments: schedules)
    func recordsSurviveTheFileExactly(schedule: Schedule) throws {
        let records: [UInt64: VerdictRecord] = [
            1: VerdictRecord(passed: true, schedulesExplored: 917, summary: "holds in all 917 schedules", failureSchedule: nil),
            0xFEDC_BA98_7654_3210: VerdictRecord(passed: false, schedulesExplored: 0, summary: "tab\there, line\nbreak, crlf\r\nbreak, back\\slash, ünïcode",
                                                 failureSchedule: schedule),
        ]
        let text = VerdictCache.encode(records)
        #expect(try VerdictCache.decode(text).get() == records)
        #expect(VerdictCache.encode(try VerdictCache.decode(text).get()) == text, "the same records give the same bytes")
    }

    /// The file as the String-building encoder wrote it before bytes replaced it: the byte
    /// encoder must write the very same file (an old cache must still read, and the same records
    /// give the same bytes).
    static func referenceEncoding(_ records: [UInt64: VerdictRecord]) -> String {
        func hex(_ value: UInt64) -> String {
            let digits = String(value, radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }
        func schedule(_ schedule: Schedule) -> String {
            let choices = schedule.choices.isEmpty ? "-" : schedule.choices.map { "\($0.index):\($0.choice)" }.joined(separator: ",")
            return [hex(schedule.budget.bitPattern), schedule.refusal.rawValue, schedule.forcedExpiry.map { hex($0.bitPattern) } ?? "-",
                    choices, schedule.seed.map(hex) ?? "-"].joined(separator: " ")
        }
        func escape(_ text: String) -> String {
            var out: [UInt8] = []
            for byte in text.utf8 {
                switch byte {
                case UInt8(ascii: "\\"): out += Array("\\\\".utf8)
                case UInt8(ascii: "\t"): out += Array("\\t".utf8)
                case UInt8(ascii: "\n"): out += Array("\\n".utf8)
                case UInt8(ascii: "\r"): out += Array("\\r".utf8)
                default: out.append(byte)
                }
            }
            return String(decoding: out, as: UTF8.self)
        }
        var text = "bgkb verdict cache 1\n"
        for key in records.keys.sorted() {
            let record = records[key]!
            text += hex(key) + "\t" + (record.passed ? "1" : "0") + "\t" + String(record.schedulesExplored) + "\t"
            text += record.failureSchedule.map(schedule) ?? "-"
            text += "\t" + escape(record.summary) + "\n"
        }
        return text
    }

    @Test(arguments: schedules + [
        Schedule(budget: -0.0, refusal: .none, forcedExpiry: .infinity, choices: [.init(index: -7, choice: 0), .init(index: .max, choice: 9)], seed: 0),
        Schedule(budget: .nan, choices: [.init(index: 0, choice: 100)]),
    ])
    func theBytesAreTheFileTheStringEncoderWrote(schedule: Schedule) {
        let records: [UInt64: VerdictRecord] = [
            0: VerdictRecord(passed: true, schedulesExplored: 0, summary: "", failureSchedule: nil),
            9: VerdictRecord(passed: true, schedulesExplored: Int.max, summary: "holds in all schedules", failureSchedule: nil),
            0x10: VerdictRecord(passed: false, schedulesExplored: 1_000_000, summary: "\\\t\n\r\n ünïcode \u{0}", failureSchedule: schedule),
            .max: VerdictRecord(passed: false, schedulesExplored: 10, summary: "breaks", failureSchedule: schedule),
        ]
        #expect(VerdictCache.encode(records) == Self.referenceEncoding(records))
        #expect(VerdictCache.encodeBytes([:]) == Array(Self.referenceEncoding([:]).utf8))
    }

    @Test(arguments: [
        ("", 1),
        ("bgkb verdict cache 0\n", 1),
        ("bgkb verdict cache 1\n0000000000000001\t1\t3\t-\n", 2),
        ("bgkb verdict cache 1\n0000000000000001\t1\t3\t-\tok\nzz\t1\t3\t-\tok\n", 3),
        ("bgkb verdict cache 1\n0000000000000001\t2\t3\t-\tok\n", 2),
        ("bgkb verdict cache 1\n0000000000000001\t1\t-3\t-\tok\n", 2),
        ("bgkb verdict cache 1\n0000000000000001\t1\t3\tnot a schedule\tok\n", 2),
        ("bgkb verdict cache 1\n0000000000000001\t1\t3\t-\tbad escape \\q\n", 2),
    ])
    func malformedFilesAreRejectedWithTheirLine(text: String, line: Int) {
        guard case let .failure(problem) = VerdictCache.decode(text) else {
            Issue.record("accepted: \(text.debugDescription)")
            return
        }
        #expect(problem.line == line)
    }

    @Test func aDamagedFileIsAnEmptyCacheAndAWarning() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bgkb-cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent(".Site.verdicts")
        #expect(VerdictCache.load(from: file, engine: "e").warning == nil, "no file yet: an empty cache, nothing to say")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("bgkb verdict cache 1\ngarbage\n".utf8).write(to: file)
        let (cache, warning) = VerdictCache.load(from: file, engine: "e")
        #expect(warning?.contains("\(file.path):2: malformed verdict cache") == true)
        let example = ScenarioSamples.overwrite.example
        #expect(cache.record(for: VerdictRecord.key(example, engine: "e")) == nil)
        // Saving replaces the damaged file with a good one.
        let (_, _, record) = checkRecording(example, recorded: nil)
        cache.store(try #require(record), for: VerdictRecord.key(example, engine: "e"))
        try cache.save(to: file)
        let reloaded = VerdictCache.load(from: file, engine: "e")
        #expect(reloaded.warning == nil)
        #expect(reloaded.cache.record(for: VerdictRecord.key(example, engine: "e")) == record)
    }

    /// The key reads the text eight bytes at a time and the last few on their own: a change of
    /// one byte anywhere, or of the length, gives another key; so does moving bytes between the
    /// intent and the text. Content's examples (distinct texts) get distinct keys.
    @Test func everyByteOfTheTextIsInTheKey() throws {
        var example = ScenarioSamples.overwrite.example
        let prefix = VerdictRecord.KeyPrefix(engine: "e")
        var keys = Set<UInt64>()
        for length in 0...19 {
            let text = String(repeating: "a", count: length)
            example.text = text
            #expect(keys.insert(prefix.key(example)).inserted, "length \(length)")
            for position in 0..<length {
                var bytes = Array(text.utf8)
                bytes[position] = UInt8(ascii: "b")
                example.text = String(decoding: bytes, as: UTF8.self)
                #expect(keys.insert(prefix.key(example)).inserted, "length \(length), byte \(position)")
            }
        }
        example.text = "a\u{0}"
        #expect(prefix.key(example) != { var other = example; other.text = "a"; return prefix.key(other) }())
        let corpus = try ContentLoader.load(directory: StalenessTests.contentFolder.path).corpus
        let examples = Dictionary(corpus.examples.map { ("\($0.intent)\u{0}\($0.text)", $0) }, uniquingKeysWith: { first, _ in first })
        #expect(Set(examples.values.map { prefix.key($0) }).count == examples.count)
    }

    /// Anything that could change the answer changes the key.
    @Test func theKeyNamesEngineTextIntentConstantsAndOptions() {
        let example = ScenarioSamples.overwrite.example
        let key = VerdictRecord.key(example, engine: "engine-a")
        #expect(key == VerdictRecord.key(example, engine: "engine-a"))
        #expect(key != VerdictRecord.key(example, engine: "engine-b"))
        var edited = example
        edited.text += "\n"
        #expect(key != VerdictRecord.key(edited, engine: "engine-a"))
        var flipped = example
        flipped.intent = example.intent == .follows ? .breaks : .follows
        #expect(key != VerdictRecord.key(flipped, engine: "engine-a"))
        var constants = SystemConstants.standard
        constants.backgroundTaskBudget = 29
        #expect(key != VerdictRecord.key(example, engine: "engine-a", constants: constants))
        // Every constant is in the key: a new one must be added there too.
        #expect(Mirror(reflecting: constants).children.count == 13)
        constants = SystemConstants.standard
        constants.continuedProgressLimit = 60
        #expect(key != VerdictRecord.key(example, engine: "engine-a", constants: constants))
        var options = Explorer.Options()
        options.preemptionBound = 1
        #expect(key != VerdictRecord.key(example, engine: "engine-a", options: options))
        // Each reduction changes the schedules counted, so each is in the key; so is every option
        // (a new one must be added there too).
        let toggles: [WritableKeyPath<Explorer.Options, Bool>] = [
            \.takesSilentExitsAtOnce, \.dropsSettledRoundChecks, \.takesQuietDidEnterBackgroundExitsAtOnce,
            \.resumesChildrenFromTheirParent,
        ]
        for toggle in toggles {
            var changed = Explorer.Options()
            changed[keyPath: toggle].toggle()
            #expect(key != VerdictRecord.key(example, engine: "engine-a", options: changed), "\(toggle)")
        }
        #expect(Mirror(reflecting: Explorer.Options()).children.count == 8)
    }

    /// The streaming build with a warm cache writes the same bytes as without one (the committed
    /// Site/, which `StalenessTests` checks against a fresh exploration), and explores nothing
    /// the second time.
    @Test func aWarmBuildWritesTheCommittedSite() throws {
        let content = StalenessTests.contentFolder.path
        let corpus = try ContentLoader.load(directory: content).corpus
        let configuration = SiteConfiguration(contentDirectory: content)
        let cache = VerdictCache(engine: "test")
        var sites: [[String: Data]] = []
        var explored: [Int] = []
        for _ in 0..<2 {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bgkb-warm-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: folder) }
            let staging = try SiteWriter.stage(folder.appendingPathComponent("Site"))
            let (site, writeError) = SiteBuilder.build(corpus: corpus, configuration: configuration, cache: cache, runningExamplesInto: staging)
            #expect(writeError == nil)
            #expect(!site.diagnostics.hasErrors && !site.exampleDiagnostics.hasErrors)
            sites.append(try Self.files(in: staging.folder))
            staging.discard()
            explored.append(cache.misses)
            // Encoded beside the last pages, after every example ran: the records the cache holds
            // at the end, one per distinct example.
            let encoded = try #require(site.verdictCacheFile, "a build with a cache encodes it")
            #expect(encoded == cache.encodedRecords())
            let records = try VerdictCache.decode(String(decoding: encoded, as: UTF8.self)).get()
            #expect(Set(records.keys) == Set(corpus.examples.map { VerdictRecord.key($0, engine: "test") }))
            #expect(site.steps.contains { $0.name.hasPrefix("verdict cache") && $0.inGroup })
        }
        // Examples with the same intent and text are one question: explored once, unless two
        // rule pages ask for it at the same moment on two cores (both explore; same answer).
        let distinct = Set(corpus.examples.map { VerdictRecord.key($0, engine: "test") }).count
        #expect(explored[0] >= distinct && explored[0] <= corpus.examples.count, "the first build explores every distinct example")
        #expect(explored[1] == explored[0], "the second build explores none")
        #expect(cache.hits + cache.misses == 2 * corpus.examples.count)
        #expect(sites[0] == sites[1])
        let committed = try Self.files(in: StalenessTests.siteFolder).filter { $0.key != SiteWriter.markerName }
        let differing = committed.keys.filter { committed[$0] != sites[1][$0] }.sorted()
        #expect(differing.isEmpty && committed.count == sites[1].count, "\(differing.prefix(5))")
    }

    static func files(in folder: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for path in try FileManager.default.subpathsOfDirectory(atPath: folder.path) {
            let url = folder.appendingPathComponent(path)
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue {
                files[path] = try Data(contentsOf: url)
            }
        }
        return files
    }

    /// A minimal 64-bit little-endian ELF file: a header, one PT_NOTE program header and one
    /// note of `type` named `name` holding `description`.
    static func elf(note description: [UInt8], type: UInt32 = 3, name: [UInt8] = Array("GNU\0".utf8), entries: UInt16 = 1) -> [UInt8] {
        func le<T: FixedWidthInteger>(_ value: T) -> [UInt8] { withUnsafeBytes(of: value.littleEndian) { Array($0) } }
        var header = [0x7F, 0x45, 0x4C, 0x46, 2, 1, 1] + [UInt8](repeating: 0, count: 9)   // e_ident
        header += le(UInt16(2)) + le(UInt16(62)) + le(UInt32(1)) + le(UInt64(0))            // type, machine, version, entry
        header += le(UInt64(64)) + le(UInt64(0)) + le(UInt32(0)) + le(UInt16(64))           // phoff, shoff, flags, ehsize
        header += le(UInt16(56)) + le(entries) + le(UInt16(0)) + le(UInt16(0)) + le(UInt16(0)) // phentsize, phnum, sh*
        func padded(_ bytes: [UInt8]) -> [UInt8] { bytes + [UInt8](repeating: 0, count: (4 - bytes.count % 4) % 4) }
        let note = le(UInt32(name.count)) + le(UInt32(description.count)) + le(type) + padded(name) + padded(description)
        var program = le(UInt32(4)) + le(UInt32(4)) + le(UInt64(64 + 56)) + le(UInt64(0)) + le(UInt64(0))
        program += le(UInt64(note.count)) + le(UInt64(note.count)) + le(UInt64(4))
        return header + program + note
    }

    static func identity(of bytes: [UInt8]) throws -> String? {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("bgkb-identity-\(UUID().uuidString)")
        try Data(bytes).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        return VerdictCache.identity(ofFileAt: url.path)
    }

    /// The engine's identity is the linker's build ID when the executable has one (reading it
    /// replaced hashing 17 MB on every build), and a hash of the whole file otherwise, so a file
    /// that is not ELF, or an ELF file without a build ID or with a damaged table, still gets one.
    @Test func anExecutableIsIdentifiedByItsBuildIDOrElseItsBytes() throws {
        let id: [UInt8] = [0xde, 0xad, 0xbe, 0xef, 0, 1, 2, 3, 4, 5, 0x0a, 0xff]
        #expect(try Self.identity(of: Self.elf(note: id)) == "build-id-deadbeef000102030405" + "0aff")
        #expect(try Self.identity(of: Self.elf(note: [1, 2, 3, 4, 5, 6, 7, 8])) == "build-id-0102030405060708")
        for other in [Self.elf(note: id, type: 1), Self.elf(note: id, name: Array("GNV\0".utf8)), Self.elf(note: id, entries: 900),
                      Array(Self.elf(note: id).prefix(140)), Array("#!/bin/sh\necho hi\n".utf8)] {
            let identity = try #require(try Self.identity(of: other))
            #expect(!identity.hasPrefix("build-id-"), "\(identity)")
        }
        #expect(try Self.identity(of: Array("a".utf8)) != Self.identity(of: Array("b".utf8)))
        #if os(Linux)
        // This test binary was linked by the same toolchain as bgkb: it carries a build ID.
        let executable = try #require(Bundle.main.executablePath)
        #expect(VerdictCache.identity(ofFileAt: executable)?.hasPrefix("build-id-") == true)
        #endif
    }

}
