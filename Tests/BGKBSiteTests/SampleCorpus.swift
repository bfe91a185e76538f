import BGKBModel

/// A small corpus that exercises every page: two versions of a document, a reworded rule, a
/// removed rule, a dispute, a conflict, examples with verdicts, and hostile text in every field
/// that reaches HTML.
enum SampleCorpus {
    static let hostile = "<script>alert(\"x\")</script>"

    static func location(_ line: Int, _ path: String = "documents/notes/2023-06-16.md") -> SourceLocation {
        SourceLocation(path: path, line: line, column: 1)
    }

    static let leakExample = Example(rule: "end-every-task", name: "Leaked identifier", intent: .breaks,
                                     text: "app background\nbegin A\nexpect terminated 0x8badf00d", location: location(20))
    static let safeExample = Example(rule: "end-every-task", name: nil, intent: .follows,
                                     text: "app background\nbegin A\nend A\nexpect suspended", location: location(30))

    static let entry2023 = RevisionEntry(date: Day(year: 2023, month: 6, day: 16), writtenDate: "2023-06-16",
                                         text: "Reworded the point on ending tasks.", linkedRules: ["end-every-task"],
                                         document: "notes", version: "2023-06-16", location: location(90))
    static let entry2019 = RevisionEntry(date: Day(year: 2019, month: 6, day: 20), writtenDate: "20 Jun 2019",
                                         text: "Updated for the iOS 13 beta \(hostile).", document: "notes",
                                         version: "2021-02-27", location: location(80, "documents/notes/2021-02-27.md"))

    static var endEveryTask: Rule {
        Rule(id: "end-every-task", title: "End every task you begin", statement: "You must end every background task you begin.",
             details: "Each `beginBackgroundTask` needs its own end. See [the dormant rule](#foreground-task-is-dormant).\n\n\(hostile)\n\n[click](javascript:alert(1))",
             kind: .must, callout: .important, topics: ["ending"],
             apis: ["UIApplication.endBackgroundTask(_:)", "UIApplication.beginBackgroundTask(withName:expirationHandler:)"],
             numbers: [StatedNumber(value: 30, unit: .seconds, firmness: .about, measures: "background time budget", note: "depends on system state")],
             crashCodes: ["0x8badf00d"],
             sources: [Citation(source: "notes-2023", locator: "the point on leaks"), Citation(source: "blog", unverified: true)],
             why: "The watchdog kills the app: `0x8badf00d`. This is the number one cause of problems.",
             instead: "Wrap the task in an object that ends it exactly once.",
             examples: [leakExample, safeExample],
             related: ["foreground-task-is-dormant", "no-such-rule"],
             history: [
                RuleRevision(change: .added, version: "2021-02-27", previousVersion: nil, entry: nil),
                RuleRevision(change: .reworded, version: "2023-06-16", previousVersion: "2021-02-27", entry: entry2023,
                             previousWording: "You should end each background task.", wording: "You must end every background task you begin."),
             ],
             document: "notes", version: "2023-06-16", location: location(10))
    }

    static var dormant: Rule {
        Rule(id: "foreground-task-is-dormant", title: "A foreground task is dormant \(hostile)",
             statement: "A task begun in the foreground does not use time until the app is in the background.",
             kind: .fact, topics: ["ending", "budgets"], apis: ["UIApplication.backgroundTimeRemaining"],
             sources: [Citation(source: "notes-2023")], notSimulated: "The engine does not model the foreground clock yet.",
             document: "notes", version: "2023-06-16", location: location(40))
    }

    static var removed: Rule {
        Rule(id: "processing-subsumes-tasks", title: "Processing requests subsume background tasks",
             statement: "BGProcessingTaskRequest subsumes the background task API.", kind: .fact, topics: ["budgets"],
             sources: [Citation(source: "notes-2021")],
             history: [RuleRevision(change: .removed, version: "2023-06-16", previousVersion: "2021-02-27", entry: nil,
                                    previousWording: "BGProcessingTaskRequest subsumes the background task API.", wording: nil)],
             document: "notes", version: "2021-02-27", location: location(50, "documents/notes/2021-02-27.md"))
    }

    static var myth: Rule {
        Rule(id: "push-is-not-indefinite", title: "Background push is not indefinite",
             statement: "A background push gives about 30 seconds, not unlimited time.", kind: .misconception,
             topics: ["budgets"], sources: [Citation(source: "notes-2023")],
             dispute: Dispute(claim: "Background push runs indefinitely.", claimedBy: Citation(source: "blog", locator: "the limits table"),
                              verdict: .wrong, counterSources: [Citation(source: "notes-2023")], correctedBy: ["end-every-task"]),
             document: "notes", version: "2023-06-16", location: location(60))
    }

