@testable import BGKBEngine
import BGKBModel
import Testing

/// The scenario lexer: one pass over the UTF-8 bytes, non-ASCII characters decoded as Unicode
/// scalars, lines cut at line feeds, columns counted in scalars.
@Suite struct LexerTests {
    static let tricky: [String] = [
        "",
        "\n",
        "var a = 1\n\n",
        "let x = \"unterminated\n  y += 10_000.5ms // comment\n",
        "a...b..<c == d != e <= f >= g && h || i -> j ; ? @ _ _x x_ 0x8BADF00D 0xbada5e47 1.5s 2..3",
        "weird # $ % ^ ` ~ \u{0B} char\t\ttabs \"esc\\\"aped\\\\\" end",
        "func f() {\n  print(\"hi\")\n}\nat 0s: app launches",
    ]

    static var texts: [String] { tricky + ScenarioSamples.all.map(\.text) }

    /// What each token is, where: `kind@line:column`, tokens separated by spaces.
    static func describe(_ text: String) -> String {
        let lexed = ScenarioLexer.tokenize(text)
        return (lexed.tokens.map { "\($0.text(in: lexed.source))@\($0.line):\($0.column)" }
            + lexed.problems.map { "!\($0.message)@\($0.line):\($0.column)" })
            .joined(separator: " ")
    }

    @Test(arguments: [
        ("a = 1", "a@1:1 =@1:3 1@1:5 end of line@1:6 end of scenario@1:1"),
        // Columns count Unicode scalars: after "é" (two bytes) the `=` is at column 6.
        ("café = \"ü\"", "café@1:1 =@1:6 \"ü\"@1:8 end of line@1:11 end of scenario@1:1"),
        // A combining mark continues a name; a letter of another script starts one.
        ("e\u{301}x λ2", "e\u{301}x@1:1 λ2@1:5 end of line@1:7 end of scenario@1:1"),
        // A carriage return before a line feed is blank space: the next line is line 2.
        ("a\r\nb", "a@1:1 end of line@1:3 b@2:1 end of line@2:2 end of scenario@2:1"),
        // Units are letters after a number; a character no token starts with is one problem.
        ("work 10s 😀 1_000ms", "work@1:1 10s@1:6 1000ms@1:12 end of line@1:19 end of scenario@1:1 !unexpected character '😀'@1:10"),
        // A string's escapes are taken as the byte after the backslash; one with no closing quote runs to the line's end.
        ("s = \"a\\\"b\\\\c\" + \"open", "s@1:1 =@1:3 \"a\"b\\c\"@1:5 +@1:15 \"open\"@1:17 end of line@1:22 end of scenario@1:1 !this string has no closing quote@1:17"),
        // A line's end is counted in scalars after a comment that is not ASCII; the next line's columns start again.
        ("a // é\nb é c", "a@1:1 end of line@1:7 b@2:1 é@2:3 c@2:5 end of line@2:6 end of scenario@2:1"),
        // A backslash at the end of a line escapes nothing: the string keeps it and stops at the line feed.
        ("\"ab\\\nc", "\"ab\\\"@1:1 end of line@1:5 c@2:1 end of line@2:2 end of scenario@2:1 !this string has no closing quote@1:1"),
        // Hex is shown in lower case; a number's underscores are dropped; a dot not followed by a digit ends it.
        ("0XAb 1_000.5ms 2.x", "0xab@1:1 1000.5ms@1:6 2@1:16 .@1:17 x@1:18 end of line@1:19 end of scenario@1:1"),
    ])
    func tokensAndColumns(_ text: String, _ expected: String) {
        #expect(Self.describe(text) == expected)
    }

    /// Every sample and tricky text lexes without a problem it did not have, and its tokens' columns
    /// point at their text in the line.
    @Test(arguments: texts)
    func columnsPointAtTheTokensText(_ text: String) {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let lexed = ScenarioLexer.tokenize(text)
        for token in lexed.tokens where token.kind == .identifier {
            let name = token.name(in: lexed.source)
            let line = lines[Int(token.line) - 1]
            let rest = String(line.unicodeScalars.dropFirst(Int(token.column) - 1))
            #expect(rest.hasPrefix(name), "\(name) at \(token.line):\(token.column)")
        }
    }

    /// A scenario keeps its text and where its lines start; each line cut from it must be the text
    /// between two line feeds, carriage returns and non-ASCII text included.
    @Test(arguments: texts + ["caf\u{E9} = 1\nb", "a = 1\r\nb = 2\n\r\nc", "\u{1F600}\n\n", "x\r\ny\rz\n", "\r\n", "e\u{301}\n\u{301}"])
    func linesAreCutAsSplittingGivesThem(_ text: String) {
        var scenario = Scenario()
        scenario.text = text
        scenario.lineStarts = ScenarioLexer.tokenize(text).lineStarts
        let split = text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        #expect(scenario.lines == split)
        #expect(scenario.line(0) == nil)
        #expect(scenario.line(split.count + 1) == nil)
    }

