import BGKBModel
import BGKBQuiz

/// A small corpus with one rule of each shape the generator handles: numbers, crash codes, APIs,
/// examples that follow and break, a disputed claim, a removed and a reworded point.
enum Fixtures {
    static func at(_ line: Int) -> SourceLocation { SourceLocation(path: "Content/notes.md", line: line, column: 1) }

    static let entryReworded = RevisionEntry(date: Day(year: 2023, month: 6, day: 16), writtenDate: "2023-06-16",
                                             text: "Pointed at wrapping tasks in an object.", document: "notes",
                                             version: "2023-06-16", location: at(90))
    static let entryRemoved = RevisionEntry(date: Day(year: 2022, month: 6, day: 8), writtenDate: "2022-06-08",
                                            text: "Replaced the system log paragraph.", document: "notes",
                                            version: "2023-06-16", location: at(91))
    static let entryFirst = RevisionEntry(date: Day(year: 2017, month: 8, day: 17), writtenDate: "17 Aug 2017",
                                          text: "First posted.", document: "notes", version: "2021-02-27", location: at(92))

    static let budget = Rule(
        id: "budget-is-not-a-promise", title: "The budget is not a promise",
        statement: "An app gets about 30 seconds of background time, and that is not a promise.",
        kind: .fact, topics: ["time-budgets"],
        numbers: [StatedNumber(value: 30, unit: .seconds, firmness: .about, measures: "background task budget")],
        sources: [Citation(source: "bgtn-2023")], why: "Logic that counts on 30 seconds breaks when the system gives less.",
        examples: [Example(rule: "budget-is-not-a-promise", name: "short work", intent: .follows,
                           text: "background\nbegin t\nwork 2s\nend t\nexpect suspended", location: at(12))],
        document: "notes", location: at(10))

    static let endEveryTask = Rule(
        id: "end-every-task", title: "End every task",
        statement: "You must call endBackgroundTask for every task you begin, or the watchdog kills the app with 0x8badf00d.",
        kind: .must, topics: ["beginning-and-ending"], apis: ["UIApplication.endBackgroundTask(_:)"],
        crashCodes: ["0x8badf00d"], sources: [Citation(source: "bgtn-2023")],
        examples: [
            Example(rule: "end-every-task", name: "leak", intent: .breaks,
                    text: "background\nbegin t\nbegin t   # overwrites the first\nend t\nexpect terminated 0x8badf00d", location: at(22)),
            Example(rule: "end-every-task", name: "balanced", intent: .follows,
                    text: "background\nbegin t\nend t\nexpect suspended", location: at(30)),
        ],
        related: ["budget-is-not-a-promise"],
        document: "notes", location: at(20))

    static let assertionLimit = Rule(
        id: "assertion-limit", title: "About 1000 assertions",
        statement: "Holding more than about 1000 background task assertions crashes the app with 0xbada5e47.",
        kind: .fact, topics: ["diagnosing-crashes"],
        numbers: [StatedNumber(value: 1000, unit: .count, firmness: .about, measures: "limit of outstanding assertions per process")],
        crashCodes: ["0xbada5e47"], document: "notes", location: at(40))

    static let pushMisconception = Rule(
        id: "push-is-not-indefinite", title: "Background push is not indefinite",
        statement: "A background push gives the app up to 30 seconds to call its completion handler.",
        kind: .misconception, topics: ["background-push", "misconceptions"],
        dispute: Dispute(claim: "A background push lets the app run indefinitely.",
                         claimedBy: Citation(source: "blog"), verdict: .wrong,
                         counterSources: [Citation(source: "apple-push", locator: "Overview")]),
        document: "notes", location: at(50))

    static let removedLog = Rule(
        id: "read-the-system-log", title: "Read the system log",
        statement: "Use the Console app to read the system log.", kind: .should, topics: ["diagnosing-crashes"],
        history: [
            RuleRevision(change: .added, version: "2021-02-27", previousVersion: nil, entry: entryFirst),
            RuleRevision(change: .removed, version: "2023-06-16", previousVersion: "2021-02-27", entry: entryRemoved),
        ],
        document: "notes", version: "2021-02-27", location: at(60))

    static let reworded = Rule(
        id: "wrap-the-task", title: "Wrap the task",
        statement: "Wrap each background task in an object that ends it exactly once.", kind: .should,
        topics: ["beginning-and-ending"],
        history: [
            RuleRevision(change: .added, version: "2021-02-27", previousVersion: nil, entry: entryFirst),
            RuleRevision(change: .reworded, version: "2023-06-16", previousVersion: "2021-02-27", entry: entryReworded,
                         previousWording: "End each task once.", wording: "Wrap each background task in an object that ends it exactly once."),
        ],
        document: "notes", version: "2023-06-16", location: at(70))

    static let corpus = Corpus(
        sources: [
            Source(id: "bgtn-2023", title: "UIApplication Background Task Notes", reliability: .primary, location: at(1)),
            Source(id: "blog", title: "A blog post", reliability: .thirdParty, location: at(2)),
            Source(id: "apple-push", title: "Pushing background updates to your app", reliability: .primary, location: at(3)),
        ],
        topics: [
            Topic(id: "time-budgets", title: "Time budgets", summary: "How much time."),
            Topic(id: "beginning-and-ending", title: "Beginning and ending", summary: "Begin and end."),
            Topic(id: "diagnosing-crashes", title: "Diagnosing crashes", summary: "Crash codes."),
            Topic(id: "background-push", title: "Background push", summary: "Silent pushes."),
            Topic(id: "misconceptions", title: "Misconceptions", summary: "Wrong claims."),
        ],
        documents: [Document(id: "notes", title: "Background Task Notes", source: "bgtn-2023", versions: [
            DocumentVersion(label: "2021-02-27", path: "Content/notes-2021.md", rules: [], revisions: [entryFirst], signOff: nil),
            DocumentVersion(label: "2023-06-16", path: "Content/notes.md", rules: [], revisions: [entryReworded, entryRemoved, entryFirst], signOff: nil),
        ])],
        rules: [budget, endEveryTask, assertionLimit, pushMisconception, removedLog, reworded])

    /// A stand-in for the engine until it lands, so generation can be tested on its own: a pure
    /// function of the scenario text and the conditions. The tests only check that the quiz
    /// agrees with whatever the source says, never a fixed answer.
    static let standInEngine: OutcomeSource = { example, conditions in
        if conditions.beginRefused { return .crashed(reason: "force unwrap of nil identifier", at: 0) }
        if conditions.budget == 0 { return .terminated(code: "0x8badf00d", reason: "task outstanding when time ran out", at: 0) }
        if example.text.contains("overwrites") {
            return .terminated(code: "0x8badf00d", reason: "leaked task", at: conditions.budget ?? 30)
        }
        return .suspended(at: 2)
    }
}
