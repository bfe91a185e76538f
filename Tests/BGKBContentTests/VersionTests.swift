@testable import BGKBContent
import BGKBModel
import Testing

@Suite struct VersionTests {
    static let old = """
    ---
    document: notes
    version: 2021-02-27
    source: notes-old
    ---

    You must end every task you begin.

    ```rule
    id: end-every-task
    ```

    The framework's processing request replaces the task API entirely.

    ```rule
    id: framework-requests
    ```

    Use the Console app to read the log.

    ```rule
    id: read-the-log
    ```

    Share and Enjoy

    Change History

    17 Aug 2017 — First posted.
    20 Jun 2019 — Added a note about changes in the beta.
    27 Feb 2021 — Added the framework point.
    """

    static let new = """
    ---
    document: notes
    version: 2023-06-16
    source: notes-new
    ---

    You must end every task you begin.

    ```rule
    id: end-every-task
    kind: must
    ```

    The framework has two request types: refresh, and processing for long work overnight.

    ```rule
    id: framework-requests
    kind: fact
    ```

    Wrap each task in an object so it ends exactly once.

    ```rule
    id: wrap-in-object
    kind: should
    ```

    Share and Enjoy

    Revision History

    2023-06-16 Added the advice to [wrap a task in an object](#wrap-in-object).
    2022-06-08 Corrected a serious error about the framework's processing request. Replaced the log advice.
    2021-02-27 Added the framework point.
    2019-01-20 Added a note about changes in the beta.
    2017-08-17 First posted.
    """

    static func load() -> ContentLoadResult {
        assemble(["documents/notes/2021-02-27.md": old, "documents/notes/2023-06-16.md": new], sources: testSources)
    }

    @Test func versionsAreLinkedAndOrdered() {
        let corpus = Self.load().corpus
        #expect(corpus.documents.count == 1)
        #expect(corpus.documents[0].versions.map(\.label) == ["2021-02-27", "2023-06-16"])
    }

    @Test func perRuleChangesAreFound() {
        let corpus = Self.load().corpus
        func change(_ id: String) -> RuleRevision.Change? { corpus.rule(id)?.history.last?.change }
        #expect(change("end-every-task") == .unchanged)
        #expect(change("framework-requests") == .corrected)
        #expect(change("wrap-in-object") == .added)
        #expect(change("read-the-log") == .removed)
    }

    @Test func changesAreTiedToTheEntryThatExplainsThem() {
        let corpus = Self.load().corpus
        let correction = corpus.rule("framework-requests")?.history.last
        #expect(correction?.entry?.date.description == "2022-06-08")
        #expect(correction?.previousWording?.contains("replaces the task API") == true)
        #expect(correction?.wording?.contains("two request types") == true)
        #expect(corpus.rule("wrap-in-object")?.history.last?.entry?.date.description == "2023-06-16")
    }

    @Test func theSameEntryDatedDifferentlyIsAConflict() {
        let result = Self.load()
        #expect(result.corpus.conflicts.count == 1)
        let conflict = result.corpus.conflicts.first
        #expect(conflict?.id == "notes-revision-date-2019")
        #expect(conflict?.claims.map(\.value) == ["20 Jun 2019", "2019-01-20"])
        #expect(conflict?.claims.map(\.location.line) == [30, 35])
        #expect(result.diagnostics.all.map(\.id) == ["unassessed-conflict"])
    }

    @Test func anAssessmentAttachesToTheFoundConflict() {
        let assessed = Self.new + "\n\n```conflict\nid: notes-revision-date-2019\nassessment: June fits the beta.\n```\n"
        let result = assemble(["documents/notes/2021-02-27.md": Self.old, "documents/notes/2023-06-16.md": assessed], sources: testSources)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics.all)")
        #expect(result.corpus.conflicts.first?.assessment == "June fits the beta.")
    }

    @Test func aRewordedPlainPointIsMatchedByItsWords() {
        let old = "---\ndocument: d\nversion: 2020-01-01\n---\n\nThe expiry handler is called on the main thread of the app.\n"
        let new = "---\ndocument: d\nversion: 2021-01-01\n---\n\nThe expiry handler is always called on the main thread of the app.\n\nRevision History\n\n2021-01-01 Clarified the expiry handler thread.\n"
        let corpus = assemble(["documents/d/a.md": old, "documents/d/b.md": new]).corpus
        #expect(corpus.rules.count == 1)
        #expect(corpus.rules[0].history.last?.change == .reworded)
        #expect(corpus.rules[0].history.last?.entry?.date.description == "2021-01-01")
    }

    @Test func eachRuleTakesTheClauseOfACompoundEntryThatConcernsIt() {
        let old = "---\ndocument: d\nversion: 2021-01-01\n---\n\nThe request replaces the task API.\n\n```rule\nid: request\n```\n\nThe call can fail back when devices lacked multitasking.\n\n```rule\nid: can-fail\n```\n"
        let new = "---\ndocument: d\nversion: 2022-06-08\n---\n\nThe request is for long work overnight.\n\n```rule\nid: request\n```\n\nThe call can fail when devices lacked multitasking.\n\n```rule\nid: can-fail\n```\n\nRevision History\n\n2022-06-08 Corrected a serious error about [the request](#request); made [a wording fix](#can-fail).\n"
        let corpus = assemble(["documents/d/a.md": old, "documents/d/b.md": new]).corpus
        #expect(corpus.rule("request")?.history.last?.change == .corrected)
        #expect(corpus.rule("can-fail")?.history.last?.change == .reworded)
        let entry = corpus.rule("can-fail")?.history.last?.entry
        #expect(entry?.clauses.map(\.linkedRules) == [["request"], ["can-fail"]])
    }

    /// Found by FuzzContent: a stated number too large for `Int` crashed the number-conflict report
    /// (`StatedNumber.description` converted it). It must be reported like any other conflict.
    @Test func hugeNumberInOneVersionIsAConflictNotACrash() {
        func version(_ label: String, _ seconds: String) -> String {
            """
            ---
            document: notes
            version: \(label)
            ---

            The system grants about \(seconds) seconds in total.

            ```rule
            id: grant
            numbers:
              - {value: \(seconds), unit: s, firmness: about, measures: total grant}
            ```
            """
        }
        let huge = String(repeating: "6", count: 50)
        let result = assemble(["documents/notes/old.md": version("2021-02-27", "30"),
                               "documents/notes/new.md": version("2023-06-16", huge)])
        let conflict = result.corpus.conflicts.first { $0.claims.contains { $0.value.contains("30") } }
        #expect(conflict?.claims.map(\.value) == ["about 30 s, not guaranteed", "about 6.666666666666666e+49 s, not guaranteed"])
    }
}
