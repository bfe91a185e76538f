import BGKBModel
import Foundation
import Testing

/// The byte utilities answer as a plain walk over every byte does.
@Suite struct BytesTests {
    static func naive(_ needle: String, _ bytes: [UInt8], from start: Int) -> Int? {
        let pattern = Array(needle.utf8)
        guard start >= 0, !pattern.isEmpty, pattern.count <= bytes.count else { return nil }
        for index in start..<max(start, bytes.count - pattern.count + 1) where Array(bytes[index..<(index + pattern.count)]) == pattern {
            return index
        }
        return nil
    }

    @Test(arguments: ["", "<", "<h", "<h2>x</h2>", "a<h", "<<h", "<<<h1>", "text <hr> and <h3>", "href=\"#", "<a href=\"#x\">",
                      "href=\"href=\"#y\"", "no needle here at all, a long line of text", "ends with <", "ends with <h", "é<hé", "0x8badf00d"])
    func searchFindsTheFirstMatchAtOrAfterAnOffset(_ text: String) {
        let bytes = Array(text.utf8)
        for start in [0, 1, 2, 5, bytes.count - 1, bytes.count, bytes.count + 3] {
            for needle in ["<h", "href=\"#", "<", "0x", "é"] {
                #expect(Bytes.firstOffset(of: needle.utf8, in: bytes, from: start) == Self.naive(needle, bytes, from: start), "\(text) from \(start)")
                #expect(Bytes.firstOffset(of: needle.utf8, in: text.utf8, from: start) == Self.naive(needle, bytes, from: start))
            }
        }
        #expect(Bytes.firstOffset(of: UInt8(ascii: "<"), in: text) == bytes.firstIndex(of: UInt8(ascii: "<")))
    }

    @Test(arguments: [("plain", "plain"), ("<a href=\"x\">&'", "&lt;a href=&quot;x&quot;&gt;&amp;&#39;"), ("é<😀>", "é&lt;😀&gt;"), ("", "")])
    func htmlEscaping(_ text: String, _ escaped: String) {
        var out = ByteBuffer()
        out.append("[")
        out.appendHTMLEscaped(text)
        #expect(out.string == "[" + escaped)
    }

    /// A slice of an array's bytes escapes as the String of those bytes does, and appends as they are.
    @Test(arguments: ["plain", "<a href=\"x\">&'", "é<😀>", ""])
    func slicesEscapeAndAppendAsTheirBytes(_ text: String) {
        let bytes = Array(("[" + text + "]").utf8)
        let slice = bytes[1..<(bytes.count - 1)]
        var escapedSlice = ByteBuffer(), escapedString = ByteBuffer(), appended = ByteBuffer()
        escapedSlice.appendHTMLEscaped(slice)
        escapedString.appendHTMLEscaped(text)
        appended.append(contentsOf: slice)
        #expect(escapedSlice.array == escapedString.array)
        #expect(appended.string == text)
    }

    /// Every byte value, alone in a string: escaped exactly when it is one of the five.
    @Test func htmlEscapingTestsEveryByte() {
        let escapes: [UInt8: String] = [0x22: "&quot;", 0x26: "&amp;", 0x27: "&#39;", 0x3C: "&lt;", 0x3E: "&gt;"]
        for byte in UInt8(0)..<0x80 {
            var out = ByteBuffer()
            out.appendHTMLEscaped(String(decoding: [byte], as: UTF8.self))
            #expect(out.array == Array((escapes[byte] ?? String(decoding: [byte], as: UTF8.self)).utf8), "\(byte)")
        }
    }

