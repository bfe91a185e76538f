import Testing
@testable import BGKBSite

@Suite struct WordDiffTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var old: String
        var new: String
        var html: String
        var testDescription: String { name }
    }

    @Test(arguments: [
        Case(name: "unchanged", old: "a b c", new: "a b c", html: "a b c"),
        Case(name: "one word replaced", old: "you should end it", new: "you must end it", html: "you <del>should</del> <ins>must</ins> end it"),
        Case(name: "words appended", old: "end it", new: "end it now please", html: "end it <ins>now please</ins>"),
        Case(name: "words removed", old: "end it now", new: "end it", html: "end it <del>now</del>"),
        Case(name: "rewrapping is not a change", old: "end\nit  now", new: "end it now", html: "end it now"),
        Case(name: "from nothing", old: "", new: "new text", html: "<ins>new text</ins>"),
        Case(name: "markup is escaped", old: "a <b>", new: "a <i>", html: "a <del>&lt;b&gt;</del> <ins>&lt;i&gt;</ins>"),
    ])
    func diffs(_ c: Case) {
        #expect(WordDiff.html(c.old, c.new) == c.html)
    }

    @Test func segmentsRebuildBothSides() {
        let old = "The framework effectively subsumes the background task API entirely"
        let new = "The framework has two request types and neither subsumes the API"
        let segments = WordDiff.diff(old, new)
        let rebuiltOld = segments.filter { $0.operation != .inserted }.map(\.text).joined(separator: " ")
        let rebuiltNew = segments.filter { $0.operation != .deleted }.map(\.text).joined(separator: " ")
        #expect(rebuiltOld == old)
        #expect(rebuiltNew == new)
    }
}
