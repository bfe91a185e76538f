/// A small Swift highlighter for the code on rule pages, run when the site is built (no script in
/// the browser): keywords, strings, comments, numbers, type names and attributes get a class each;
/// everything else is plain text. It reads Swift as a reader does, not as a compiler: enough to
/// colour an example, never to judge it. The scenario language's two words that are not Swift
/// (`work 10s`, `on event { }`) are marked as such, so a page can explain them.
enum SwiftHighlighter {
    enum Kind: String, Sendable, Equatable {
        case plain, keyword, string, comment, number, type, attribute
        /// `work 10s` and `on applicationDidEnterBackground`: the simulator's words, not Swift.
        case simulated
    }

    struct Token: Equatable, Sendable {
        var kind: Kind
        var text: String
    }

    static let keywords: Set<String> = [
        "actor", "as", "async", "await", "break", "case", "catch", "class", "continue", "default", "defer", "do",
        "else", "enum", "extension", "fallthrough", "false", "final", "for", "func", "guard", "if", "import", "in",
        "init", "inout", "internal", "is", "let", "nil", "nonisolated", "private", "protocol", "public", "repeat",
        "return", "self", "Self", "static", "struct", "super", "switch", "throw", "throws", "true", "try", "var",
        "weak", "where", "while", "fileprivate", "open", "override", "lazy", "unowned", "some", "any",
    ]

    /// The code cut into tokens; joined, their texts give back `code` exactly.
    static func tokens(_ code: String) -> [Token] {
        let scalars = Array(code.unicodeScalars)
        // Where each scalar starts in the UTF-8 bytes (and where the last ends): a token's text
        // is then one slice of the bytes, not scalars appended one by one.
        let bytes = Array(code.utf8)
        var offsets: [Int] = []
        offsets.reserveCapacity(scalars.count + 1)
        var offset = 0
        for scalar in scalars {
            offsets.append(offset)
            offset += UTF8.width(scalar)
        }
        offsets.append(offset)
        func text(_ range: Range<Int>) -> String {
            String(decoding: bytes[offsets[range.lowerBound]..<offsets[range.upperBound]], as: UTF8.self)
        }
        var result: [Token] = []
        // Plain text is whatever lies between two other tokens: it starts where the last one ended.
        var plainStart = 0
        func flush(upTo end: Int) {
            if plainStart < end { result.append(Token(kind: .plain, text: text(plainStart..<end))) }
        }
        func emit(_ kind: Kind, _ range: Range<Int>) {
            flush(upTo: range.lowerBound)
            result.append(Token(kind: kind, text: text(range)))
            plainStart = range.upperBound
        }
        /// Whether only spaces stand between the start of the line and `index`.
        func startsLine(_ index: Int) -> Bool {
            var j = index - 1
            while j >= 0, scalars[j] == " " || scalars[j] == "\t" { j -= 1 }
            return j < 0 || scalars[j] == "\n"
        }
        var i = 0
        while i < scalars.count {
            let c = scalars[i]
            let next = i + 1 < scalars.count ? scalars[i + 1] : nil
            if c == "/", next == "/" {
                var j = i
                while j < scalars.count, scalars[j] != "\n" { j += 1 }
                emit(.comment, i..<j); i = j
            } else if c == "/", next == "*" {
                var j = i + 2
                while j < scalars.count, !(scalars[j] == "*" && j + 1 < scalars.count && scalars[j + 1] == "/") { j += 1 }
                j = min(scalars.count, j + 2)
                emit(.comment, i..<j); i = j
            } else if c == "\"" {
                var j = i + 1
                while j < scalars.count, scalars[j] != "\"", scalars[j] != "\n" {
                    j += scalars[j] == "\\" ? 2 : 1
                }
                j = min(scalars.count, j + 1)
                emit(.string, i..<j); i = j
            } else if isDigit(c), !(i > 0 && isIdentifierPart(scalars[i - 1])) {
                var j = i
                while j < scalars.count, isIdentifierPart(scalars[j]) || (scalars[j] == "." && j + 1 < scalars.count && isDigit(scalars[j + 1])) {
                    j += 1
                }
                emit(.number, i..<j); i = j
            } else if c == "@", next.map(isIdentifierStart) == true {
                var j = i + 1
                while j < scalars.count, isIdentifierPart(scalars[j]) { j += 1 }
                emit(.attribute, i..<j); i = j
            } else if isIdentifierStart(c) {
                var j = i
                while j < scalars.count, isIdentifierPart(scalars[j]) { j += 1 }
                let word = text(i..<j)
                let afterDot = i > 0 && scalars[i - 1] == "."
                if (word == "work" || word == "on") && startsLine(i) && j < scalars.count && scalars[j] == " " {
                    // `work 10s` and `on event {`: the duration is part of the simulator's word.
                    var k = j + 1
                    while k < scalars.count, isIdentifierPart(scalars[k]) { k += 1 }
                    emit(.simulated, i..<k); i = k
                    continue
                }
                if !afterDot && keywords.contains(word) {
                    emit(.keyword, i..<j)
                } else if c.isASCII ? ("A"..."Z").contains(c) : c.properties.isUppercase {
                    emit(.type, i..<j)
                }
                i = j
            } else {
                i += 1
            }
        }
        flush(upTo: scalars.count)
        return result
    }

    /// The code as highlighted HTML: plain text escaped, each other token in a span.
    static func write(_ code: String, into w: inout HTMLWriter) {
        write(tokens(code), into: &w)
    }

    /// Tokens already cut, written as `write(_:into:)` writes code.
    static func write(_ tokens: [Token], into w: inout HTMLWriter) {
        for token in tokens {
            switch token.kind {
            case .plain: w.text(token.text); continue
            case .keyword: w.markup("<span class=\"hl-kw\">")
            case .string: w.markup("<span class=\"hl-str\">")
            case .comment: w.markup("<span class=\"hl-com\">")
            case .number: w.markup("<span class=\"hl-num\">")
            case .type: w.markup("<span class=\"hl-type\">")
            case .attribute: w.markup("<span class=\"hl-attr\">")
            case .simulated: w.markup("<span class=\"hl-sim\">")
            }
            w.text(token.text)
            w.markup("</span>")
        }
    }

    /// An ASCII digit: the only digits a number literal starts with.
    private static func isDigit(_ c: Unicode.Scalar) -> Bool { ("0"..."9").contains(c) }

    /// A letter: ASCII answered directly (nearly all code), anything else by its Unicode property.
    private static func isLetter(_ c: Unicode.Scalar) -> Bool {
        c.isASCII ? ("a"..."z").contains(c) || ("A"..."Z").contains(c) : c.properties.isAlphabetic
    }

    private static func isIdentifierStart(_ c: Unicode.Scalar) -> Bool {
        c == "_" || isLetter(c)
    }

    private static func isIdentifierPart(_ c: Unicode.Scalar) -> Bool {
        c == "_" || isLetter(c) || isDigit(c)
    }
}
