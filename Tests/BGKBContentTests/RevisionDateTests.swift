@testable import BGKBContent
import BGKBModel
import Testing

@Suite struct RevisionDateTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let line: String
        let date: String
        let rest: String
        var testDescription: String { line }
    }

    @Test(arguments: [
        Case(line: "2023-06-16 Added a link.", date: "2023-06-16", rest: "Added a link."),
        Case(line: "2023-06-16: Added a link.", date: "2023-06-16", rest: "Added a link."),
        Case(line: "17 Aug 2017 — First posted.", date: "2017-08-17", rest: "First posted."),
        Case(line: "20 Jun 2019 - Beta notes.", date: "2019-06-20", rest: "Beta notes."),
        Case(line: "12 September 2017: Clarified.", date: "2017-09-12", rest: "Clarified."),
        Case(line: "August 17, 2017 — First posted.", date: "2017-08-17", rest: "First posted."),
        Case(line: "29 Feb 2024 Leap day.", date: "2024-02-29", rest: "Leap day."),
    ])
    func readsBothDateStyles(_ example: Case) {
        guard case let .date(day, _, rest) = RevisionDate.parse(example.line) else {
            Issue.record("not read as a date: \(example.line)")
            return
        }
        #expect(day.description == example.date)
        #expect(rest == example.rest)
    }

    @Test(arguments: [
        ("2023-02-30 Nope.", "impossible-date"),
        ("29 Feb 2023 Nope.", "impossible-date"),
        ("2023-13-01 Nope.", "impossible-date"),
        ("2023-6-1 Nope.", "bad-date"),
        ("17 Agu 2017 Nope.", "bad-date"),
    ])
    func rejectsBadAndImpossibleDates(_ line: String, _ id: String) {
        guard case let .invalid(_, found) = RevisionDate.parse(line) else {
            Issue.record("accepted \(line)")
            return
        }
        #expect(found == id)
    }

    @Test(arguments: ["Other thread: hello", "iOS 13 beta notes", "", "2023 was a year"])
    func ordinaryTextIsNotADate(_ line: String) {
        #expect(RevisionDate.parse(line) == .notADate)
    }

    static func history(_ entries: [String], asList: Bool, bold: Bool) -> String {
        let lines = entries.map { bold ? "**\($0.prefix { $0 != " " })**\($0.drop { $0 != " " })" : $0 }
        let body = asList ? lines.map { "- " + $0 }.joined(separator: "\n") : lines.joined(separator: "\n")
        return "You must end every task.\n\nChange History\n\n\(body)\n"
    }

    @Test(arguments: [false, true], [false, true])
    func historiesParseNewestOrOldestFirstAsListsOrLines(asList: Bool, bold: Bool) {
        let oldestFirst = ["17 Aug 2017 — First posted.", "12 Sep 2017 — Clarified.", "2019-06-20 — Beta."]
        for entries in [oldestFirst, oldestFirst.reversed()] {
            let result = assemble(["notes.md": Self.history(entries, asList: asList, bold: bold)])
            #expect(result.diagnostics.isEmpty, "\(result.diagnostics.all)")
            let dates = result.corpus.documents[0].versions[0].revisions.map(\.date.description)
            #expect(Set(dates) == ["2017-08-17", "2017-09-12", "2019-06-20"])
            #expect(result.corpus.rules.count == 1)
        }
    }

    @Test func historyTitleAndEntriesInOneParagraph() {
        let text = "You must end every task.\n\nRevision History\n2023-06-16 Added.\n2017-08-17 First posted.\n"
        let revisions = assemble(["notes.md": text]).corpus.documents[0].versions[0].revisions
        #expect(revisions.map(\.date.description) == ["2023-06-16", "2017-08-17"])
        #expect(revisions.map(\.location.line) == [4, 5])
    }
}
