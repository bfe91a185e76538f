import BGKBModel

/// Splits scenario text into tokens with their line and column. Newlines are tokens because a
/// statement ends at the end of its line, as in Swift.
struct ScenarioToken: Sendable, Hashable {
    enum Kind: Sendable, Hashable {
        case identifier(String)
        /// A number, with the unit written right after it (`10s`, `500ms`), if any.
        case number(Double, unit: String?)
        case string(String)
        /// `0x8badf00d`.
        case hex(String)
        case symbol(ScenarioSymbol)
        case newline
        case end
    }
    var kind: Kind
    var line: Int32
    var column: Int32

    var text: String {
        switch kind {
        case let .identifier(name): return name
        case let .number(value, unit): return formatNumber(value) + (unit ?? "")
        case let .string(text): return "\"\(text)\""
        case let .hex(text): return text
        case let .symbol(symbol): return symbol.text
        case .newline: return "end of line"
        case .end: return "end of scenario"
        }
    }
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

    /// What the lexer makes of a text: its tokens, the problems found, and the UTF-8 offset at
    /// which each line (each run up to a line feed) starts.
    struct Lexed {
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
        var tokens: [ScenarioToken] = []
        tokens.reserveCapacity(bytes.count / 3)
        var problems: [Problem] = []
        var lineStarts: [Int32] = []
        var lineNumber: Int32 = 0
        var lineStart = 0
        let packedSymbols = Self.packedSymbols
        let symbolGroups = Self.symbolGroups
        func string(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }
        while lineStart <= bytes.count {
            lineNumber += 1
            lineStarts.append(Int32(lineStart))
            let end = bytes[lineStart...].firstIndex(of: 0x0A) ?? bytes.count
            let lineIsASCII = !bytes[lineStart..<end].contains { $0 >= 0x80 }
            let lineFirst = lineStart
            func column(_ index: Int) -> Int32 {
                if lineIsASCII { return Int32(index - lineFirst + 1) }
                return Int32(bytes[lineFirst..<index].count { $0 & 0xC0 != 0x80 } + 1)
            }
            var i = lineStart
            while i < end {
                let c = bytes[i]
                if c == 0x20 || c == 0x09 || c == 0x0D { i += 1; continue }
                if c == 0x2F && i + 1 < end && bytes[i + 1] == 0x2F { break }
                let start = i
                if c == 0x22 {
                    var value: [UInt8] = []
                    i += 1
                    var closed = false
                    while i < end {
                        if bytes[i] == 0x5C && i + 1 < end { value.append(bytes[i + 1]); i += 2; continue }
                        if bytes[i] == 0x22 { closed = true; i += 1; break }
                        value.append(bytes[i]); i += 1
                    }
                    if !closed {
                        problems.append(Problem(message: "this string has no closing quote", line: lineNumber, column: column(start)))
                    }
                    tokens.append(ScenarioToken(kind: .string(String(decoding: value, as: UTF8.self)), line: lineNumber, column: column(start)))
                    continue
                }
                if c == 0x30 && i + 1 < end && (bytes[i + 1] == 0x78 || bytes[i + 1] == 0x58) {
                    i += 2
                    while i < end, isHexDigit(bytes[i]) { i += 1 }
                    tokens.append(ScenarioToken(kind: .hex(string(start..<i).lowercased()), line: lineNumber, column: column(start)))
                    continue
                }
                if isDigit(c) {
                    while i < end, isDigit(bytes[i]) || bytes[i] == 0x5F { i += 1 }
                    if i + 1 < end, bytes[i] == 0x2E, isDigit(bytes[i + 1]) {
                        i += 1
                        while i < end, isDigit(bytes[i]) { i += 1 }
                    }
                    let digits = String(decoding: bytes[start..<i].filter { $0 != 0x5F }, as: UTF8.self)
                    var unit: String?
                    let unitStart = i
                    while i < end, let length = letterLength(bytes, at: i) { i += length }
                    if i > unitStart { unit = string(unitStart..<i) }
                    tokens.append(ScenarioToken(kind: .number(Double(digits) ?? 0, unit: unit), line: lineNumber, column: column(start)))
                    continue
                }
                let startsName = letterLength(bytes, at: i) != nil
                    || c == 0x5F && i + 1 < end && nameContinuationLength(bytes, at: i + 1) != nil
                if startsName {
                    while i < end, let length = nameContinuationLength(bytes, at: i) { i += length }
                    tokens.append(ScenarioToken(kind: .identifier(string(start..<i)), line: lineNumber, column: column(start)))
                    continue
                }
                var matched = false
                // The next three bytes (fewer at the line's end), packed as the symbols are.
                var next = UInt32(c)
                if i + 1 < end { next |= UInt32(bytes[i + 1]) << 8 }
                if i + 2 < end { next |= UInt32(bytes[i + 2]) << 16 }
                for position in symbolGroups[Int(c & 0x7F)] where c < 0x80 {
                    let symbol = packedSymbols[position]
                    let mask: UInt32 = symbol.length == 3 ? 0xFF_FFFF : symbol.length == 2 ? 0xFFFF : 0xFF
                    if i + symbol.length <= end, next & mask == symbol.bytes {
                        tokens.append(ScenarioToken(kind: .symbol(ScenarioSymbol(packed: symbol.bytes)), line: lineNumber, column: column(start)))
                        i += symbol.length
                        matched = true
                        break
                    }
                }
                if !matched {
                    let (scalar, length) = Bytes.scalar(at: i, in: bytes)
                    problems.append(Problem(message: "unexpected character '\(Character(scalar))'", line: lineNumber, column: column(start)))
                    i += length
                }
            }
            tokens.append(ScenarioToken(kind: .newline, line: lineNumber, column: column(end)))
            lineStart = end + 1
        }
        tokens.append(ScenarioToken(kind: .end, line: max(1, lineNumber), column: 1))
        return Lexed(tokens: tokens, problems: problems, lineStarts: lineStarts)
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

