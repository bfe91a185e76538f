@testable import BGKBSite
import Foundation
import Testing

/// The search index is written as bytes by hand; it must be the JSON that JSONEncoder writes.
@Suite struct SearchIndexTests {
    static let awkward = [
        "", "plain", "quote \" and backslash \\ and slash /", "tab\tnewline\nreturn\rformfeed\u{0C}backspace\u{08}",
        "control \u{01}\u{1F} and delete \u{7F}", "ünïcödé, emoji 👩‍💻, line separator \u{2028} and \u{2029}",
        "</script><!--", "0x8badf00d",
    ] + wordPositions

    /// Each character to escape (and neighbours that need none: space, DEL, a two-byte letter) at
    /// every position of two 8-byte words, where `JSONBytes.string` tests eight bytes at a time.
    static let wordPositions: [String] = ["\"", "\\", "\u{01}", "\n", "\u{1F}", " ", "\u{7F}", "é", "\u{1F}\u{1F}"].flatMap { special in
        (0...17).map { position in
            var text = Array("abcdefghijklmnopq")
            text.insert(contentsOf: Array(special), at: min(position, text.count))
            return String(text)
        }
    }

    @Test(arguments: awkward)
    func entriesAreWhatJSONEncoderWrites(text: String) throws {
        let entry = SearchPage.Entry(id: "id-\(text)", t: text, s: text, x: text, a: [text, "b"], c: [], tp: ["t"], k: "must",
                                     kl: text, o: text.utf8.count * 7919, src: [text], u: "rules/x.html", r: text.isEmpty)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let expected = try encoder.encode(entry)
        var json = JSONBytes()
        entry.write(into: &json)
        #expect(String(decoding: json.bytes, as: UTF8.self) == String(decoding: expected, as: UTF8.self))
    }
}
