import BGKBModel
import BGKBQuiz
import Foundation
import Testing

@Suite struct ProgressStoreTests {
    struct SimulatedCrash: Error {}

    let directory: String
    let path: String
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    init() throws {
        directory = NSTemporaryDirectory() + "bgkb-quiz-tests-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        path = directory + "/nested/progress.json"
    }

    func sampleProgress(answers: Int) -> QuizProgress {
        var progress = QuizProgress()
        let bank = QuestionBank(corpus: Fixtures.corpus, outcomes: nil)
        for question in bank.questions.prefix(answers) { progress.record(.correct, for: question, at: now) }
        progress.sessions.append(SessionRecord(at: now, asked: answers, correct: answers, seed: 42))
        return progress
    }

    func files() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory + "/nested")) ?? []).sorted()
    }

    @Test func aMissingFileIsFreshProgress() throws {
        let loaded = try ProgressStore(path: path).load()
        #expect(loaded.progress == QuizProgress())
        #expect(loaded.notices.isEmpty)
    }

    @Test func saveThenLoadRoundTrips() throws {
        let store = ProgressStore(path: path)
        let progress = sampleProgress(answers: 5)
        try store.save(progress)
        let loaded = try store.load()
        #expect(loaded.progress == progress)
        #expect(loaded.notices.isEmpty)
        #expect(files() == ["progress.json"])
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("\"schema\" : \"bgkb-progress\""))
        #expect(text.contains("\"schemaVersion\" : 1"))
    }

    /// A crash halfway through writing leaves the previous file intact and loadable.
    @Test(arguments: [0, 1, 2, 7])
    func aCrashInTheMiddleOfASaveKeepsThePreviousFile(crashAtChunk: Int) throws {
        let store = ProgressStore(path: path)
        let before = sampleProgress(answers: 2)
        try store.save(before)
        let after = sampleProgress(answers: 8)
        #expect(throws: SimulatedCrash.self) {
            try store.save(after, chunkSize: 64) { offset in
                if offset >= crashAtChunk * 64 { throw SimulatedCrash() }
            }
        }
        let loaded = try store.load()
        #expect(loaded.progress == before)
        #expect(loaded.notices.isEmpty)
        // The next save goes through.
        try store.save(after)
        #expect(try store.load().progress == after)
    }

    struct Bad: CustomTestStringConvertible, Sendable {
        var name: String
        var bytes: [UInt8]
        var message: String
        var testDescription: String { name }
    }

    static let badFiles: [Bad] = {
        let good = (try? ProgressStore.encode(QuizProgress(cards: ["q": Card(contentVersion: "v", rule: "r")]))) ?? Data()
        return [
            Bad(name: "truncated", bytes: Array(good.prefix(good.count / 2)), message: "not JSON"),
            Bad(name: "binary garbage", bytes: [0xff, 0xfe, 0x00, 0x13, 0x37], message: "not JSON"),
            Bad(name: "empty", bytes: [], message: "not JSON"),
            Bad(name: "foreign JSON", bytes: Array(#"{"name": "some other tool", "items": [1, 2]}"#.utf8), message: "not a bgkb progress file"),
            Bad(name: "newer schema", bytes: Array(#"{"schema": "bgkb-progress", "schemaVersion": 99, "cards": {}}"#.utf8), message: "newer bgkb"),
            Bad(name: "wrong field types", bytes: Array(#"{"schema": "bgkb-progress", "schemaVersion": 1, "cards": {"q": 3}, "sessions": []}"#.utf8), message: "damaged"),
        ]
    }()

    @Test(arguments: badFiles)
    func aBadFileIsMovedAsideAndTheQuizGoesOn(bad: Bad) throws {
        try FileManager.default.createDirectory(atPath: directory + "/nested", withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: path, contents: Data(bad.bytes))
        let store = ProgressStore(path: path)
        let loaded = try store.load(now: now)
        #expect(loaded.progress == QuizProgress())
        #expect(loaded.notices.count == 1)
        #expect(loaded.notices.first?.contains(bad.message) == true, "\(loaded.notices)")
        let aside = files().filter { $0.hasPrefix("progress.json.bad-") }
        #expect(aside.count == 1)
        #expect(FileManager.default.contents(atPath: directory + "/nested/" + aside[0]) == Data(bad.bytes))
        #expect(!FileManager.default.fileExists(atPath: path))
        // And a second bad file does not overwrite the first one moved aside.
        _ = FileManager.default.createFile(atPath: path, contents: Data(bad.bytes))
        _ = try store.load(now: now)
        #expect(files().filter { $0.hasPrefix("progress.json.bad-") }.count == 2)
    }

    @Test func aTemporaryLeftByADeadProcessIsCleanedUp() throws {
        let store = ProgressStore(path: path)
        try store.save(sampleProgress(answers: 1))
        // No process has this id (above the kernel's pid_max).
        let stale = path + ".tmp-99999999"
        _ = FileManager.default.createFile(atPath: stale, contents: Data("{\"half".utf8))
        _ = try store.load()
        #expect(!FileManager.default.fileExists(atPath: stale))
    }

    @Test func aDirectoryIsAnErrorNotMovedAside() throws {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        #expect(throws: StoreError.self) { try ProgressStore(path: path).load() }
        var isDirectory: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue)
    }

    @Test func resetKeepsABackup() throws {
        let store = ProgressStore(path: path)
        try store.save(sampleProgress(answers: 3))
        let backup = try #require(try store.reset(now: now))
        #expect(FileManager.default.fileExists(atPath: backup))
        #expect(try store.load().progress == QuizProgress())
    }
}