    static var corpus: Corpus {
        let sources = [
            Source(id: "notes-2023", title: "Background Task Notes (2023)", author: "Quinn", publisher: "Forums",
                   url: "https://developer.apple.com/forums/thread/85066", reliability: .primary,
                   summary: "Latest version. \(hostile)", location: location(1, "sources.yml")),
            Source(id: "notes-2021", title: "Background Task Notes (2021)", url: "javascript:alert(1)", reliability: .primary,
                   location: location(8, "sources.yml")),
            Source(id: "blog", title: "A blog \(hostile)", reliability: .thirdParty, location: location(15, "sources.yml")),
        ]
        let topics = [
            Topic(id: "ending", title: "Beginning and ending", summary: "Every begin needs an end."),
            Topic(id: "budgets", title: "Time budgets", summary: "How long the app gets."),
        ]
        let v2021 = DocumentVersion(label: "2021-02-27", path: "documents/notes/2021-02-27.md", rules: [removed], revisions: [entry2019], signOff: nil)
        let v2023 = DocumentVersion(label: "2023-06-16", path: "documents/notes/2023-06-16.md",
                                    rules: [endEveryTask, dormant, myth], revisions: [entry2023], signOff: "Share and Enjoy")
        let document = Document(id: "notes", title: "Background task notes", source: "notes-2023", versions: [v2021, v2023])
        let conflict = Conflict(id: "notes-date-2019", subject: "Date of the iOS 13 entry",
                                claims: [Conflict.Claim(value: "2019-06-20", citation: Citation(source: "notes-2021", version: "2021-02-27"), location: location(80)),
                                         Conflict.Claim(value: "2019-01-20", citation: Citation(source: "notes@2023-06-16"), location: location(95))],
                                assessment: "June fits the iOS 13 beta. \(hostile)", rules: ["end-every-task"])
        return Corpus(sources: sources, topics: topics, documents: [document],
                      rules: [endEveryTask, dormant, myth, removed], conflicts: [conflict])
    }

    static let leakTrace = SimulationTrace(events: [
        TraceEvent(time: 0, kind: .appState, lane: "system", detail: "foreground"),
        TraceEvent(time: 1, kind: .appState, lane: "system", detail: "background"),
        TraceEvent(time: 1, kind: .taskBegan, lane: "main", subject: "A", detail: "beginBackgroundTask"),
        TraceEvent(time: 1.5, kind: .step, lane: "sync queue", detail: "upload \(hostile)"),
        TraceEvent(time: 31, kind: .expiry, lane: "main", subject: "A", detail: "expiry handler called"),
        TraceEvent(time: 36, kind: .termination, lane: "system", detail: "0x8badf00d"),
    ], outcome: .terminated(code: "0x8badf00d", reason: "task A still running", at: 36), schedule: "budget=30 expire@31")

    static let safeTrace = SimulationTrace(events: [
        TraceEvent(time: 0, kind: .appState, lane: "system", detail: "background"),
        TraceEvent(time: 0, kind: .taskBegan, lane: "main", subject: "A", detail: "begin"),
        TraceEvent(time: 2, kind: .taskEnded, lane: "main", subject: "A", detail: "end"),
        TraceEvent(time: 2, kind: .appState, lane: "system", detail: "suspended"),
    ], outcome: .suspended(at: 2), schedule: "unforced")

    /// Verdicts as the engine would report them. Fixed here because these tests check how the site
    /// shows a verdict, not what the engine concludes (the engine's own tests do that).
    static var verdicts: [ExampleVerdict] {
        [
            ExampleVerdict(example: leakExample, passed: true, schedulesExplored: 12, representative: safeTrace,
                           counterexample: leakTrace, summary: "breaks: terminated with 0x8badf00d at 36 s"),
            ExampleVerdict(example: safeExample, passed: true, schedulesExplored: 214, representative: safeTrace,
                           counterexample: nil, summary: "safe in all 214 schedules"),
        ]
    }
}

/// Texts made of random pieces of `alphabet`, one of each length in `lengths`, from a seeded
/// xorshift: the same texts on every run, for tests that compare a fast path with a reference.
func randomMixes(of alphabet: [String], seed: Int, lengths: ClosedRange<Int>) -> [String] {
    var state = UInt64(seed) &* 0x9E37_79B9_7F4A_7C15 | 1
    func next() -> Int {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return Int(state % UInt64(alphabet.count))
    }
    return lengths.map { length in (0..<length).map { _ in alphabet[next()] }.joined() }
}
