@testable import BGKBSite
import BGKBModel
import Foundation
import Testing

/// `SiteContext.heading` compares bytes where it can; it must answer as the String comparison
/// it replaced does, including canonically equivalent text with other bytes.
@Suite struct HeadingTests {
    static func reference(_ rule: Rule) -> String {
        if rule.statement.hasSuffix("."), rule.title == String(rule.statement.dropLast()) { return rule.statement }
        guard rule.title.hasSuffix("…") || rule.title.hasSuffix("...") else { return rule.title }
        let stem = rule.title.hasSuffix("…") ? String(rule.title.dropLast()) : String(rule.title.dropLast(3))
        return rule.statement.hasPrefix(stem.trimmingCharacters(in: .whitespaces)) ? rule.statement : rule.title
    }

    static let pairs: [(String, String)] = [
        ("End every task", "End every task."), ("End every task", "End every task you begin."),
        ("End every task…", "End every task you begin."), ("End every task...", "End every task you begin."),
        ("End every task …", "End every task you begin."), ("Other…", "End every task."), ("Café", "Cafe\u{301}."),
        ("Cafe\u{301}", "Café."), ("Ends with a mark.\u{301}", "Ends with a mark.\u{301}."), ("", "."), ("Title", ""),
        ("Dots..", "Dots.."), ("Combining …\u{301}", "Combining x"), ("Ünïcode…", "Ünïcode text."),
        ("End every task\u{00A0}…", "End every task you begin."), ("\u{3000}End\t...", "End it."),
        ("Short...", "Short and long."), ("...", "Anything."), ("…", "…."), ("A.", "A.."), ("ab", "abc."),
        ("\u{0600}…", "\u{0600} text."), ("x\u{0600}...", "x\u{0600}. y."), ("Go ...", "Go on."),
        // Derived titles, cut with "…" after ASCII: spaces and tabs around the stem, `\r` on either
        // side (`\r\n` is one Character), a stem longer than the statement, an empty one.
        ("The app must never record…", "The app must never record the task identifier."), ("The app must not…", "The app must never."),
        (" \tEnd every task\t …", "End every task you begin."), ("a\r…", "a\r\nb."), ("a…", "a\r\nb."), ("ab\r\n…", "ab\r\nc."),
        ("Longer than it…", "Longer"), ("…", "Anything."), (" …", "Anything."), ("é…", "é and more."), ("x…\u{301}", "x and more."),
    ]

    /// The set `heading` trims (`String.spacesAndTabs`) instead of Foundation's, on tabs, Unicode
    /// spaces and newlines (which `.whitespaces` leaves alone).
    @Test(arguments: [" a ", "\t x\u{00A0}", "\u{2003}y\u{3000}", "\n z \n", "", "   ", "a\u{301} ", " \u{301}b",
                      "\u{200B}c\u{200B}", "\u{1680}d\u{202F}\u{205F}"])
    func spacesAreTrimmedAsFoundationTrimsThem(text: String) {
        #if !os(Linux)
        // Only Linux's Foundation counts U+200B among `.whitespaces`; bgkb trims it everywhere.
        if text.unicodeScalars.contains("\u{200B}") { return }
        #endif
        #expect(text.trimmingCharacters(in: String.spacesAndTabs) == text.trimmingCharacters(in: .whitespaces), "\(text.debugDescription)")
    }

    @Test(arguments: pairs.indices)
    func headingMatchesTheStringComparison(index: Int) {
        let (title, statement) = Self.pairs[index]
        let rule = Rule(id: "r", title: title, statement: statement, kind: .fact, document: "d",
                        location: SourceLocation(path: "d.md", line: 1, column: 1))
        #expect(SiteContext.heading(rule) == Self.reference(rule), "\(title.debugDescription) / \(statement.debugDescription)")
    }
}
