@testable import BGKBContent
@testable import BGKBMarkdown
import BGKBModel
import Testing

/// Posts saved from a forum web page go in as they are: the page's chrome never becomes a rule,
/// two raw versions of a post link without front matter, and derived ids read as names.
@Suite struct ForumPageTests {
    // MARK: Each kind of chrome, recognised by its shape

    @Test(arguments: [
        ("https://developer.apple.com/forums/thread/700001", ForumChrome.Kind.threadURL),
        ("https://developer.apple.com/forums/thread/700001 in case the page moves!", .threadURL),
        ("This thread has been locked by a moderator.", .lockedNotice),
        ("This post has been deleted", .lockedNotice),
        ("692 Views", .counts),
        ("0 Replies", .counts),
        ("1,204 Views · 7 Replies", .counts),
        ("1 Boost", .counts),
        ("Latest reply: 3 weeks ago by a reader", .latestReply),
        ("Latest reply on Mar 3, 2022 by pat_dts", .latestReply),
        ("Apple Staff (12,480 points)", .staffBadge),
        ("pat_dts DTS Engineer (310 points)", .staffBadge),
        ("pat_dtsMar 3, 2022 9:15 AM", .authorAndDate),
        ("Pat Nov 20, 2021", .authorAndDate),
        ("Sep 12, 2017 10:02 PM", .authorAndDate),
        ("Topic:", .fieldLabel),
        ("SubTopic:", .fieldLabel),
        ("Tags: Background Tasks, UIKit", .fieldLabel),
        ("Boost", .pageControl),
        ("Copy to clipboard", .pageControl),
        ("Replies", .pageControl),
        ("Activity", .pageControl),
        ("Selecting any option will automatically load the page", .pageControl),
    ])
    func chromeIsRecognisedByItsShape(_ line: String, _ kind: ForumChrome.Kind) {
        #expect(ForumChrome.kind(ofLine: line) == kind)
        // The quick look that spares prose the recognisers lets every chrome line through.
        let origin = Position(line: 1, column: 1)
        #expect(ForumChrome.hasCandidateLine([MarkdownNode(kind: .text, literal: line, start: origin, end: origin)]))
    }

    /// Sentences that only mention what chrome is made of are the post's own words.
    @Test(arguments: [
        "See https://developer.apple.com/forums/thread/700001 for the first version of this advice.",
        "https://developer.apple.com/documentation/foundation/urlsession",
        "This thread has been locked by a moderator, so ask a new question instead.",
        "This thread has been useful to many readers.",
        "The post had 692 views and 0 replies before anyone noticed the bug.",
        "692 Views of a background session are not a problem.",
        "Latest reply wins: the system keeps the newest request by identifier.",
        "Latest reply: the newest request replaces the older one by identifier.",
        "Apple Staff answered in a thread about points (see the second reply).",
        "A budget is not a tally (like 30 points) you can spend.",
        "The fix shipped on Apr 26, 2017 with iOS 10.3.",
        "eskimo replied on Apr 26, 2017 with a workaround.",
        "Topic: background execution is wider than this post can cover in a single page of notes.",
        "Tags you pass to the logger are not topics.",
        "Post the work to the main queue.",
        "Views that update in the background waste energy.",
        "Replies from the server arrive while the app is suspended.",
        "Boost the priority of the task only when the user waits for it.",
        "Copy to clipboard only what the user asked for.",
    ])
    func sentencesThatMentionChromeAreNotChrome(_ line: String) {
        #expect(ForumChrome.kind(ofLine: line) == nil)
    }