    /// A symbol token holds its bytes packed: a literal in the parser (`"..<"`), the lexer's table
    /// and the symbol's text must pack alike, and unpack to the symbol's text.
    @Test(arguments: ScenarioLexer.symbols.indices)
    func symbolsPackAlikeEverywhere(_ index: Int) {
        let text = ScenarioLexer.symbols[index]
        let symbol = ScenarioSymbol(text)
        #expect(symbol.text == text)
        // The lexer's table holds it once, with its length.
        let entries = ScenarioLexer.packedSymbols.filter { $0.bytes == symbol.packed }
        #expect(entries.count == 1)
        #expect(entries.first?.length == text.utf8.count)
        #expect(ScenarioLexer.tokenize(text).tokens.first?.text(in: Array(text.utf8)) == text)
    }

    /// A word matches a keyword (through `Bytes.equals`) only when their bytes are the same,
    /// length included, wherever the word lies in the text.
    @Test func wordsMatchKeywordsByTheirBytes() {
        let text = Array("xfunc funcs café s".utf8)
        let function = ScenarioWord(bytes: text[1..<5]), functions = ScenarioWord(bytes: text[6..<11])
        let accented = ScenarioWord(bytes: text[12..<17]), unit = ScenarioWord(bytes: text[18..<19])
        #expect(function == "func")
        #expect(!(function == "funcs") && !(function == "fun") && !(function == "Func"))
        #expect(functions == "funcs" && !(functions == "func"))
        #expect(accented == "café" && !(accented == "cafe"))
        #expect(unit == "s" && !(unit == "m") && !(unit == ""))
        #expect(ScenarioWord(bytes: text[0..<0]) == "")
        switch functions {
        case "func", "fun": Issue.record("matched a prefix")
        case "funcs": break
        default: Issue.record("missed funcs")
        }
    }

    @Test func symbolLiteralsPackTheirBytes() {
        let literals: [ScenarioSymbol] = ["...", "..<", "==", "->", "{", "_"]
        #expect(literals == ["...", "..<", "==", "->", "{", "_"].map(ScenarioSymbol.init))
        #expect(ScenarioSymbol("..<") != ScenarioSymbol("..."))
        #expect(ScenarioSymbol("=") != ScenarioSymbol("=="))
    }

}

/// A trace's step events show their statement's source line, trimmed of spaces, tabs and an
/// opening brace, with any other character (accents, emoji, tabs inside) kept.
@Suite struct SourceLineTests {
    static let cases: [(text: String, lines: [Int: String])] = [
        ("on applicationDidEnterBackground {\n\t  print(\"tabs and spaces\")  \t\n  if true\t{ \n    work 1s\n  }\n}\nexpect suspended\n",
         [2: "print(\"tabs and spaces\")", 3: "if true", 4: "work 1s"]),
        ("on applicationDidEnterBackground {\n  print(\"é {\")  \n  if true   {\t\n    print(\"😀 \t\")\n  }\n}\nexpect suspended",
         [2: "print(\"é {\")", 3: "if true", 4: "print(\"😀 \t\")"]),
    ]

    @Test(arguments: cases.indices)
    func sourceLinesAreTrimmed(index: Int) throws {
        let (text, lines) = Self.cases[index]
        let s = try #require(ScenarioParser.parse(text, at: BGKBModel.SourceLocation(path: "t.md", line: 1, column: 1)).0)
        let machine = Machine(scenario: s, constants: .standard)
        var seen: [Int: String] = [:]
        for statement in s.statements.indices {
            seen[Int(s.statements[statement].place.line)] = machine.sourceLine(Int32(statement))
        }
        #expect(seen == lines)
    }
}

/// The parser recognises the receivers it drops by their first name's length, written out for
/// speed: every first name in `ignoredReceivers` must pass, and near misses must not.
@Suite struct IgnoredReceiverTests {
    @Test func everyReceiversFirstNameIsRecognised() {
        for receiver in ScenarioParser.ignoredReceivers {
            #expect(ScenarioParser.isIgnoredFirstName(receiver[0]), "\(receiver)")
        }
    }

    @Test(arguments: ["", "sel", "selfs", "Self", "DispatchQueue", "processInfo", "UIApplicatio", "BGTaskSchedulers", "app"])
    func otherNamesAreNot(_ name: String) {
        #expect(!ScenarioParser.isIgnoredFirstName(name))
    }
}
