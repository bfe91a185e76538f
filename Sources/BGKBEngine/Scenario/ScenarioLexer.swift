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
        case symbol(String)
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
        case let .symbol(text): return text
        case .newline: return "end of line"
        case .end: return "end of scenario"
        }
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

    static func tokenize(_ text: String) -> (tokens: [ScenarioToken], problems: [Problem]) {
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
                        tokens.append(ScenarioToken(kind: .symbol(symbol), line: lineNumber, column: column(start)))
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
