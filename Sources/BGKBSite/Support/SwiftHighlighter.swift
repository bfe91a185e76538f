import BGKBModel

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

    /// `range`: where the token lies in the code's UTF-8 bytes.
    struct Token: Equatable, Sendable {
        var kind: Kind
        var range: Range<Int>
    }

    /// Code cut into tokens: its UTF-8 bytes and the tokens in order, which cover the bytes end
    /// to end. A token's text is read from the bytes where it lies, never made a String.
    struct TokenizedCode {
        let bytes: [UInt8]
        let tokens: [Token]

        func text(_ token: Token) -> ArraySlice<UInt8> { bytes[token.range] }
    }

    static let keywords: Set<String> = [
        "actor", "as", "async", "await", "break", "case", "catch", "class", "continue", "default", "defer", "do",
        "else", "enum", "extension", "fallthrough", "false", "final", "for", "func", "guard", "if", "import", "in",
        "init", "inout", "internal", "is", "let", "nil", "nonisolated", "private", "protocol", "public", "repeat",
        "return", "self", "Self", "static", "struct", "super", "switch", "throw", "throws", "true", "try", "var",
        "weak", "where", "while", "fileprivate", "open", "override", "lazy", "unowned", "some", "any",
    ]

    /// The keywords' UTF-8 by length (`keywordsByLength[n]` holds those of n bytes): a name is
    /// compared in place with the few keywords of its length.
    static let keywordsByLength: [[[UInt8]]] = {
        var table = Array(repeating: [[UInt8]](), count: (keywords.map(\.utf8.count).max() ?? 0) + 1)
        for keyword in keywords.sorted() { table[keyword.utf8.count].append(Array(keyword.utf8)) }
        return table
    }()

    static func isKeyword(_ name: ArraySlice<UInt8>) -> Bool {
        name.count < keywordsByLength.count && keywordsByLength[name.count].contains { $0.elementsEqual(name) }
    }

    /// The code cut into tokens; joined, their texts give back `code` exactly. It walks the
    /// UTF-8 bytes: every character it looks for is ASCII, and a byte of a longer scalar never
    /// equals one; a scalar beyond ASCII is decoded only where a letter is asked about.
    static func tokens(_ code: String) -> TokenizedCode {
        let bytes = Array(code.utf8)
        let count = bytes.count
        /// The scalar starting at byte `index`, and how many bytes it takes.
        func scalar(at index: Int) -> (scalar: Unicode.Scalar, length: Int) {
            bytes[index] < 0x80 ? (Unicode.Scalar(bytes[index]), 1) : Bytes.scalar(at: index, in: bytes)
        }
        /// Whether the scalar ending just before byte `index` can be part of a name.
        func identifierPartBefore(_ index: Int) -> Bool {
            var start = index - 1
            while start > 0, bytes[start] & 0xC0 == 0x80 { start -= 1 }
            return isIdentifierPart(scalar(at: start).scalar)
        }
        /// Where the run of name scalars starting at byte `index` ends.
        func endOfName(from index: Int) -> Int {
            var j = index
            while j < count {
                let (c, length) = scalar(at: j)
                guard isIdentifierPart(c) else { break }
                j += length
            }
            return j
        }
        var result: [Token] = []
        // Room for a token every eight bytes, about twice what examples have.
        result.reserveCapacity(count / 8)
        // Plain text is whatever lies between two other tokens: it starts where the last one ended.
        var plainStart = 0
        func emit(_ kind: Kind, _ range: Range<Int>) {
            if plainStart < range.lowerBound { result.append(Token(kind: .plain, range: plainStart..<range.lowerBound)) }
            result.append(Token(kind: kind, range: range))
            plainStart = range.upperBound
        }
        /// Whether only spaces stand between the start of the line and `index`.
        func startsLine(_ index: Int) -> Bool {
            var j = index - 1
            while j >= 0, bytes[j] == UInt8(ascii: " ") || bytes[j] == UInt8(ascii: "\t") { j -= 1 }
            return j < 0 || bytes[j] == UInt8(ascii: "\n")
        }
        var i = 0
        while i < count {
            // Spaces and line breaks, most of the plain text, start no token.
            if bytes[i] == UInt8(ascii: " ") || bytes[i] == UInt8(ascii: "\n") {
                i += 1
                continue
            }
            let (c, length) = scalar(at: i)
            let next: UInt8? = i + 1 < count ? bytes[i + 1] : nil
            if c == "/", next == UInt8(ascii: "/") {
                var j = i
                while j < count, bytes[j] != UInt8(ascii: "\n") { j += 1 }
                emit(.comment, i..<j); i = j
            } else if c == "/", next == UInt8(ascii: "*") {
                var j = i + 2
                while j < count, !(bytes[j] == UInt8(ascii: "*") && j + 1 < count && bytes[j + 1] == UInt8(ascii: "/")) { j += 1 }
                j = min(count, j + 2)
                emit(.comment, i..<j); i = j
            } else if c == "\"" {
                // After a backslash the next byte is skipped: when it starts a longer scalar, the
                // bytes after it are neither a quote nor a line break, so the string ends where it would.
                var j = i + 1
                while j < count, bytes[j] != UInt8(ascii: "\""), bytes[j] != UInt8(ascii: "\n") {
                    j += bytes[j] == UInt8(ascii: "\\") ? 2 : 1
                }
                j = min(count, j + 1)
                emit(.string, i..<j); i = j
            } else if isDigit(c), !(i > 0 && identifierPartBefore(i)) {
                var j = i
                while j < count {
                    let (d, width) = scalar(at: j)
                    if isIdentifierPart(d) {
                        j += width
                    } else if d == ".", j + 1 < count, isDigit(Unicode.Scalar(bytes[j + 1])) {
                        j += 1
                    } else {
                        break
                    }
                }
                emit(.number, i..<j); i = j
            } else if c == "@", i + 1 < count, isIdentifierStart(scalar(at: i + 1).scalar) {
                let j = endOfName(from: i + 1)
                emit(.attribute, i..<j); i = j
            } else if isIdentifierStart(c) {
                let j = endOfName(from: i)
                let word = bytes[i..<j]
                let afterDot = i > 0 && bytes[i - 1] == UInt8(ascii: ".")
                if (Bytes.equals(word, "work") || Bytes.equals(word, "on")) && startsLine(i) && j < count && bytes[j] == UInt8(ascii: " ") {
                    // `work 10s` and `on event {`: the duration is part of the simulator's word.
                    let k = endOfName(from: j + 1)
                    emit(.simulated, i..<k); i = k
                    continue
                }
                if !afterDot && isKeyword(word) {
                    emit(.keyword, i..<j)
                } else if c.isASCII ? ("A"..."Z").contains(c) : c.properties.isUppercase {
                    emit(.type, i..<j)
                }
                i = j
            } else {
                i += length
            }
        }
        if plainStart < count { result.append(Token(kind: .plain, range: plainStart..<count)) }
        return TokenizedCode(bytes: bytes, tokens: result)
    }

    /// The code as highlighted HTML: plain text escaped, each other token in a span.
    static func write(_ code: String, into w: inout HTMLWriter) {
        write(tokens(code), into: &w)
    }

    /// Code already cut, written as `write(_:into:)` writes code.
    static func write(_ code: TokenizedCode, into w: inout HTMLWriter) {
        for token in code.tokens {
            switch token.kind {
            case .plain: w.text(code.text(token)); continue
            case .keyword: w.markup("<span class=\"hl-kw\">")
            case .string: w.markup("<span class=\"hl-str\">")
            case .comment: w.markup("<span class=\"hl-com\">")
            case .number: w.markup("<span class=\"hl-num\">")
            case .type: w.markup("<span class=\"hl-type\">")
            case .attribute: w.markup("<span class=\"hl-attr\">")
            case .simulated: w.markup("<span class=\"hl-sim\">")
            }
            w.text(code.text(token))
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
