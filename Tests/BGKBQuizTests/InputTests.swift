import BGKBQuiz
import Testing

@Suite struct InputTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var bytes: [UInt8]
        var expected: Command?
        var messageContains: String? = nil
        var trueFalse = false
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "letter", bytes: Array("b".utf8), expected: .choose(1)),
        Case(name: "capital letter with spaces", bytes: Array("  C \t".utf8), expected: .choose(2)),
        Case(name: "number", bytes: Array("4".utf8), expected: .choose(3)),
        Case(name: "letter between Unicode spaces and a carriage return", bytes: Array("\u{3000}\u{A0}d\u{2009}\r".utf8), expected: .choose(3)),
        Case(name: "quit after a line separator", bytes: Array("\u{2028}quit\u{0B}".utf8), expected: .quit),
        Case(name: "hint", bytes: Array("?".utf8), expected: .hint),
        Case(name: "skip", bytes: Array("s".utf8), expected: .skip),
        Case(name: "quit", bytes: Array("Q".utf8), expected: .quit),
        Case(name: "t on true/false", bytes: Array("t".utf8), expected: .choose(0), trueFalse: true),
        Case(name: "false on true/false", bytes: Array("false".utf8), expected: .choose(1), trueFalse: true),
        Case(name: "empty line", bytes: [], messageContains: "Type a-d"),
        Case(name: "only spaces", bytes: Array("   ".utf8), messageContains: "Type a-d"),
        Case(name: "only Unicode spaces", bytes: Array("\u{2003}\u{85}\u{3000}".utf8), messageContains: "Type a-d"),
        Case(name: "a combining mark on a space is not a space", bytes: Array(" \u{301}b".utf8), messageContains: "is not an answer"),
        Case(name: "letter out of range", bytes: Array("e".utf8), messageContains: "no choice \"e\""),
        Case(name: "number out of range", bytes: Array("9".utf8), messageContains: "no choice \"9\""),
        Case(name: "zero", bytes: Array("0".utf8), messageContains: "no choice"),
        Case(name: "negative", bytes: Array("-1".utf8), messageContains: "no choice"),
        Case(name: "garbage", bytes: Array("hello there".utf8), messageContains: "is not an answer"),
        Case(name: "huge number", bytes: Array("99999999999999999999999".utf8), messageContains: "is not an answer"),
        Case(name: "invalid UTF-8", bytes: [0x61, 0xff, 0xfe], messageContains: "not valid UTF-8"),
        Case(name: "very long line", bytes: Array(repeating: UInt8(ascii: "a"), count: 5000), messageContains: "too long"),
        Case(name: "escape sequence", bytes: [0x1b, 0x5b, 0x32, 0x4a], messageContains: "\"[2j\""),
        Case(name: "emoji", bytes: Array("👍".utf8), messageContains: "is not an answer"),
    ]

    @Test(arguments: cases)
    func parsesOrExplains(testCase: Case) {
        let command = AnswerParser.parse(testCase.bytes, choiceCount: testCase.trueFalse ? 2 : 4, trueFalse: testCase.trueFalse)
        if let expected = testCase.expected {
            #expect(command == expected)
        } else if case let .invalid(message) = command {
            #expect(message.contains(testCase.messageContains ?? ""), "\(message)")
            #expect(message.count < 120)
            #expect(!message.unicodeScalars.contains { $0.value == 0x1b })
        } else {
            Issue.record("expected a message, got \(command)")
        }
    }

    struct Chunks: ByteSource {
        var chunks: [ByteRead]
        mutating func read(maximum: Int) -> ByteRead { chunks.isEmpty ? .end : chunks.removeFirst() }
    }

    func lines(_ chunks: [ByteRead], limit: Int = 16) -> [InputLine] {
        var reader = LineReader(source: Chunks(chunks: chunks), limit: limit)
        var result: [InputLine] = []
        while true {
            let line = reader.next()
            result.append(line)
            if line == .end || line == .interrupted || result.count > 20 { return result }
        }
    }

    /// Text typed without Enter before the end of input (`d`, or `b` then Ctrl-D) is unfinished,
    /// never a line the session could take as an answer.
    @Test func linesAcrossChunksCRLFAndUnfinishedTextAtTheEnd() {
        #expect(lines([.bytes(Array("a\r\nb".utf8)), .bytes(Array("c\n\nd".utf8))])
            == [.line([97]), .line([98, 99]), .line([]), .unfinished([100]), .end])
        // A terminal hands "b" over at the first Ctrl-D, and end of input at the second.
        #expect(lines([.bytes([98]), .end]) == [.unfinished([98]), .end])
    }

    @Test func aLongLineIsDroppedNotKept() {
        let long = Array(repeating: UInt8(ascii: "x"), count: 100)
        #expect(lines([.bytes(long), .bytes(long), .bytes(Array("\nb\n".utf8))]) == [.tooLong, .line([98]), .end])
        #expect(lines([.bytes(long)]) == [.tooLong, .end])
    }

    @Test func interruptionIsReported() {
        #expect(lines([.bytes(Array("a\n".utf8)), .interrupted]) == [.line([97]), .interrupted])
    }
}
