import BGKBContent
@testable import BGKBExamples
import BGKBEngine
import BGKBModel
import Foundation
import Testing

/// The verdict cache: a rebuild reuses what an earlier build explored, and must give the very
/// same verdicts and pages; a damaged cache costs time, never a wrong verdict.
@Suite struct VerdictCacheTests {
    static let contentFolder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Content")

    /// Content's examples: ones that hold and ones that break, some ending in a termination.
    static let examples: [Example] = (try? ContentLoader.load(directory: contentFolder.path).corpus.examples) ?? []
    /// A record replayed gives the verdict a fresh exploration gives: same summary, counts and
    /// drawn traces, for examples that hold and examples that break. (A fresh exploration keeps
    /// the runs it draws as they ran; a replay runs them again: this also holds those equal.)
    @Test func thereAreExamplesOfBothIntents() {
        #expect(Set(Self.examples.map(\.intent)).count == 2)
    }

    @Test(arguments: Self.examples.prefix(24))
    func aRecordGivesTheSameVerdictAsExploring(example: Example) throws {
        let fresh = checkRecording(example, recorded: nil)
        let record = try #require(fresh.record)
        let replayed = checkRecording(example, recorded: record)
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
        let bytes = VerdictCache.encode(records)
        #expect(try VerdictCache.decode(Data(bytes)).get() == records)
        #expect(VerdictCache.encode(try VerdictCache.decode(Data(bytes)).get()) == bytes, "the same records give the same bytes")
    }

