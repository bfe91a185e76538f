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
/// byte lowest, as the byte lexer matches them. The parser asks "is this `{`?" for nearly every
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

    /// A symbol for the byte lexer: its bytes packed into an integer, first byte lowest (every
    /// symbol is one to three bytes) as `ScenarioSymbol` holds them, and its length.
    struct PackedSymbol {
        var bytes: UInt32
        var length: Int
    }

    /// The symbols grouped by first byte, each group in `symbols`' order (longest first), and for
    /// each first byte its group's range: the byte lexer tries those alone. Flat tables of plain
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

    static func tokenize(_ text: String) -> (tokens: [ScenarioToken], problems: [Problem]) {
        if let bytes = asciiBytes(text) { return tokenizeASCII(bytes) }
        return tokenizeCharacters(text)
    }

    /// The text's bytes when it is ASCII without carriage returns: then every byte is one
    /// Character (a "\r\n" pair would be one) and the byte lexer gives exactly the tokens, columns
    /// and problems of the Character one. Nil otherwise.
    static func asciiBytes(_ text: String) -> [UInt8]? {
        let bytes = Array(text.utf8)
        return bytes.allSatisfy({ $0 < 0x80 && $0 != 0x0D }) ? bytes : nil
    }

    /// The UTF-8 offset at which each of `lines(text)` starts. Without a carriage return every
    /// "\n" byte is a "\n" Character (only "\r\n" joins a line feed to another character), so
    /// the starts are found in the bytes; with one, from the lines themselves.
    static func lineStarts(_ text: String) -> [Int32] {
        var starts: [Int32] = [0]
        var offset: Int32 = 0
        var carriageReturn = false
        for byte in text.utf8 {
            offset += 1
            if byte == 0x0A { starts.append(offset) } else if byte == 0x0D { carriageReturn = true; break }
        }
        if !carriageReturn { return starts }
        offset = 0
        return lines(text).map { line in
            defer { offset += Int32(line.utf8.count) + 1 }
            return offset
        }
    }

    /// The text's lines, as `text.split(separator: "\n", omittingEmptySubsequences: false)` gives them.
    static func lines(_ text: String) -> [String] {
        guard let bytes = asciiBytes(text) else {
            return text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        }
        return bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
    }

    private static func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
    private static func isLetter(_ b: UInt8) -> Bool { (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) }
    private static func isHexDigit(_ b: UInt8) -> Bool { isDigit(b) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66) }

    /// `tokenizeCharacters` for ASCII text without "\r", on bytes (see `asciiBytes`).
    static func tokenizeASCII(_ bytes: [UInt8]) -> (tokens: [ScenarioToken], problems: [Problem]) {
        var tokens: [ScenarioToken] = []
        tokens.reserveCapacity(bytes.count / 3)
        var problems: [Problem] = []
        var lineNumber: Int32 = 0
        var lineStart = 0
        let packedSymbols = Self.packedSymbols
        let symbolGroups = Self.symbolGroups
        func string(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }
        while lineStart <= bytes.count {
            lineNumber += 1
            let end = bytes[lineStart...].firstIndex(of: 0x0A) ?? bytes.count
            var i = lineStart
            func column(_ index: Int) -> Int32 { Int32(index - lineStart + 1) }
            while i < end {
                let c = bytes[i]
                if c == 0x20 || c == 0x09 { i += 1; continue }
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
                    while i < end, isLetter(bytes[i]) { i += 1 }
                    if i > unitStart { unit = string(unitStart..<i) }
                    tokens.append(ScenarioToken(kind: .number(Double(digits) ?? 0, unit: unit), line: lineNumber, column: column(start)))
                    continue
                }
                if isLetter(c) || c == 0x5F && i + 1 < end && (isLetter(bytes[i + 1]) || isDigit(bytes[i + 1])) {
                    while i < end, isLetter(bytes[i]) || isDigit(bytes[i]) || bytes[i] == 0x5F { i += 1 }
                    tokens.append(ScenarioToken(kind: .identifier(string(start..<i)), line: lineNumber, column: column(start)))
                    continue
                }
                var matched = false
                // The next three bytes (fewer at the line's end), packed as the symbols are.
                var next = UInt32(c)
                if i + 1 < end { next |= UInt32(bytes[i + 1]) << 8 }
                if i + 2 < end { next |= UInt32(bytes[i + 2]) << 16 }
                for position in symbolGroups[Int(c & 0x7F)] {
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
                    problems.append(Problem(message: "unexpected character '\(Character(Unicode.Scalar(c)))'", line: lineNumber, column: column(start)))
                    i += 1
                }
            }
            tokens.append(ScenarioToken(kind: .newline, line: lineNumber, column: Int32(end - lineStart + 1)))
            lineStart = end + 1
        }
        tokens.append(ScenarioToken(kind: .end, line: max(1, lineNumber), column: 1))
        return (tokens, problems)
    }

    /// The general lexer, on Characters (any Unicode text).
    static func tokenizeCharacters(_ text: String) -> (tokens: [ScenarioToken], problems: [Problem]) {
        var tokens: [ScenarioToken] = []
        var problems: [Problem] = []
        var lineNumber: Int32 = 0
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            let chars = Array(rawLine)
            var i = 0
            func column(_ index: Int) -> Int32 { Int32(index + 1) }
            while i < chars.count {
                let c = chars[i]
                if c == " " || c == "\t" || c == "\r" { i += 1; continue }
                if c == "/" && i + 1 < chars.count && chars[i + 1] == "/" { break }
                let start = i
                if c == "\"" {
                    var value = ""
                    i += 1
                    var closed = false
                    while i < chars.count {
                        if chars[i] == "\\" && i + 1 < chars.count { value.append(chars[i + 1]); i += 2; continue }
                        if chars[i] == "\"" { closed = true; i += 1; break }
                        value.append(chars[i]); i += 1
                    }
                    if !closed {
                        problems.append(Problem(message: "this string has no closing quote", line: lineNumber, column: column(start)))
                    }
                    tokens.append(ScenarioToken(kind: .string(value), line: lineNumber, column: column(start)))
                    continue
                }
                if c == "0" && i + 1 < chars.count && (chars[i + 1] == "x" || chars[i + 1] == "X") {
                    i += 2
                    while i < chars.count, chars[i].isHexDigit { i += 1 }
                    tokens.append(ScenarioToken(kind: .hex(String(chars[start..<i]).lowercased()), line: lineNumber, column: column(start)))
                    continue
                }
                if c.isASCII && c.isNumber {
                    while i < chars.count, chars[i].isASCII, chars[i].isNumber || chars[i] == "_" { i += 1 }
                    if i + 1 < chars.count, chars[i] == ".", chars[i + 1].isASCII, chars[i + 1].isNumber {
                        i += 1
                        while i < chars.count, chars[i].isASCII, chars[i].isNumber { i += 1 }
                    }
                    let digits = String(chars[start..<i]).replacingUnderscores()
                    var unit: String?
                    let unitStart = i
                    while i < chars.count, chars[i].isLetter { i += 1 }
                    if i > unitStart { unit = String(chars[unitStart..<i]) }
                    tokens.append(ScenarioToken(kind: .number(Double(digits) ?? 0, unit: unit), line: lineNumber, column: column(start)))
                    continue
                }
                if c.isLetter || c == "_" && i + 1 < chars.count && (chars[i + 1].isLetter || chars[i + 1].isNumber) {
                    while i < chars.count, chars[i].isLetter || chars[i].isNumber || chars[i] == "_" { i += 1 }
                    tokens.append(ScenarioToken(kind: .identifier(String(chars[start..<i])), line: lineNumber, column: column(start)))
                    continue
                }
                var matched = false
                for symbol in symbols {
                    let symbolChars = Array(symbol)
                    if i + symbolChars.count <= chars.count, Array(chars[i..<(i + symbolChars.count)]) == symbolChars {
                        tokens.append(ScenarioToken(kind: .symbol(ScenarioSymbol(symbol)), line: lineNumber, column: column(start)))
                        i += symbolChars.count
                        matched = true
                        break
                    }
                }
                if !matched {
                    problems.append(Problem(message: "unexpected character '\(c)'", line: lineNumber, column: column(start)))
                    i += 1
                }
            }
            tokens.append(ScenarioToken(kind: .newline, line: lineNumber, column: Int32(chars.count + 1)))
        }
        tokens.append(ScenarioToken(kind: .end, line: max(1, lineNumber), column: 1))
        return (tokens, problems)
    }
}

private extension String {
    func replacingUnderscores() -> String { filter { $0 != "_" } }
}