    @Test func chromeLinesLeaveTheirParagraphAndTheRuleStartsAtThePost() {
        let text = "Apple Staff (12,480 points)\npat_dtsMar 3, 2022 9:15 AM\nYou must end every task you begin.\nCopy to clipboard\n"
        let result = assemble(["notes.md": text])
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics.all)")
        #expect(result.chromeLines == 3)
        let rule = result.corpus.rules.first
        #expect(rule?.statement == "You must end every task you begin.")
        #expect(rule?.details == "")
        #expect(rule?.location.line == 3)
    }

    @Test func aBareFieldLabelTakesItsValueLinesWithIt() {
        let text = "Topic:\nApp & System Services\nTags:\nFoundation\nCFNetwork\n\nYou must end every task you begin.\n"
        let result = assemble(["notes.md": text])
        #expect(result.corpus.rules.map(\.statement) == ["You must end every task you begin."])
        #expect(result.chromeLines == 5)
    }

    // MARK: The saved page fixture

    static let savedIDs = [
        "background-session-hands-transfers", "create-background-session-same-identifier", "uploads-background-session-file-disk",
        "daemon-finishes-work", "store-completion-handler-call", "discretionary-transfer-wait-hours", "counting-views",
    ]

    @Test func aSavedForumPageLintsCleanAndOnlyThePostBecomesRules() throws {
        let result = try ContentLoader.load(directory: repositoryRoot + "/Tests/Fixtures/forum-saved")
        #expect(result.diagnostics.isEmpty, "lint --strict must pass: \(result.diagnostics.all)")
        let rules = result.corpus.rules
        #expect(rules.map(\.id) == Self.savedIDs)
        #expect(result.corpus.documents.first?.title == "Background Transfer Notes")
        #expect(result.chromeLines > 20)
        for rule in rules {
            let lines = (rule.statement + "\n" + rule.details + "\n" + (rule.wording ?? "")).split(separator: "\n")
            #expect(!lines.contains { ForumChrome.kind(ofLine: String($0)) != nil }, "chrome in \(rule.id)")
        }
        // The post's own sentence about views and replies is a point, counts and all.
        #expect(rules.last?.statement.contains("692 Views") == true)
        #expect(rules[2].callout == .important && rules[2].statement.hasSuffix("is refused."))
        #expect(rules[3].apis == ["application(_:handleEventsForBackgroundURLSession:completionHandler:)"])
        #expect(result.corpus.documents[0].versions[0].revisions.map(\.date.description) == ["2022-03-03", "2021-11-20"])
        #expect(!rules.contains { $0.statement.contains("timer") }, "the other threads after the history are ignored")
    }

    // MARK: Two raw versions of one post

    @Test func twoRawVersionsLinkByTheDatesOfTheirNewestEntries() throws {
        let result = try ContentLoader.load(directory: repositoryRoot + "/Tests/Fixtures/forum-two-versions")
        #expect(result.diagnostics.isEmpty, "lint --strict must pass: \(result.diagnostics.all)")
        #expect(result.corpus.documents.count == 1)
        let document = try #require(result.corpus.documents.first)
        #expect(document.id == "transfer-notes")
        #expect(document.versions.map(\.label) == ["2021-11-20", "2022-03-03"])
        #expect(document.versions.allSatisfy { version in version.rules.allSatisfy { $0.version == version.label } })
        let rules = result.corpus.rules
        #expect(rules.map(\.id) == ["background-session-hands-transfers", "create-background-session-same-identifier",
                                    "uploads-background-session-file-disk", "discretionary-transfer-wait-hours"])
        let added = try #require(rules.last?.history.last)
        #expect(added.change == .added && added.version == "2022-03-03" && added.previousVersion == "2021-11-20")
        #expect(added.entry?.date.description == "2022-03-03")
        #expect(rules[1].history.map(\.change) == [.added, .reworded])
        // The newer copy was saved a line a paragraph, chrome among its lines: rules point at their own lines.
        #expect(rules.map { "\($0.location.path.split(separator: "/").last ?? ""):\($0.location.line)" } == ["2022.md:6", "2022.md:7", "2022.md:8", "2022.md:9"])
    }

    @Test func aPageSavedALineAParagraphIsReadALineAParagraph() {
        let text = "Notes\nYou must end every task you begin.\n692 Views\nThe budget is shared by all tasks.\nShare and Enjoy\n"
            + "Revision History\n2023-06-16 Reworded.\nSomeone else's thread: you must ignore this.\n"
        let result = assemble(["notes.md": text])
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics.all)")
        #expect(result.corpus.rules.map(\.statement) == ["You must end every task you begin.", "The budget is shared by all tasks."])
        #expect(result.corpus.rules.map(\.location.line) == [2, 4])
        #expect(result.corpus.documents.first?.title == "Notes")
        #expect(result.corpus.documents.first?.versions.first?.revisions.count == 1)
    }

    @Test(arguments: [
        "You must end every task.\nIt keeps the app alive.\nThe budget is shared.\n",
        "You must end every task.\nIt keeps the app alive.\n\nThe budget is shared.\nIt is short.\n",
        "You must end every task.\nIt keeps the app alive and is wrapped at a fixed width like\nprose in an editor, so most of\nits lines end in the middle\nof a sentence.\n",
    ])
    func aParagraphOfSeveralLinesInOrdinaryMarkdownStaysOnePoint(_ text: String) {
        #expect(assemble(["notes.md": text]).corpus.rules.count <= 2)
        #expect(assemble(["notes.md": text]).corpus.rules.first?.statement == "You must end every task.")
        #expect(assemble(["notes.md": text]).corpus.rules.first?.details.contains("keeps the app alive") == true)
    }

    @Test func aVersionWithNeitherLabelNorHistoryIsAClearError() {
        let result = assemble(["documents/notes/2021.md": "You must end every task you begin.\n",
                               "documents/notes/2023.md": "You must end every task you begin.\n\nRevision History\n\n2023-06-16 Reworded.\n"])
        #expect(places(result.diagnostics) == ["Content/documents/notes/2021.md:1:1 [version-order]"])
        let message = result.diagnostics.all.first.map { $0.message + " " + $0.notes.joined(separator: " ") } ?? ""
        #expect(message.contains("`version:`") && message.contains("Revision History"))
        #expect(result.corpus.documents.first?.versions.map(\.label).contains("2023-06-16") == true)
    }

    @Test func aFrontMatterVersionStillWins() {
        let result = assemble(["documents/notes/a.md": "---\nversion: 2020-01-01\n---\nYou must end every task.\n\nRevision History\n\n2023-06-16 Reworded.\n",
                               "documents/notes/b.md": "You must end every task.\n\nRevision History\n\n2021-02-02 First.\n"])
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics.all)")
        #expect(result.corpus.documents.first?.versions.map(\.label) == ["2020-01-01", "2021-02-02"])
    }

    // MARK: Derived ids read as names

    @Test(arguments: [
        ("IMPORTANT I’m quoting these numbers just to give you a rough idea of what to expect.", "quoting-numbers-rough-idea"),
        ("You can call `beginBackgroundTask(withName:expirationHandler:)` from any thread.", "call-begin-background-task-thread"),
        ("beginBackgroundTask(expirationHandler:) can fail, returning UIBackgroundTaskInvalid.", "begin-background-task-fail"),
        ("You must create the background session with the same identifier after a relaunch.", "create-background-session-same-identifier"),
        ("iOS 13 introduced the Background Tasks framework.", "ios-13-introduced-background-tasks"),
        ("You must end every background task that you begin.", "end-background-task"),
        ("Background tasks can end in one of two ways:", "background-tasks-end"),
        ("You must release every assertion you take, or the app is killed.", "release-assertion"),
        ("The app’s budget is shared by all its tasks.", "app-budget-shared-tasks"),
        ("Don’t do that.", "point"),
        ("It works.", "works"),
    ])
    func derivedIDsReadAsNames(_ statement: String, _ id: String) {
        #expect(DerivedID.make(from: statement) == id, "\(DerivedID.tokens(of: statement))")
    }

    @Test func derivedIDsAreTheSameOnEveryRun() {
        let statements = Self.savedIDs.map { $0.replacingOccurrences(of: "-", with: " ") }
        #expect(statements.map { DerivedID.make(from: $0) } == statements.map { DerivedID.make(from: $0) })
        #expect(DerivedID.make(from: "background session hands transfers") == "background-session-hands-transfers")
    }
}