    /// The file format, written out plainly: the encoder must write exactly this (an old cache
    /// must still read, and the same records give the same bytes).
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
        var text = "bgkb verdict cache 2\n"
        for key in records.keys.sorted() {
            let record = records[key]!
            text += hex(key) + "\t" + (record.passed ? "1" : "0") + "\t" + String(record.schedulesExplored) + "\t"
            text += String(record.schedules) + "\t" + (record.exhausted ? "1" : "0") + "\t"
            text += record.failureSchedule.map(schedule) ?? "-"
            text += "\t" + escape(record.summary) + "\n"
        }
        return text
    }

    @Test(arguments: schedules + [
        Schedule(budget: -0.0, refusal: .none, forcedExpiry: .infinity, choices: [.init(index: -7, choice: 0), .init(index: .max, choice: 9)], seed: 0),
        Schedule(budget: .nan, choices: [.init(index: 0, choice: 100)]),
    ])
    func theBytesAreTheDocumentedFormat(schedule: Schedule) {
        let records: [UInt64: VerdictRecord] = [
            0: VerdictRecord(passed: true, schedulesExplored: 0, summary: "", failureSchedule: nil),
            9: VerdictRecord(passed: true, schedulesExplored: Int.max, summary: "holds in all schedules", failureSchedule: nil),
            0x10: VerdictRecord(passed: false, schedulesExplored: 1_000_000, summary: "\\\t\n\r\n ünïcode \u{0}", failureSchedule: schedule),
            .max: VerdictRecord(passed: false, schedulesExplored: 10, summary: "breaks", failureSchedule: schedule),
        ]
        #expect(VerdictCache.encode(records) == Array(Self.referenceEncoding(records).utf8))
        #expect(VerdictCache.encode([:]) == Array(Self.referenceEncoding([:]).utf8))
    }

    @Test(arguments: [
        ("", 1),
        ("bgkb verdict cache 0\n", 1),
        ("bgkb verdict cache 1\n0000000000000001\t1\t3\t-\tok\n", 1),
        ("bgkb verdict cache 2\n0000000000000001\t1\t3\t3\t1\t-\n", 2),
        ("bgkb verdict cache 2\n0000000000000001\t1\t3\t3\t1\t-\tok\nzz\t1\t3\t3\t1\t-\tok\n", 3),
        ("bgkb verdict cache 2\n0000000000000001\t2\t3\t3\t1\t-\tok\n", 2),
        ("bgkb verdict cache 2\n0000000000000001\t1\t-3\t3\t1\t-\tok\n", 2),
        ("bgkb verdict cache 2\n0000000000000001\t1\t3\t3\t2\t-\tok\n", 2),
        ("bgkb verdict cache 2\n0000000000000001\t1\t3\tx\t1\t-\tok\n", 2),
        ("bgkb verdict cache 2\n0000000000000001\t1\t3\t3\t1\tnot a schedule\tok\n", 2),
        ("bgkb verdict cache 2\n0000000000000001\t1\t3\t3\t1\t-\tbad escape \\q\n", 2),
    ])
    func malformedFilesAreRejectedWithTheirLine(text: String, line: Int) {
        guard case let .failure(problem) = VerdictCache.decode(Data(text.utf8)) else {
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
        try Data("bgkb verdict cache 2\ngarbage\n".utf8).write(to: file)
        let (cache, warning) = VerdictCache.load(from: file, engine: "e")
        #expect(warning?.contains("\(file.path):2: malformed verdict cache") == true)
        let example = try #require(Self.examples.first)
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
        var example = try #require(Self.examples.first)
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
        let corpus = try ContentLoader.load(directory: Self.contentFolder.path).corpus
        let examples = Dictionary(corpus.examples.map { ("\($0.intent)\u{0}\($0.text)", $0) }, uniquingKeysWith: { first, _ in first })
        #expect(Set(examples.values.map { prefix.key($0) }).count == examples.count)
    }

    /// Anything that could change the answer changes the key.
    @Test func theKeyNamesEngineTextIntentConstantsAndOptions() throws {
        let example = try #require(Self.examples.first)
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
        #expect(Mirror(reflecting: constants).children.count == 14)
        constants = SystemConstants.standard
        constants.continuedProgressLimit = 60
        #expect(key != VerdictRecord.key(example, engine: "engine-a", constants: constants))
        constants = SystemConstants.standard
        constants.expiredActivityReturnLimit = 2
        #expect(key != VerdictRecord.key(example, engine: "engine-a", constants: constants))
        var options = Explorer.Options()
        options.preemptionBound = 1
        #expect(key != VerdictRecord.key(example, engine: "engine-a", options: options))
        // Each reduction changes the schedules counted, so each is in the key; so is every option
        // (a new one must be added there too).
        let toggles: [WritableKeyPath<Explorer.Options, Bool>] = [
            \.takesSilentExitsAtOnce, \.dropsSettledRoundChecks, \.takesQuietDidEnterBackgroundExitsAtOnce,
            \.takesHiddenStepsFirst, \.resumesChildrenFromTheirParent, \.cachesStates,
        ]
        for toggle in toggles {
            var changed = Explorer.Options()
            changed[keyPath: toggle].toggle()
            #expect(key != VerdictRecord.key(example, engine: "engine-a", options: changed), "\(toggle)")
        }
        var attempt = Explorer.Options()
        attempt.uncachedAttempt += 1
        #expect(key != VerdictRecord.key(example, engine: "engine-a", options: attempt))
        #expect(Mirror(reflecting: Explorer.Options()).children.count == 11)
    }

    static func identity(of url: URL) -> String? { VerdictCache.identity(ofFileAt: url.path) }

    /// Any change to the executable gives another identity: new bytes of the same length with
    /// the modification time set back, or a new file moved over it. The same file keeps its own.
    @Test func anyChangeToTheFileChangesItsIdentity() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bgkb-identity-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("bgkb")
        try Data("engine A".utf8).write(to: file)
        let modified = try #require(try FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate] as? Date)
        let first = try #require(Self.identity(of: file))
        #expect(Self.identity(of: file) == first, "the same file, the same identity")
        // The kernel's file times advance in ticks: wait for the next before changing the file.
        Thread.sleep(forTimeInterval: 0.05)
        let handle = try FileHandle(forWritingTo: file)
        try handle.write(contentsOf: Data("engine B".utf8))
        try handle.close()
        try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: file.path)
        let rewritten = try #require(Self.identity(of: file))
        #expect(rewritten != first, "rewritten in place, modification time set back")
        Thread.sleep(forTimeInterval: 0.05)
        let other = folder.appendingPathComponent("bgkb.new")
        try Data("engine C".utf8).write(to: other)
        #expect(rename(other.path, file.path) == 0)
        #expect(Self.identity(of: file) != rewritten, "replaced by another file")
        #expect(Self.identity(of: folder.appendingPathComponent("missing")) == nil)
    }
}
