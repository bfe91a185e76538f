@testable import BGKBContent
@testable import BGKBMarkdown
import BGKBModel
import Testing

@Suite struct ForumStyleTests {
    static let post = """
    The keep-alive API stops the app from being frozen for a short while.

    You must release every assertion you take.

    IMPORTANT Losing track of an assertion is the top cause of crashes. Wrap each one in an object.

    Note The handler runs on the main thread.

    **Warning:** A handler that takes more than a second gets the app killed with 0x8badf00d.

    The system grants about 30 seconds, not per assertion.

    Share and Enjoy
    — Pat

    Revision History

    2023-06-16 Added the wrapper advice.
    2017-08-17 First posted.

    Unrelated forum chatter that must not become a rule. You must ignore this.
    """

    @Test func everyParagraphBeforeTheSignOffIsAPoint() {
        let result = assemble(["notes.md": Self.post])
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics.all)")
        let rules = result.corpus.rules
        #expect(rules.count == 6)
        #expect(!rules.contains { $0.statement.contains("chatter") || $0.statement.contains("Share") })
        #expect(result.corpus.documents.first?.latest?.signOff?.hasPrefix("Share and Enjoy") == true)
    }

    @Test func calloutsAreRecognisedAndRemovedFromTheStatement() {
        let rules = assemble(["notes.md": Self.post]).corpus.rules
        #expect(rules.map(\.callout) == [nil, nil, .important, .note, .warning, nil])
        #expect(rules[2].statement == "Losing track of an assertion is the top cause of crashes.")
        #expect(rules[2].details == "Wrap each one in an object.")
        #expect(rules[4].statement.hasPrefix("A handler that takes"))
    }

    @Test func metadataIsDerivedFromPlainText() {
        let rules = assemble(["notes.md": Self.post], topics: testTopics).corpus.rules
        #expect(rules[1].kind == .must)
        #expect(rules[4].crashCodes == ["0x8badf00d"])
        let budget = rules[5].numbers.first
        #expect(budget?.value == 30 && budget?.unit == .seconds && budget?.firmness == .about)
        #expect(rules[3].topics == ["expiry"])
        #expect(rules[5].topics == ["budgets"])
    }

    @Test func idsAreDerivedFromTheStatementAndSurviveUnrelatedEdits() {
        let before = assemble(["notes.md": Self.post]).corpus.rules.map(\.id)
        let edited = Self.post.replacingOccurrences(of: "Note The handler runs on the main thread.",
                                                    with: "Note The callback always runs on the main thread, never elsewhere.")
        let after = assemble(["notes.md": edited]).corpus.rules.map(\.id)
        #expect(before[1] == "release-assertion")
        #expect(zip(before, after).filter { $0 != $1 }.count == 1, "only the edited point's id may change")
        #expect(assemble(["notes.md": Self.post]).corpus.rules.map(\.id) == before, "ids are the same on every run")
    }

    @Test func revisionEntriesAreReadAndTheHistoryEndsAtTheFirstNonEntry() {
        let version = assemble(["notes.md": Self.post]).corpus.documents[0].versions[0]
        #expect(version.revisions.map(\.date.description) == ["2023-06-16", "2017-08-17"])
        #expect(version.revisions.map(\.text) == ["Added the wrapper advice.", "First posted."])
        #expect(version.revisions[0].location.line == 18)
    }

    @Test func theCommittedPlainFixtureParsesWithNoAnnotation() throws {
        let result = try ContentLoader.load(directory: repositoryRoot + "/Tests/Fixtures/forum-plain")
        #expect(!result.diagnostics.hasErrors, "\(result.diagnostics.all)")
        #expect(result.corpus.rules.count == 7)
        #expect(result.corpus.documents[0].versions[0].revisions.count == 3)
        #expect(!result.corpus.rules.contains { $0.statement.contains("beta crash") })
    }

    @Test func aThematicBreakBeforeASignatureIsTheSignOff() {
        let text = "You must end every task.\n\n---\n\nWritten for the team by Pat.\n\nRevision History\n\n2023-01-01 Added.\n"
        let result = assemble(["notes.md": text])
        #expect(result.corpus.rules.map(\.statement) == ["You must end every task."])
        #expect(result.corpus.documents[0].latest?.signOff == "Written for the team by Pat.")
        #expect(result.corpus.documents[0].latest?.revisions.count == 1)
    }

    @Test func aThematicBreakBetweenPointsIsOnlyABoundary() {
        let text = "You must end every task.\n\n---\n\nOne point.\n\nTwo points.\n\nThree points.\n"
        #expect(assemble(["notes.md": text]).corpus.rules.count == 4)
    }

    @Test(arguments: [
        ("The app dies with 0x8badf00d after that.", 0),
        ("Taking a second call does not help.", 0),
        ("The handler must finish in less than a second.", 1),
        ("Expect about 30 seconds and about 1000 assertions.", 2),
        ("iOS 13 arrived in 2019 with WWDC 2019 Session 707.", 0),
    ])
    func onlyRealQuantitiesBecomeNumbers(_ text: String, _ count: Int) {
        #expect(PlainText.numbers(in: text, measures: "").count == count)
    }

    @Test func codeAfterAWhyParagraphBelongsToIt() {
        let text = "You must end every task.\n\n**Why it matters.** The app is killed:\n\n```\n0x8badf00d\n```\n\nMore detail.\n\n```rule\nid: end\n```\n"
        let rule = assemble(["d.md": text]).corpus.rules[0]
        #expect(rule.why?.contains("```") == true)
        #expect(rule.details == "More detail.")
    }

    @Test func writtenMarkdownKeepsIntrawordUnderscoresReadable() {
        #expect(MarkdownWriter.escape("EXC_BREAKPOINT and _private and a*b") == "EXC_BREAKPOINT and \\_private and a\\*b")
    }
}
