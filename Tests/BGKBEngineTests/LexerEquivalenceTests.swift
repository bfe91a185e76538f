@testable import BGKBEngine
import BGKBModel
import Testing

/// The byte lexer is a fast path: on ASCII text it must give exactly what the Character lexer
/// gives (tokens, columns, problems), or diagnostics and traces would change.
@Suite struct LexerEquivalenceTests {
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

    @Test(arguments: texts)
    func byteLexerMatchesCharacterLexer(_ text: String) throws {
        let bytes = try #require(ScenarioLexer.asciiBytes(text))
        let fast = ScenarioLexer.tokenizeASCII(bytes)
        let general = ScenarioLexer.tokenizeCharacters(text)
        #expect(fast.tokens == general.tokens)
        #expect(fast.problems == general.problems)
        #expect(ScenarioLexer.lines(text) == text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
    }

    /// A scenario keeps its text and where its lines start; each line cut from it must be the line
    /// splitting the text gives, carriage returns and non-ASCII text included.
    @Test(arguments: texts + ["caf\u{E9} = 1\nb", "a = 1\r\nb = 2\n\r\nc", "\u{1F600}\n\n", "x\r\ny\rz\n", "\r\n", "e\u{301}\n\u{301}"])
    func linesAreCutAsSplittingGivesThem(_ text: String) {
        var scenario = Scenario()
        scenario.text = text
        scenario.lineStarts = ScenarioLexer.lineStarts(text)
        let split = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(scenario.lines == split)
        #expect(scenario.line(0) == nil)
        #expect(scenario.line(split.count + 1) == nil)
    }

    /// A symbol token holds its bytes packed: a literal in the parser (`"..<"`), the byte lexer's
    /// table and the Character lexer's text must pack alike, and unpack to the symbol's text.
    @Test(arguments: ScenarioLexer.symbols.indices)
    func symbolsPackAlikeEverywhere(_ index: Int) {
        let text = ScenarioLexer.symbols[index]
        let symbol = ScenarioSymbol(text)
        #expect(symbol.text == text)
        // The byte lexer's table holds it once, with its length.
        let entries = ScenarioLexer.packedSymbols.filter { $0.bytes == symbol.packed }
        #expect(entries.count == 1)
        #expect(entries.first?.length == text.utf8.count)
        #expect(ScenarioToken(kind: .symbol(symbol), line: 1, column: 1).text == text)
    }

    @Test func symbolLiteralsPackTheirBytes() {
        let literals: [ScenarioSymbol] = ["...", "..<", "==", "->", "{", "_"]
        #expect(literals == ["...", "..<", "==", "->", "{", "_"].map(ScenarioSymbol.init))
        #expect(ScenarioSymbol("..<") != ScenarioSymbol("..."))
        #expect(ScenarioSymbol("=") != ScenarioSymbol("=="))
    }

    @Test(arguments: ["caf\u{E9} = 1", "a = 1\r\nb = 2", "\u{1F600}"])
    func nonASCIIOrCarriageReturnTakesTheGeneralPath(_ text: String) {
        #expect(ScenarioLexer.asciiBytes(text) == nil)
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