    /// A buffer that starts small and grows many times over keeps every byte in order, whichever
    /// way the bytes came in.
    @Test(arguments: [0, 1, 16, 1000])
    func byteBufferGrowsAndKeepsEveryByte(_ capacity: Int) {
        var buffer = ByteBuffer(capacity: capacity)
        var expected: [UInt8] = []
        for round in 0..<300 {
            let piece = Array("piece \(round) <&> ".utf8)
            switch round % 4 {
            case 0: buffer.append(contentsOf: piece)
            case 1: buffer.append(String(decoding: piece, as: UTF8.self))
            case 2: piece.forEach { buffer.append($0) }
            default: piece.withUnsafeBufferPointer { buffer.append($0) }
            }
            expected += piece
        }
        buffer.append("")
        buffer.append("end")
        expected += Array("end".utf8)
        #expect(buffer.array == expected)
        #expect(buffer.count == expected.count)
        #expect(buffer.last == UInt8(ascii: "d"))
        buffer.removeLast()
        #expect(buffer.string == String(decoding: expected.dropLast(), as: UTF8.self))
        var other = ByteBuffer(capacity: 0)
        other.append(buffer)
        other.append(buffer)
        #expect(other.count == 2 * buffer.count)
    }

    @Test(arguments: [0, 7, 10, 99, 100, 12_345, UInt64(Int64.max), UInt64.max])
    func byteBufferWritesDecimals(_ value: UInt64) {
        var buffer = ByteBuffer(capacity: 0)
        buffer.append("=")
        buffer.appendDecimal(value)
        #expect(buffer.string == "=" + String(value))
    }

    /// As JSONEncoder escapes a string: the quote, the backslash and control characters.
    @Test(arguments: ["plain", "a\"b\\c/d", "tab\there\nnew\rret\u{8}\u{C}", "\u{0}\u{1F}\u{7F} é 😀", ""])
    func jsonEscapingMatchesJSONEncoder(_ text: String) throws {
        var out: [UInt8] = []
        Bytes.appendJSONEscaped(text, to: &out)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        let encoded = try encoder.encode(text)
        #expect("\"" + String(decoding: out, as: UTF8.self) + "\"" == String(decoding: encoded, as: UTF8.self))
    }

    /// Quiz question ids and progress files are keyed by these values: they must never change.
    @Test func stableHashValuesArePinned() {
        #expect(StableHash.fnv1a("") == 0xcbf2_9ce4_8422_2325)
        #expect(StableHash.fnv1a("a") == 0xaf63_dc4c_8601_ec8c)
        #expect(StableHash.of("rule", "outcome").value == { var h = StableHash(); h.combine(bytes: Array("rule\u{1F}outcome\u{1F}".utf8)); return h.value }())
    }

    /// Every offset of a byte, in order, as a walk over every byte finds them.
    @Test(arguments: ["", "\n", "a\nb", "\n\n", "no line feed", "one\r\ntwo\n", "é\n😀\n\n" + String(repeating: "long line ", count: 40) + "\nend\n"])
    func offsetsOfAByteAreEveryOffset(_ text: String) {
        let bytes = Array(text.utf8)
        for byte in [UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "e"), 0xC3] {
            #expect(Bytes.offsets(of: byte, in: bytes) == bytes.indices.filter { bytes[$0] == byte }, "\(text.debugDescription) \(byte)")
        }
    }

    /// Each run of ASCII digits stands for any other, of any length; everything else must match
    /// byte for byte (a digit against a letter, or a run left over at one end, does not).
    @Test(arguments: [
        ("task 9 ended", "task 10 ended", true), ("task 9 ended", "task 9 ended", true), ("", "", true),
        ("returns identifier 1", "returns identifier 22", true), ("12", "3", true), ("a1b2", "a33b444", true),
        ("task 9 ended", "task x ended", false), ("task 9", "task 9 ", false), ("task", "task 1", false),
        ("1a", "a", false), ("é 1", "é 2", true), ("é", "e\u{301}", false), ("x1", "x", false),
    ])
    func digitRunsCountAsOne(_ a: String, _ b: String, _ equal: Bool) {
        #expect(Bytes.equalExceptDigitRuns(a, b) == equal, "\(a) / \(b)")
        #expect(Bytes.equalExceptDigitRuns(b, a) == equal, "\(b) / \(a)")
    }
}
