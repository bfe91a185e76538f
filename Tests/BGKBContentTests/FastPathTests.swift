@testable import BGKBContent
import BGKBMarkdown
import Foundation
import Testing

/// The pipeline's byte-level fast paths must give exactly what the character-level code they
/// replace gives, including where one character spans several scalars.
@Suite struct FastPathTests {
    static let texts: [String] = [
        "plain words, with `UIApplication.shared` and beginBackgroundTask(expirationHandler:)",
        "  leading and trailing  \n\t",
        "Apple’s “quoted” text — with dashes … and 0x8BADF00D.",
        "a space then a combining mark: e \u{301}x and \u{301} at the start",
        "Thai sara am after a space: ก \u{0E33}ำ",
        "an emoji modifier after a space: 👍 \u{1F3FD} and a ZWJ \u{200D}x",
        "a prepend mark before a space: \u{0600} x",
        "carriage returns\r\nand\rlone ones",
        "tabs\tand\nlines\n\nand   runs",
        "",
        " ",
        "**Why it matters.** [a link](#x) ~30 s",
    ]

    @Test(arguments: texts)
    func wordsMatchCharacterSplit(_ text: String) {
        let expected = text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }).map(String.init)
        #expect(PlainText.words(text) == expected)
    }

    @Test(arguments: texts + ["\n\nblank lines\n", "cr lf\r\n\r\r\n", "é\n\u{301}after a break"])
    func linesMatchCharacterSplit(_ text: String) {
        #expect(text.lines == text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
    }

    @Test(arguments: texts + ["Revision History  \n  ", "  **Revision** History:\n2023-06-16 Entry.", "Share and *Enjoy*  \nQuinn", "# Heading  "])
    func firstLineMatchesSplit(_ text: String) {
        for block in CommonMarkConverter.parse(text).children {
            #expect(BlockWalker.firstLine(of: block) == (block.plainText.trimmed.split(separator: "\n").first.map(String.init) ?? ""))
        }
    }

    @Test(arguments: texts + ["  expect suspended", "x\n\texpect\u{301} combined", "“quoted”\n expect running", "cr\r\n expect x"])
    func expectationLinesMatchCharacterSplit(_ text: String) {
        let expected = text.split(separator: "\n").contains { $0.drop { $0 == " " || $0 == "\t" }.hasPrefix("expect") }
        #expect(BlockWalker.hasExpectationLine(text) == expected)
        #expect(text.replacingNewlines == text.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: " "))
    }

    @Test(arguments: texts + ["cafe\u{301} and café", "kelvin \u{212A} sign", "greek\u{037E} question", "expiry handler’s thread"])
    func keywordSearchMatchesFoundation(_ text: String) {
        for keyword in ["e", "cafe", "caf", "handler", "expiry handler", "k", ";", "x", "", "’s", "0x8badf00d", "words, with"] {
            #expect(PlainText.contains(text, keyword) == text.range(of: keyword).map { _ in true } ?? false, "keyword \(keyword)")
        }
    }

    @Test(arguments: texts)
    func trimmingMatchesCharacterTrim(_ text: String) {
        for set in [" \n\t", ".,;:()“”\"’'`", ":. ", ":"] {
            var slice = Substring(text)
            while let first = slice.first, set.contains(first) { slice = slice.dropFirst() }
            while let last = slice.last, set.contains(last) { slice = slice.dropLast() }
            #expect(text.trimmingCharacters(in: set) == String(slice), "set \(set.debugDescription)")
        }
    }
}
