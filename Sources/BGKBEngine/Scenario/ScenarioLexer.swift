import BGKBModel

/// A token of scenario text: what it is, where its bytes lie in the text's UTF-8, and its line
/// and column. Newlines are tokens because a statement ends at the end of its line, as in Swift.
/// A token holds no String: the parser cuts a name or a literal out of the bytes where it keeps
/// one, and matches keywords against the bytes in place (see `ScenarioWord`).
struct ScenarioToken: Sendable, Hashable {
    enum Kind: Sendable, Hashable {
        case identifier
        /// A number, with the unit written right after it (`10s`, `500ms`), if any: the digits
        /// end at `valueEnd`, the unit runs from there to `end`.
        case number
        /// A text in quotes: its content runs from after the opening quote to `valueEnd` (the
        /// closing quote, or the end of the line when there is none), escapes still in it.
        case string
        /// `0x8badf00d`.
        case hex
        case symbol(ScenarioSymbol)
        case newline
        case end
    }
    var kind: Kind
    /// The token's bytes: `start..<end` in the text's UTF-8.
    var start: Int32
    var end: Int32
    /// Where a number's digits or a string's content end (see `Kind`); `end` for other tokens.
    var valueEnd: Int32
    var line: Int32
    var column: Int32

    init(kind: Kind, start: Int, end: Int, valueEnd: Int? = nil, line: Int32, column: Int32) {
        self.kind = kind
        self.start = Int32(start)
        self.end = Int32(end)
        self.valueEnd = Int32(valueEnd ?? end)
        self.line = line
        self.column = column
    }

    /// The identifier's bytes in `source`, to match against keywords.
    func word(in source: [UInt8]) -> ScenarioWord {
        ScenarioWord(bytes: source[Int(start)..<Int(end)])
    }

    /// The identifier's name, or the hex literal's text in lower case.
    func name(in source: [UInt8]) -> String {
        let text = String(decoding: source[Int(start)..<Int(end)], as: UTF8.self)
        return kind == .hex ? text.lowercased() : text
    }

    /// The number's value and unit.
    func number(in source: [UInt8]) -> (value: Double, unit: String?) {
        let digits = String(decoding: source[Int(start)..<Int(valueEnd)].filter { $0 != 0x5F }, as: UTF8.self)
        let unit = valueEnd < end ? String(decoding: source[Int(valueEnd)..<Int(end)], as: UTF8.self) : nil
        return (Double(digits) ?? 0, unit)
    }

    /// The string's content, each escaped byte (`\"`, `\\`) taken as it is.
    func string(in source: [UInt8]) -> String {
        var value: [UInt8] = []
        var index = Int(start) + 1
        let contentEnd = Int(valueEnd)
        while index < contentEnd {
            if source[index] == 0x5C && index + 1 < contentEnd { index += 1 }
            value.append(source[index])
            index += 1
        }
        return String(decoding: value, as: UTF8.self)
    }

    /// The token as a diagnostic shows it.
    func text(in source: [UInt8]) -> String {
        switch kind {
        case .identifier, .hex: return name(in: source)
        case .number:
            let (value, unit) = number(in: source)
            return formatNumber(value) + (unit ?? "")
        case .string: return "\"\(string(in: source))\""
        case let .symbol(symbol): return symbol.text
        case .newline: return "end of line"
        case .end: return "end of scenario"
        }
    }
}

/// An identifier's bytes where they lie in the scenario's text, matched against a keyword written
/// as a literal (`case "func":` in a switch, `word == "in"`) without making a String.
struct ScenarioWord {
    var bytes: ArraySlice<UInt8>

    static func ~= (keyword: StaticString, word: ScenarioWord) -> Bool { Bytes.equals(word.bytes, keyword) }
    static func == (word: ScenarioWord, keyword: StaticString) -> Bool { Bytes.equals(word.bytes, keyword) }
}

/// A symbol token (`{`, `==`, `..<`): its one to three ASCII bytes packed into an integer, first
/// byte lowest, as the lexer matches them. The parser asks "is this `{`?" for nearly every
/// token, so a symbol is a plain integer to compare rather than a String. A literal (`"{"`)
/// packs its bytes where it is written.
struct ScenarioSymbol: Sendable, Hashable, ExpressibleByStringLiteral {
    var packed: UInt32

    init(packed: UInt32) { self.packed = packed }

    @inline(__always)
    init(stringLiteral literal: StaticString) {
        var packed: UInt32 = 0
        literal.withUTF8Buffer { bytes in
            for (offset, byte) in bytes.prefix(4).enumerated() { packed |= UInt32(byte) << (8 * UInt32(offset)) }
        }
        self.packed = packed
    }

