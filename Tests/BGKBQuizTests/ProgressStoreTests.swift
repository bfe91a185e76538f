import BGKBModel
import BGKBQuiz
import Foundation
import Testing

/// The failures issue 34 lists, each as a test: progress is never lost, never moved aside,
/// never silently not saved.
@Suite struct ProgressStoreTests {
    struct SimulatedCrash: Error {}

    let directory: String
    let path: String
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    let bank = QuestionBank(corpus: Fixtures.corpus, outcomes: nil)
    static let isRoot = getuid() == 0

    init() throws {
        directory = NSTemporaryDirectory() + "bgkb-quiz-tests-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        path = directory + "/nested/progress.json"
    }

    func sampleProgress(answers: Int, offset: Int = 0) -> QuizProgress {
        var progress = QuizProgress()
        for question in bank.questions.dropFirst(offset).prefix(answers) { progress.record(.correct, for: question, at: now) }
        progress.sessions.append(SessionRecord(at: now, asked: answers, correct: answers, seed: 42))
        return progress
    }

    func files() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory + "/nested")) ?? []).sorted()
    }

    func write(_ bytes: [UInt8]) throws {
        try FileManager.default.createDirectory(atPath: directory + "/nested", withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
    }

    func reviewCount(_ progress: QuizProgress) -> Int { progress.cards.values.map(\.history.count).reduce(0, +) }

    @Test func aMissingFileIsFreshProgressAndLoadingCreatesNothing() throws {
        let loaded = try ProgressStore(path: path).load()
        #expect(loaded.progress == QuizProgress())
        #expect(loaded.notices.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: directory + "/nested"))
    }

    @Test func saveThenLoadRoundTrips() throws {
        let store = ProgressStore(path: path)
        let progress = sampleProgress(answers: 5)
        try store.save(progress)
        let loaded = try store.load()
        #expect(loaded.progress == progress)
        #expect(loaded.notices.isEmpty)
        #expect(files() == ["progress.json", "progress.json.lock"])
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("\"schema\" : \"bgkb-progress\""))
        #expect(text.contains("\"schemaVersion\" : 2"))
        #expect(text.contains("\"stability\" : 3.173"))
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
        #expect(try store.load().progress == before)
        #expect(files() == ["progress.json", "progress.json.lock"])
        // The next save goes through (merged with the file: the answers are the later ones').
        try store.save(after)
        #expect(try store.load().progress.cards == after.cards)
    }

    struct Bad: CustomTestStringConvertible, Sendable {
        var name: String
        var text: String
        var message: String
        var testDescription: String { name }
    }

    static let card = #""q": {"contentVersion": "v", "rule": "r", "history": [], "reviews": 0, "lapses": 0"#
    static let badFiles: [Bad] = [
        Bad(name: "truncated", text: #"{"schema": "bgkb-prog"#, message: "is not JSON"),
        Bad(name: "binary garbage", text: "\u{1}\u{2}garbage", message: "is not JSON"),
        Bad(name: "empty", text: "", message: "is not JSON"),
        Bad(name: "another program's JSON (--progress pointed at it)", text: #"{"name": "some other tool", "items": [1, 2]}"#,
            message: "is not a bgkb progress file"),
        Bad(name: "a JSON array", text: "[1, 2, 3]", message: "is not a bgkb progress file"),
        Bad(name: "a newer bgkb's file", text: #"{"schema": "bgkb-progress", "schemaVersion": 99, "cards": {}}"#, message: "newer bgkb (schema 99"),
        Bad(name: "wrong field types", text: #"{"schema": "bgkb-progress", "schemaVersion": 2, "cards": {"q": 3}, "sessions": []}"#,
            message: "is damaged"),
        Bad(name: "1e300 stability", text: #"{"schema": "bgkb-progress", "schemaVersion": 2, "cards": {"# + card
            + #", "stability": 1e300, "difficulty": 5}}, "sessions": []}"#, message: "cards[\"q\"].stability is 1e+300"),
        Bad(name: "1e300 SM-2 interval", text: #"{"schema": "bgkb-progress", "schemaVersion": 1, "cards": {"# + card
            + #", "ease": 2.5, "interval": 1e300, "repetitions": 3}}, "sessions": []}"#, message: "cards[\"q\"].interval is 1e+300"),
        Bad(name: "negative difficulty", text: #"{"schema": "bgkb-progress", "schemaVersion": 2, "cards": {"# + card
            + #", "stability": 2, "difficulty": -4}}, "sessions": []}"#, message: "difficulty is -4.0"),
        Bad(name: "retention out of range", text: #"{"schema": "bgkb-progress", "schemaVersion": 2, "targetRetention": 5, "cards": {}, "sessions": []}"#,
            message: "targetRetention is 5.0"),
    ]

    /// Reported, with the path and what to do; the file is left byte for byte, nothing is moved
    /// aside or created; a save refuses to overwrite it too.
    @Test(arguments: badFiles)
    func aFileWeCannotUseIsReportedAndLeftUntouched(bad: Bad) throws {
        try write(Array(bad.text.utf8))
        let store = ProgressStore(path: path)
        do {
            _ = try store.load()
            Issue.record("loaded \(bad.name)")
        } catch {
            let message = "\(error)"
            #expect(message.contains(path) && message.contains(bad.message) && message.contains("left as it is"), "\(message)")
        }
        #expect(throws: ProgressStore.Failure.self) { try store.save(sampleProgress(answers: 1)) }
        #expect(FileManager.default.contents(atPath: path) == Data(bad.text.utf8))
        #expect(files() == ["progress.json", "progress.json.lock"])
    }

    /// A file that cannot be read is an error, never "no progress": a loop of symbolic links
    /// here (root reads any file), a file without read permission when not root.
    @Test func aFileThatCannotBeReadIsAnErrorAndLeftAlone() throws {
        try FileManager.default.createDirectory(atPath: directory + "/nested", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: "progress.json")
        #expect(throws: ProgressStore.Failure.self) { try ProgressStore(path: path).load() }
        #expect(throws: ProgressStore.Failure.self) { try ProgressStore(path: path).save(sampleProgress(answers: 1)) }
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: path) == "progress.json")
    }

    @Test(.enabled(if: !isRoot, "root reads any file"))
    func aFileWithoutReadPermissionIsAnErrorAndLeftAlone() throws {
        let store = ProgressStore(path: path)
        try store.save(sampleProgress(answers: 2))
        chmod(path, 0o000)
        defer { chmod(path, 0o600) }
        do {
            _ = try store.load()
            Issue.record("loaded an unreadable file")
        } catch {
            #expect("\(error)".contains("Permission denied"), "\(error)")
        }
        #expect(files() == ["progress.json", "progress.json.lock"])
    }

    @Test func aDirectoryIsAnErrorNotMovedAside() throws {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        #expect(throws: ProgressStore.Failure.self) { try ProgressStore(path: path).load() }
        var isDirectory: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue)
    }

    /// Two terminals on one file: each loads, answers and saves in turn; both sets of answers
    /// and both sessions are kept.
    @Test func twoSessionsSavingInTurnMergeTheirAnswers() throws {
        let store = ProgressStore(path: path)
        try store.save(sampleProgress(answers: 1))
        var first = try store.load().progress
        var second = try store.load().progress
        first.record(.correct, for: bank.questions[1], at: now.addingTimeInterval(10))
        second.record(.wrong, for: bank.questions[2], at: now.addingTimeInterval(20))
        second.record(.correct, for: bank.questions[1], at: now.addingTimeInterval(30))
        first = try store.save(first)
        second = try store.save(second)
        let final = try store.load().progress
        #expect(reviewCount(final) == 4)
        #expect(final.card(for: bank.questions[1]).history.map(\.grade) == [.correct, .correct])
        #expect(final.card(for: bank.questions[2]).isMissed)
        #expect(final == second)
        // Saving again what is already there adds nothing.
        #expect(reviewCount(try store.save(first)) == 4)
    }

    /// Two sessions really running at once, each saving after every answer: every answer counts,
    /// even the same grade to the same question in the same second (same seed, same clock).
    @Test func twoConcurrentSessionsBothCount() throws {
        let store = ProgressStore(path: path)
        let bank = self.bank
        let answers = min(12, bank.questions.count / 2)
        let now = self.now
        DispatchQueue.concurrentPerform(iterations: 2) { terminal in
            let questions = Array(bank.questions.prefix(answers))
            let quiz = QuizSession(questions: questions, style: TextStyle(width: 80), settings: .init(seed: 1),
                                   clock: { now }, persist: { try store.save($0) })
            var input = ScriptedTerminal(Array(repeating: "s", count: answers))
            var progress = (try? store.load().progress) ?? QuizProgress()
            let result = quiz.run(terminal: &input, progress: &progress)
            #expect(result.ending == .finished, "\(result.saveError ?? "")")
        }
        let final = try store.load().progress
        #expect(answers >= 5)
        #expect(reviewCount(final) == 2 * answers)
        #expect(final.sessions.count == 2)
    }

    @Test func aTemporaryLeftByADeadProcessIsCleanedUpBySavingNotByLoading() throws {
        let store = ProgressStore(path: path)
        try store.save(sampleProgress(answers: 1))
        // No process has this id (above the kernel's pid_max).
        let stale = path + ".tmp-99999999"
        _ = FileManager.default.createFile(atPath: stale, contents: Data("{\"half".utf8))
        _ = try store.load()
        #expect(FileManager.default.fileExists(atPath: stale), "loading (and so --stats) changes nothing")
        try store.save(sampleProgress(answers: 2))
        #expect(!FileManager.default.fileExists(atPath: stale))
    }

    /// A folder the quiz cannot write to: the check before the first question fails, and so does
    /// a save, with the reason. As root, a directory where the lock file or the temporary file
    /// would go stands in for a read-only folder.
    @Test func aSaveThatCannotWriteFailsLoudly() throws {
        let store = ProgressStore(path: path)
        try store.save(sampleProgress(answers: 1))
        try FileManager.default.removeItem(atPath: store.lockPath)
        try FileManager.default.createDirectory(atPath: store.lockPath, withIntermediateDirectories: false)
        #expect(throws: ProgressStore.Failure.self) { try store.checkWritable() }
        #expect(throws: ProgressStore.Failure.self) { try store.save(sampleProgress(answers: 3)) }
        try FileManager.default.removeItem(atPath: store.lockPath)
        let temporary = path + ".tmp-\(getpid())"
        try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: false)
        do {
            try store.save(sampleProgress(answers: 3))
            Issue.record("saved")
        } catch {
            #expect("\(error)".contains("cannot create it"), "\(error)")
        }
        #expect(reviewCount(try store.load().progress) == 1)
    }

    @Test(.enabled(if: !isRoot, "root writes anywhere"))
    func aReadOnlyFolderFailsTheCheckBeforeAnyQuestion() throws {
        try FileManager.default.createDirectory(atPath: directory + "/nested", withIntermediateDirectories: true)
        chmod(directory + "/nested", 0o500)
        defer { chmod(directory + "/nested", 0o700) }
        #expect(throws: ProgressStore.Failure.self) { try ProgressStore(path: path).checkWritable() }
        #expect(throws: ProgressStore.Failure.self) { try ProgressStore(path: path).save(sampleProgress(answers: 1)) }
    }

    /// Impossible values never reach the file, and the save says why instead of failing inside
    /// the encoder ("invalidValue: inf").
    @Test(arguments: [Double.infinity, .nan, 1e300, -1])
    func impossibleValuesAreRefusedOnSave(value: Double) throws {
        let store = ProgressStore(path: path)
        try store.save(sampleProgress(answers: 1))
        var progress = sampleProgress(answers: 2)
        let id = try #require(progress.cards.keys.sorted().first)
        progress.cards[id]?.memory?.stability = value
        var retention = sampleProgress(answers: 2)
        retention.targetRetention = value
        for (bad, field) in [(progress, "stability"), (retention, "targetRetention")] {
            do {
                try store.save(bad)
                Issue.record("saved \(value)")
            } catch {
                #expect("\(error)".contains("impossible values") && "\(error)".contains(field), "\(error)")
            }
        }
        #expect(reviewCount(try store.load().progress) == 1)
    }

    /// A schema 1 file (SM-2) loads with every answer, schedules by FSRS from them, keeps its
    /// SM-2 values, and is written as schema 2 at the next save.
    @Test func anSM2FileMigratesWithoutLoss() throws {
        let question = bank.questions[0]
        let day = "2027-01-15T09:00:00Z"
        let later = "2027-01-18T09:00:00Z"
        let text = """
        {"schema": "bgkb-progress", "schemaVersion": 1, "sessions": [{"at": "\(later)", "asked": 2, "correct": 2, "seed": 7}],
         "cards": {"\(question.id)": {"contentVersion": "\(question.contentVersion)", "rule": "\(question.rule)",
           "ease": 2.6, "interval": 6, "repetitions": 2, "lapses": 0, "due": "2027-01-24T09:00:00Z",
           "history": [{"at": "\(day)", "grade": "correct", "contentVersion": "\(question.contentVersion)"},
                       {"at": "\(later)", "grade": "hinted", "contentVersion": "\(question.contentVersion)"}]}}}
        """
        try write(Array(text.utf8))
        let store = ProgressStore(path: path)
        let loaded = try store.load()
        #expect(loaded.notices.count == 1 && loaded.notices[0].contains("SM-2"))
        let card = loaded.progress.card(for: question)
        #expect(card.history.map(\.grade) == [.correct, .hinted])
        #expect(card.legacySM2 == LegacySM2(ease: 2.6, interval: 6, repetitions: 2))
        let expected = FSRS.next(FSRS.next(nil, rating: .good, elapsedDays: nil), rating: .hard, elapsedDays: 3)
        #expect(card.memory == expected)
        #expect(loaded.progress.sessions.count == 1)
        #expect(FileManager.default.contents(atPath: path) == Data(text.utf8), "loading does not rewrite")
        try store.save(loaded.progress)
        let saved = try String(contentsOfFile: path, encoding: .utf8)
        #expect(saved.contains("\"schemaVersion\" : 2") && saved.contains("\"sm2\""))
        #expect(try store.load().progress == loaded.progress)
    }

    @Test func resetKeepsABackup() throws {
        let store = ProgressStore(path: path)
        try store.save(sampleProgress(answers: 3))
        let backup = try #require(try store.reset(now: now))
        #expect(FileManager.default.fileExists(atPath: backup))
        #expect(try store.load().progress == QuizProgress())
    }
}