    /// The symbol of `text` (one of `ScenarioLexer.symbols`).
    init(_ text: String) {
        packed = text.utf8.prefix(4).enumerated().reduce(UInt32(0)) { $0 | UInt32($1.element) << (8 * UInt32($1.offset)) }
    }

    var text: String {
        var bytes: [UInt8] = []
        var rest = packed
        while rest != 0 {
            bytes.append(UInt8(rest & 0xFF))
            rest >>= 8
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

func formatNumber(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
}

struct ScenarioLexer {
    struct Problem: Sendable, Hashable {
        var message: String
        var line: Int32
        var column: Int32
    }

    static let symbols: [String] = ["...", "..<", "==", "!=", "<=", ">=", "+=", "-=", "&&", "||", "->",
                                    "{", "}", "(", ")", "[", "]", ",", ":", ".", "!", "=", "<", ">", ";", "?", "@", "+", "-", "*", "/", "_"]

    /// A symbol for the lexer: its bytes packed into an integer, first byte lowest (every
    /// symbol is one to three bytes) as `ScenarioSymbol` holds them, and its length.
    struct PackedSymbol {
        var bytes: UInt32
        var length: Int
    }

    /// The symbols grouped by first byte, each group in `symbols`' order (longest first), and for
    /// each first byte its group's range: the lexer tries those alone. Flat tables of plain
    /// values, so trying a symbol allocates nothing.
    static let packedSymbols: [PackedSymbol] = {
        var table: [PackedSymbol] = []
        for first in 0..<128 {
            for symbol in symbols where Int(symbol.utf8.first!) == first {
                table.append(PackedSymbol(bytes: ScenarioSymbol(symbol).packed, length: symbol.utf8.count))
            }
        }
        return table
    }()
    static let symbolGroups: [Range<Int>] = (0..<128).map { first in
        let start = packedSymbols.firstIndex { $0.bytes & 0xFF == first } ?? packedSymbols.count
        let end = packedSymbols.lastIndex { $0.bytes & 0xFF == first }.map { $0 + 1 } ?? start
        return start..<end
    }

    /// What the lexer makes of a text: its UTF-8 bytes (which the tokens point into), its
    /// tokens, the problems found, and the offset at which each line (each run up to a line
    /// feed) starts.
    struct Lexed {
        var source: [UInt8]
        var tokens: [ScenarioToken]
        var problems: [Problem]
        var lineStarts: [Int32]
    }

    /// The one lexer, for any text. It walks the UTF-8 bytes: ASCII bytes are classified as they
    /// are, and where a byte starts a non-ASCII character, that Unicode scalar is decoded and
    /// classified by its properties (letters and numbers may continue an identifier, with
    /// combining marks). Lines end at line feeds; a carriage return is blank space like a tab.
    /// Columns count Unicode scalars from 1, so on ASCII text a column is a byte offset plus one.
    static func tokenize(_ text: String) -> Lexed {
        let bytes = Array(text.utf8)
        let count = bytes.count
        var tokens: [ScenarioToken] = []
        tokens.reserveCapacity(count / 3)
        var problems: [Problem] = []
        var lineStarts: [Int32] = [0]
        var lineNumber: Int32 = 1
        var lineStart = 0
        let packedSymbols = Self.packedSymbols
        let symbolGroups = Self.symbolGroups
        func problem(_ message: String, at index: Int) {
            problems.append(Problem(message: message, line: lineNumber, column: column(of: index, lineStart: lineStart, in: bytes)))
        }
        var i = 0
        while i < count {
            let c = bytes[i]
            if c == 0x20 || c == 0x09 || c == 0x0D { i += 1; continue }
            let start = i
            // The token from `start` to `i`. Its column counts bytes here; see the end.
            func token(_ kind: ScenarioToken.Kind, valueEnd: Int? = nil) -> ScenarioToken {
                ScenarioToken(kind: kind, start: start, end: i, valueEnd: valueEnd, line: lineNumber, column: Int32(start - lineStart + 1))
            }
            if c == 0x0A {
                tokens.append(token(.newline))
                i += 1
                lineNumber += 1
                lineStart = i
                lineStarts.append(Int32(i))
                continue
            }
            if c == 0x2F && i + 1 < count && bytes[i + 1] == 0x2F {
                while i < count && bytes[i] != 0x0A { i += 1 }
                continue
            }
            if c == 0x22 {
                i += 1
                var closingQuote: Int?
                while i < count && bytes[i] != 0x0A {
                    if bytes[i] == 0x5C && i + 1 < count && bytes[i + 1] != 0x0A { i += 2; continue }
                    if bytes[i] == 0x22 { closingQuote = i; i += 1; break }
                    i += 1
                }
                if closingQuote == nil { problem("this string has no closing quote", at: start) }
                tokens.append(token(.string, valueEnd: closingQuote ?? i))
                continue
            }
            if c == 0x30 && i + 1 < count && (bytes[i + 1] == 0x78 || bytes[i + 1] == 0x58) {
                i += 2
                while i < count, isHexDigit(bytes[i]) { i += 1 }
                tokens.append(token(.hex))
                continue
            }
            if isDigit(c) {
                while i < count, isDigit(bytes[i]) || bytes[i] == 0x5F { i += 1 }
                if i + 1 < count, bytes[i] == 0x2E, isDigit(bytes[i + 1]) {
                    i += 1
                    while i < count, isDigit(bytes[i]) { i += 1 }
                }
                let digitsEnd = i
                while i < count, let length = letterLength(bytes, at: i) { i += length }
                tokens.append(token(.number, valueEnd: digitsEnd))
                continue
            }
            let startsName = letterLength(bytes, at: i) != nil
                || c == 0x5F && i + 1 < count && nameContinuationLength(bytes, at: i + 1) != nil
            if startsName {
                while i < count, let length = nameContinuationLength(bytes, at: i) { i += length }
                tokens.append(token(.identifier))
                continue
            }
            var matched = false
            // The next three bytes (fewer at the text's end), packed as the symbols are. No
            // symbol holds a line feed, so none matches across the line's end.
            var next = UInt32(c)
            if i + 1 < count { next |= UInt32(bytes[i + 1]) << 8 }
            if i + 2 < count { next |= UInt32(bytes[i + 2]) << 16 }
            for position in symbolGroups[Int(c & 0x7F)] where c < 0x80 {
                let symbol = packedSymbols[position]
                let mask: UInt32 = symbol.length == 3 ? 0xFF_FFFF : symbol.length == 2 ? 0xFFFF : 0xFF
                if i + symbol.length <= count, next & mask == symbol.bytes {
                    i += symbol.length
                    tokens.append(token(.symbol(ScenarioSymbol(packed: symbol.bytes))))
                    matched = true
                    break
                }
            }
            if !matched {
                let (scalar, length) = Bytes.scalar(at: i, in: bytes)
                problem("unexpected character '\(Character(scalar))'", at: start)
                i += length
            }
        }
        tokens.append(ScenarioToken(kind: .newline, start: count, end: count, line: lineNumber, column: Int32(count - lineStart + 1)))
        tokens.append(ScenarioToken(kind: .end, start: count, end: count, line: lineNumber, column: 1))
        // Columns count Unicode scalars: where the text is not all ASCII, each token's is counted
        // again from its line's start.
        if bytes.contains(where: { $0 >= 0x80 }) {
            for index in tokens.indices where tokens[index].kind != .end {
                let token = tokens[index]
                tokens[index].column = column(of: Int(token.start), lineStart: Int(lineStarts[Int(token.line) - 1]), in: bytes)
            }
        }
        return Lexed(source: bytes, tokens: tokens, problems: problems, lineStarts: lineStarts)
    }

    /// The column of `index`: the Unicode scalars from `lineStart` to it, plus one.
    private static func column(of index: Int, lineStart: Int, in bytes: [UInt8]) -> Int32 {
        Int32(bytes[lineStart..<index].count { $0 & 0xC0 != 0x80 } + 1)
    }

    private static func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
    private static func isASCIILetter(_ b: UInt8) -> Bool { (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) }
    private static func isHexDigit(_ b: UInt8) -> Bool { isDigit(b) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66) }

    /// The length of the letter at `index` (an ASCII letter, or an alphabetic scalar), or nil.
    private static func letterLength(_ bytes: [UInt8], at index: Int) -> Int? {
        let byte = bytes[index]
        if byte < 0x80 { return isASCIILetter(byte) ? 1 : nil }
        let (scalar, length) = Bytes.scalar(at: index, in: bytes)
        return scalar.properties.isAlphabetic ? length : nil
    }

    /// The length of what may continue a name at `index`: a letter, a digit, `_`, a number or a
    /// combining mark; nil for anything else.
    private static func nameContinuationLength(_ bytes: [UInt8], at index: Int) -> Int? {
        let byte = bytes[index]
        if byte < 0x80 { return isASCIILetter(byte) || isDigit(byte) || byte == 0x5F ? 1 : nil }
        let (scalar, length) = Bytes.scalar(at: index, in: bytes)
        let properties = scalar.properties
        switch properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: return length
        default: return properties.isAlphabetic || properties.numericType != nil ? length : nil
        }
    }
}

