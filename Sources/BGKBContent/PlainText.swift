import BGKBModel
import Foundation

/// What the pipeline reads out of a point's plain text when no annotation says otherwise. It works
/// on text that cmark has already stripped of markup, word by word: never on Markdown source.
enum PlainText {
    /// The first sentence: up to the first `.`, `!` or `?` followed by a space and a capital, digit or
    /// opening quote, or by the end. Dots inside words (`UIApplication.shared`, `e.g.`) do not end it.
    static func firstSentence(_ text: String) -> String {
        firstSentenceASCII(text) ?? firstSentenceByCharacter(text)
    }

    static func firstSentenceByCharacter(_ text: String) -> String {
        let characters = Array(text)
        var index = 0
        while index < characters.count {
            let character = characters[index]
            if character == "\n" && index + 1 < characters.count && characters[index + 1] == "\n" { break }
            if character == "." || character == "!" || character == "?" {
                let next = index + 1 < characters.count ? characters[index + 1] : nil
                if next == nil { return String(characters[...index]).trimmed }
                if let next, next == " " || next == "\n" {
                    let after = index + 2 < characters.count ? characters[index + 2] : nil
                    // The last word before the mark (what splitting the text so far at spaces and line breaks ends with).
                    var wordEnd = index
                    while wordEnd > 0, characters[wordEnd - 1] == " " || characters[wordEnd - 1] == "\n" { wordEnd -= 1 }
                    var wordStart = wordEnd
                    while wordStart > 0, characters[wordStart - 1] != " ", characters[wordStart - 1] != "\n" { wordStart -= 1 }
                    let wordBefore = String(characters[wordStart..<wordEnd])
                    let abbreviation = ["e.g", "i.e", "etc", "vs", "cf", "approx"].contains(wordBefore.lowercased())
                    if !abbreviation, after == nil || after!.isUppercase || after!.isNumber || "“\"‘'(`*".contains(after!) {
                        return String(characters[...index]).trimmed
                    }
                }
            }
            index += 1
        }
        return String(characters[..<index]).trimmed
    }

    /// `firstSentence` by bytes, for ASCII text without `\r` (where every byte is a Character and
    /// isUppercase and isNumber mean A-Z and 0-9); nil for any other text. Building the
    /// Character array of a whole rule cost a seventh of the lint at 1,000 rules.
    static func firstSentenceASCII(_ text: String) -> String? {
        var text = text
        return text.withUTF8 { bytes -> String? in
            guard bytes.isASCIIWithoutCarriageReturn else { return nil }
            func string(_ range: Range<Int>) -> String {
                String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self).trimmed
            }
            let space = UInt8(ascii: " "), newline = UInt8(ascii: "\n")
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                if byte == newline && index + 1 < bytes.count && bytes[index + 1] == newline { break }
                if byte == UInt8(ascii: ".") || byte == UInt8(ascii: "!") || byte == UInt8(ascii: "?") {
                    guard index + 1 < bytes.count else { return string(0..<(index + 1)) }
                    let next = bytes[index + 1]
                    if next == space || next == newline {
                        let after: UInt8? = index + 2 < bytes.count ? bytes[index + 2] : nil
                        var wordEnd = index
                        while wordEnd > 0, bytes[wordEnd - 1] == space || bytes[wordEnd - 1] == newline { wordEnd -= 1 }
                        var wordStart = wordEnd
                        while wordStart > 0, bytes[wordStart - 1] != space, bytes[wordStart - 1] != newline { wordStart -= 1 }
                        let wordBefore = String(decoding: UnsafeBufferPointer(rebasing: bytes[wordStart..<wordEnd]), as: UTF8.self)
                        let abbreviation = ["e.g", "i.e", "etc", "vs", "cf", "approx"].contains(wordBefore.lowercased())
                        let opensSentence = after.map { a in
                            (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(a) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(a)
                                || "\"'(`*".utf8.contains(a)
                        } ?? true
                        if !abbreviation, opensSentence { return string(0..<(index + 1)) }
                    }
                }
                index += 1
            }
            return string(0..<index)
        }
    }

    /// `text.contains(keyword)` as Foundation answers it, by bytes where that cannot differ: an
    /// ASCII keyword (without `;` or `` ` ``, which Greek code points are canonically equivalent to)
    /// found with ASCII on both sides is a match for Foundation too, and not found is not found.
    /// A match next to other text is left to Foundation (it keeps combining sequences whole).
    static func contains(_ text: String, _ keyword: String) -> Bool {
        let needle = Array(keyword.utf8)
        guard !needle.isEmpty, needle.allSatisfy({ $0 < 0x80 && $0 != UInt8(ascii: ";") && $0 != UInt8(ascii: "`") }) else {
            return text.contains(keyword)
        }
        let answer: Bool?? = text.utf8.withContiguousStorageIfAvailable { bytes -> Bool? in
            guard bytes.count >= needle.count else { return false }
            var index = 0
            while index <= bytes.count - needle.count {
                if bytes[index] == needle[0], bytes[index..<(index + needle.count)].elementsEqual(needle) {
                    let before = index > 0 ? bytes[index - 1] : 0
                    let after = index + needle.count < bytes.count ? bytes[index + needle.count] : 0
                    if before < 0x80 && after < 0x80 { return true }
                    return nil
                }
                index += 1
            }
            return false
        }
        if let answer, let known = answer { return known }
        return text.contains(keyword)
    }

    /// A title from a statement: at most about 72 characters, cut at a word, no final period.
    static func title(from statement: String) -> String {
        if let title = titleASCII(statement) { return title }
        return titleByCharacter(statement)
    }

    /// `titleByCharacter` over bytes, for ASCII statements without `\r`, where every byte is a
    /// Character (and `\n` one that `replacingNewlines` makes a space): counting Characters
    /// again for every word cost 36,000 instructions a long statement.
    static func titleASCII(_ statement: String) -> String? {
        var statement = statement
        return statement.withUTF8 { all -> String? in
            guard all.isASCIIWithoutCarriageReturn else { return nil }
            let space = UInt8(ascii: " ")
            func byte(_ index: Int) -> UInt8 { all[index] == UInt8(ascii: "\n") ? space : all[index] }
            var end = all.count
            while end > 0, ".:;,".utf8.contains(all[end - 1]) { end -= 1 }
            var result: [UInt8] = []
            result.reserveCapacity(min(end, 72) + 3)
            guard end > 72 else {
                for index in 0..<end { result.append(byte(index)) }
                return String(decoding: result, as: UTF8.self)
            }
            // Words split at runs of spaces; as many as fit in 70 characters, one space apart.
            var index = 0
            while index < end {
                while index < end, byte(index) == space { index += 1 }
                guard index < end else { break }
                let start = index
                while index < end, byte(index) != space { index += 1 }
                if result.count + (index - start) + 1 > 70 { break }
                if !result.isEmpty { result.append(space) }
                for position in start..<index { result.append(byte(position)) }
            }
            result.append(contentsOf: "…".utf8)
            return String(decoding: result, as: UTF8.self)
        }
    }

    static func titleByCharacter(_ statement: String) -> String {
        var text = statement.replacingNewlines
        while let last = text.last, ".:;,".contains(last) { text.removeLast() }
        guard text.count > 72 else { return text }
        var result = ""
        // At most 35 words fit in 70 characters (each is one or more plus a space), so splitting
        // off 36 is enough: splitting the whole statement cost 37 k instructions a long one.
        for word in text.split(separator: " ", maxSplits: 36) {
            if result.count + word.count + 1 > 70 { break }
            result += result.isEmpty ? String(word) : " " + word
        }
        return result + "…"
    }

    private static let stopWords: Set<String> = [
        "a", "an", "the", "to", "of", "and", "or", "is", "are", "be", "been", "you", "your", "it", "its", "that", "this",
        "in", "on", "for", "with", "by", "as", "at", "from", "can", "will", "any", "each", "every", "so", "if", "when",
        "note", "important", "warning", "which", "there", "their", "they", "them", "than", "then", "into", "about",
        "does", "do", "what", "has", "have", "was", "were", "but", "not", "only", "just", "also", "very", "more",
    ]

    /// A kebab-case id from the first significant words of a statement. Only the statement feeds it,
    /// so edits elsewhere in the document never change it.
    static func slug(_ statement: String, words count: Int = 5) -> String {
        var words: [String] = []
        var current = ""
        func flush() {
            if !current.isEmpty, !stopWords.contains(current) { words.append(current) }
            current = ""
        }
        for scalar in statement.lowercased().unicodeScalars {
            if scalar.isASCII, scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) {
                current.unicodeScalars.append(scalar)
            } else if scalar == "’" || scalar == "'" {
                continue
            } else {
                flush()
            }
            if words.count >= count { break }
        }
        flush()
        let slug = words.prefix(count).joined(separator: "-")
        return slug.isEmpty ? "point" : slug
    }

    /// The kind a statement's wording implies.
    static func kind(of statement: String) -> Rule.Kind {
        let text = " " + statement.lowercased().replacingNewlines + " "
        func has(_ phrases: [String]) -> Bool { phrases.contains { text.contains($0) } }
        if has([" must not ", " mustn’t ", " mustn't ", " never ", " do not ", " don’t ", " don't ", " cannot rely"]) { return .mustNot }
        if has([" must ", " always ", " need to ", " required ", " responsible for "]) { return .must }
        if has([" should not ", " shouldn’t ", " shouldn't ", " avoid ", " not a good idea"]) { return .shouldNot }
        if has([" should ", " recommend ", " best to ", " it’s best ", " make sense "]) { return .should }
        return .fact
    }

    /// Crash codes: `0x` followed by eight hex digits, as words.
    static func crashCodes(in text: String) -> [String] {
        // Most text has no `0x` at all: skip splitting it into words.
        guard text.utf8.containsPair(UInt8(ascii: "0"), UInt8(ascii: "x")) || text.utf8.containsPair(UInt8(ascii: "0"), UInt8(ascii: "X")) else { return [] }
        return wordSlices(text).compactMap { word in
            let lower = word.lowercased().trimmingCharacters(in: ".,;:()“”\"’'`")
            guard lower.hasPrefix("0x"), lower.count == 10, lower.dropFirst(2).allSatisfy(\.isHexDigit) else { return nil }
            return lower
        }.uniqued
    }

    /// API-shaped words in unformatted text: selectors such as `beginBackgroundTask(expirationHandler:)`
    /// and framework types such as `UIApplication`, `BGTaskScheduler`.
    static func apis(in text: String) -> [String] {
        (apiCandidatesByBytes(text) ?? apiCandidates(text)).compactMap { word -> String? in
            if let ascii = apiASCII(word) { return ascii }
            return apiByCharacter(word)
        }.uniqued
    }

    /// The words that can name an API: those with `(` or one of the prefixes (the rest are not
    /// trimmed or looked at further).
    static func apiCandidates(_ text: String) -> [Substring] {
        wordSlices(text, keeping: isAPICandidate)
    }

    private static func isAPICandidate(_ word: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        word.contains(UInt8(ascii: "(")) || word.containsAny(of: apiPrefixBytes)
    }

    /// `apiCandidates` by bytes, for text without `\r` whose spaces join no neighbour (nil
    /// otherwise, as `wordSlices` decides): one pass over the bytes by a class table, and the
    /// candidate test only for words holding `(` or the first letter of a prefix (U, B, N, D, P),
    /// which every candidate does. Splitting every word and testing each cost 60 k instructions a
    /// rule.
    static func apiCandidatesByBytes(_ text: String) -> [Substring]? {
        let ranges: [Range<Int>]?? = text.utf8.withContiguousStorageIfAvailable { bytes -> [Range<Int>]? in
            if let ranges = apiCandidateRangesASCII(bytes) { return ranges }
            return apiWordClasses.withUnsafeBufferPointer { classes -> [Range<Int>]? in
                var ranges: [Range<Int>] = []
                var wordStart = -1
                var flagged = false
                for index in bytes.indices {
                    switch classes[Int(bytes[index])] {
                    case 0:
                        if wordStart < 0 { wordStart = index }
                    case 1:
                        if bytes[index] == 0x20 {
                            // As `wordSlices`: a space next to a character that could join it
                            // sends the text to the Character split.
                            if index > 0, bytes[index - 1] >= 0x80, !safeNextToSpace(scalarEnding: index, in: text) { return nil }
                            if index + 1 < bytes.count, bytes[index + 1] >= 0x80, !safeNextToSpace(scalarAt: index + 1, in: text) { return nil }
                        }
                        if wordStart >= 0 {
                            if flagged && isAPICandidate(bytes[wordStart..<index]) { ranges.append(wordStart..<index) }
                            wordStart = -1
                            flagged = false
                        }
                    case 2:
                        if wordStart < 0 { wordStart = index }
                        flagged = true
                    default:
                        return nil
                    }
                }
                if wordStart >= 0, flagged, isAPICandidate(bytes[wordStart..<bytes.count]) { ranges.append(wordStart..<bytes.count) }
                return ranges
            }
        }
        guard let ranges, let words = ranges else { return nil }
        let utf8 = text.utf8
        return words.map { text[utf8.index(utf8.startIndex, offsetBy: $0.lowerBound)..<utf8.index(utf8.startIndex, offsetBy: $0.upperBound)] }
    }

    /// `apiCandidatesByBytes`' ranges for ASCII text without `\r` (nil for other text): eight
    /// bytes at a time to the next byte a candidate needs (`(`, a prefix's first), then out to
    /// that word's ends. Words without one are never delimited (the byte-class loop delimited
    /// every word: 20 instructions a byte).
    static func apiCandidateRangesASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> [Range<Int>]? {
        guard let base = bytes.baseAddress, bytes.isASCIIWithoutCarriageReturn else { return bytes.isEmpty ? [] : nil }
        @inline(__always) func isSeparator(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x09 }
        @inline(__always) func isFlagged(_ byte: UInt8) -> Bool {
            byte == 0x28 || byte == 0x55 || byte == 0x42 || byte == 0x4E || byte == 0x44 || byte == 0x50
        }
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        var ranges: [Range<Int>] = []
        let count = bytes.count
        var index = 0
        while index < count {
            if index + 8 <= count {
                let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                @inline(__always) func lanes(_ byte: UInt8) -> UInt64 {
                    let v = word ^ (ones &* UInt64(byte))
                    return (v &- ones) & ~v & highs
                }
                // `(`, U, B, N, D, P: the lowest marked lane is exact.
                let found = lanes(0x28) | lanes(0x55) | lanes(0x42) | lanes(0x4E) | lanes(0x44) | lanes(0x50)
                if found == 0 {
                    index += 8
                    continue
                }
                index += found.trailingZeroBitCount >> 3
            } else if !isFlagged(bytes[index]) {
                index += 1
                continue
            }
            var start = index
            while start > 0 && !isSeparator(bytes[start - 1]) { start -= 1 }
            var end = index + 1
            while end < count && !isSeparator(bytes[end]) { end += 1 }
            if isAPICandidate(bytes[start..<end]) { ranges.append(start..<end) }
            index = end
        }
        return ranges
    }

    /// For `apiCandidatesByBytes`, by byte: 0 a word's byte, 1 a separator (space, tab, line
    /// feed), 2 a byte a candidate word needs one of (`(`, a prefix's first), 3 a carriage return
    /// (the general path).
    private static let apiWordClasses: [UInt8] = (0..<256).map { byte -> UInt8 in
        switch byte {
        case 0x20, 0x0A, 0x09: return 1
        case 0x0D: return 3
        case 0x28: return 2
        default: return apiPrefixBytes.contains { $0.first == UInt8(byte) } ? 2 : 0
        }
    }

    static func apiByCharacter(_ word: Substring) -> String? {
        var word = word
        while let last = word.last, ".,;)”’\"'".contains(last), !word.hasSuffix(":)") { word = word.dropLast() }
        while let first = word.first, "(“‘\"'".contains(first) { word = word.dropFirst() }
        if word.contains("("), word.hasSuffix(")"), word.first?.isLetter == true { return String(word) }
        if let prefix = apiPrefixes.first(where: { word.hasPrefix($0) }), word.count > prefix.count + 2,
           word.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "." }),
           word.dropFirst(prefix.count).first?.isUppercase == true || prefix == "ProcessInfo" {
            return String(word)
        }
        return nil
    }

    private static let apiPrefixes = ["UI", "BG", "NS", "Dispatch", "ProcessInfo"]
    /// The prefixes' bytes, made once: read from the Strings, every upper-case byte of every word
    /// walked all five.
    private static let apiPrefixBytes = apiPrefixes.map { Array($0.utf8) }

    /// The `apis(in:)` test for one word, by bytes, when the word is ASCII (every byte a
    /// Character; isLetter, isNumber and isUppercase mean A-Za-z, 0-9 and A-Z there): `.some(nil)`
    /// when it is not an API, nil when the word is not ASCII and needs the Character path.
    /// The Character path cost 30,000 instructions a word.
    static func apiASCII(_ word: Substring) -> String?? {
        var word = word
        return word.withUTF8 { all -> String?? in
            guard !all.contains(where: { $0 >= 0x80 }) else { return nil }
            var start = 0, end = all.count
            func isLetter(_ b: UInt8) -> Bool { (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) }
            func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
            // Trailing `.,;)"'` (but not the `)` of `:)`), then leading `("'`.
            while end > start, ".,;)\"'".utf8.contains(all[end - 1]),
                  !(end - start >= 2 && all[end - 2] == UInt8(ascii: ":") && all[end - 1] == UInt8(ascii: ")")) {
                end -= 1
            }
            while start < end, "(\"'".utf8.contains(all[start]) { start += 1 }
            let bytes = UnsafeBufferPointer(rebasing: all[start..<end])
            let string = { String(decoding: bytes, as: UTF8.self) }
            if bytes.contains(UInt8(ascii: "(")), bytes.last == UInt8(ascii: ")"), let first = bytes.first, isLetter(first) {
                return .some(string())
            }
            for prefix in apiPrefixes where bytes.starts(with: prefix.utf8) {
                guard bytes.count > prefix.utf8.count + 2,
                      bytes.allSatisfy({ isLetter($0) || isDigit($0) || $0 == UInt8(ascii: ".") }) else { return .some(nil) }
                let next = bytes[prefix.utf8.count]
                return next >= 0x41 && next <= 0x5A || prefix == "ProcessInfo" ? .some(string()) : .some(nil)
            }
            return .some(nil)
        }
    }

    private static let unitWords: [String: StatedNumber.Unit] = [
        "ms": .milliseconds, "millisecond": .milliseconds, "milliseconds": .milliseconds,
        "s": .seconds, "sec": .seconds, "second": .seconds, "seconds": .seconds,
        "min": .minutes, "minute": .minutes, "minutes": .minutes,
        "h": .hours, "hour": .hours, "hours": .hours, "day": .days, "days": .days,
        "week": .weeks, "weeks": .weeks,
    ]
    private static let numberWords: [String: Double] = [
        "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
        "a": 1, "an": 1,
    ]
    /// Words after which a number names a version or a session, not a quantity.
    private static let notQuantities: Set<String> = ["ios", "ipados", "watchos", "macos", "tvos", "wwdc", "session", "thread", "version", "listing", "step"]

    private static let hedges: Set<String> = ["about", "around", "roughly", "approximately", "under", "within", "over", "than", "to", "most", "least", "for", "in", "just"]

    private static func hedgeBefore(_ tokens: [String], _ index: Int) -> String {
        index >= 1 ? tokens[index - 1].lowercased() : ""
    }

    /// Numbers with units and hedges (`about 30 seconds`, `less than a second`, `a few seconds`,
    /// `about 1000`), in the order they appear.
    static func numbers(in text: String, measures: String) -> [StatedNumber] {
        let tokens = words(text).map { $0.trimmingCharacters(in: ".,;:()“”\"’'") }
        let lowered = tokens.map { $0.lowercased() }   // each token is compared lower-cased, several times
        var result: [StatedNumber] = []
        var index = 0
        while index < tokens.count {
            let token = lowered[index]
            let previous = index > 0 ? lowered[index - 1] : ""
            var value: Double?
            var firmness = StatedNumber.Firmness.exact
            var consumed = 1
            if token == "few", previous == "a" {
                value = 3
                firmness = .vague
            } else if token.first?.isNumber == true, token.allSatisfy({ $0.isNumber || $0 == "," || $0 == "." }),
                      let number = Double(String(token.filter { $0 != "," })) {
                // Digits only: `Double("0x8badf00d")` would read a crash code as a hex float.
                value = number
            } else if let word = numberWords[token], index + 1 < tokens.count, unitWords[lowered[index + 1]] != nil,
                      word > 1 || Self.hedges.contains(previous) || Self.hedges.contains(hedgeBefore(tokens, index)) {
                // "less than a second" is a quantity; "a second call" is not.
                value = word
            } else if token.hasPrefix("~"), let number = Double(token.dropFirst()) {
                value = number
                firmness = .about
            }
            guard var number = value, !notQuantities.contains(previous) else { index += 1; continue }
            // A bare number of 1900–2100 with no unit is a year.
            let next = index + 1 < tokens.count ? lowered[index + 1] : ""
            var unit = unitWords[next]
            if unit != nil { consumed = 2 } else if next == "or", index + 3 < tokens.count, lowered[index + 2] == "so",
                                                       let later = unitWords[lowered[index + 3]] {
                unit = later
                consumed = 4
            }
            if unit == nil {
                if (1900...2100).contains(number) || number < 10 || token.contains(".") { index += 1; continue }
            }
            let hedge = (index >= 2 ? lowered[index - 2] + " " : "") + previous
            if firmness == .exact {
                if ["about", "around", "roughly", "approximately", "~"].contains(previous) { firmness = .about }
                else if ["less than", "up to", "at most", "no more than"].contains(where: { hedge.hasSuffix($0) }) || ["under", "within"].contains(previous) { firmness = .atMost }
                else if ["at least", "more than"].contains(where: { hedge.hasSuffix($0) }) || previous == "over" { firmness = .atLeast }
            }
            if number == 0 { number = 0 }
            result.append(StatedNumber(value: number, unit: unit ?? .count, firmness: firmness, guaranteed: false, measures: measures))
            index += consumed
        }
        return result
    }

    static func words(_ text: String) -> [String] {
        wordSlices(text).map(String.init)
    }

    /// The text split at spaces, tabs and line breaks (as characters). Splitting by byte gives the
    /// same words, far faster, unless a separator byte is part of a larger character: `\r\n`, or a
    /// space next to a combining mark or similar. Then it splits by character.
    /// `keeping` sees each word's bytes and says whether to return it (cheaper than a Substring).
    static func wordSlices(_ text: String, keeping: (Slice<UnsafeBufferPointer<UInt8>>) -> Bool = { _ in true }) -> [Substring] {
        // Byte offsets of the words, or nil when some separator byte may be part of a larger character.
        let ranges: [Range<Int>]?? = text.utf8.withContiguousStorageIfAvailable { bytes -> [Range<Int>]? in
            var ranges: [Range<Int>] = []
            var wordStart = -1
            for index in bytes.indices {
                let byte = bytes[index]
                if byte == 0x0D { return nil }
                if byte == 0x20 {
                    // A space joins the character before it only if that is a Prepend character, and the
                    // one after it if that is an extending mark: both are non-ASCII.
                    if index > 0, bytes[index - 1] >= 0x80, !safeNextToSpace(scalarEnding: index, in: text) { return nil }
                    if index + 1 < bytes.count, bytes[index + 1] >= 0x80, !safeNextToSpace(scalarAt: index + 1, in: text) { return nil }
                }
                if byte == 0x20 || byte == 0x0A || byte == 0x09 {
                    if wordStart >= 0 {
                        if keeping(bytes[wordStart..<index]) { ranges.append(wordStart..<index) }
                        wordStart = -1
                    }
                } else if wordStart < 0 {
                    wordStart = index
                }
            }
            if wordStart >= 0, keeping(bytes[wordStart..<bytes.count]) { ranges.append(wordStart..<bytes.count) }
            return ranges
        }
        guard let ranges, let words = ranges else {
            return characterWords(text).filter { word in
                let bytes = Array(word.utf8)
                return bytes.withUnsafeBufferPointer { keeping($0[...]) }
            }
        }
        let utf8 = text.utf8
        return words.map { text[utf8.index(utf8.startIndex, offsetBy: $0.lowerBound)..<utf8.index(utf8.startIndex, offsetBy: $0.upperBound)] }
    }

    private static func characterWords(_ text: String) -> [Substring] {
        text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" })
    }

    /// Punctuation, currency and maths symbols and cased letters never join a space in one character
    /// (they are not Extend, SpacingMark, ZWJ or Prepend in Unicode's grapheme rules).
    private static func safeNextToSpace(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .initialPunctuation, .finalPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
             .otherPunctuation, .connectorPunctuation, .mathSymbol, .currencySymbol, .uppercaseLetter, .lowercaseLetter:
            return true
        default:
            return false
        }
    }

    private static func safeNextToSpace(scalarAt offset: Int, in text: String) -> Bool {
        safeNextToSpace(text.unicodeScalars[text.utf8.index(text.utf8.startIndex, offsetBy: offset)])
    }

    private static func safeNextToSpace(scalarEnding offset: Int, in text: String) -> Bool {
        let index = text.utf8.index(text.utf8.startIndex, offsetBy: offset)
        return safeNextToSpace(text.unicodeScalars[text.unicodeScalars.index(before: index)])
    }
}

extension String {
    var trimmed: String { trimmingCharacters(in: " \n\t") }
    /// Each `\n` as a space. Without `\r`, every `\n` byte is a `\n` character, so bytes are swapped.
    var replacingNewlines: String {
        guard containsByte(UInt8(ascii: "\n")) else { return self }
        guard !containsByte(UInt8(ascii: "\r")) else { return split(separator: "\n", omittingEmptySubsequences: false).joined(separator: " ") }
        return String(decoding: utf8.map { $0 == UInt8(ascii: "\n") ? UInt8(ascii: " ") : $0 }, as: UTF8.self)
    }

    /// Trims characters of `set`, which holds single-scalar characters only (as every caller's does).
    func trimmingCharacters(in set: String) -> String {
        // Fast path: an ASCII first and last byte that are not in the set mean nothing to trim (a
        // character of the set that starts or ends the text would start or end with its byte).
        let bytes = utf8
        if let first = bytes.first, let last = bytes.last, first < 0x80, last < 0x80,
           !set.utf8.contains(first), !set.utf8.contains(last) {
            return self
        }
        // ASCII without `\r`: every byte is a Character, so the ends are trimmed as bytes (the
        // Character walk below cost 1,400-3,600 instructions a call).
        let ascii: String?? = bytes.withContiguousStorageIfAvailable { buffer -> String? in
            guard buffer.isASCIIWithoutCarriageReturn else { return nil }
            var start = 0, end = buffer.count
            while start < end, set.utf8.contains(buffer[start]) { start += 1 }
            while end > start, set.utf8.contains(buffer[end - 1]) { end -= 1 }
            return String(decoding: UnsafeBufferPointer(rebasing: buffer[start..<end]), as: UTF8.self)
        }
        if let ascii, let trimmed = ascii { return trimmed }
        var slice = Substring(self)
        while let first = slice.first, first.isMember(of: set) { slice = slice.dropFirst() }
        while let last = slice.last, last.isMember(of: set) { slice = slice.dropLast() }
        return String(slice)
    }
}

extension Character {
    /// `set.contains(self)` for a set of single-scalar characters, without walking the set's characters
    /// when `self` is one byte.
    @inline(__always)
    func isMember(of set: String) -> Bool {
        let bytes = utf8
        if bytes.count == 1, let byte = bytes.first { return set.utf8.contains(byte) }
        return set.contains(self)
    }
}

extension String {
    /// `utf8.contains(byte)`, over the contiguous bytes when the string has them.
    func containsByte(_ byte: UInt8) -> Bool {
        // A whole file is scanned for `\r` on every load.
        utf8.withContiguousStorageIfAvailable { $0.index(of: byte, from: 0) != nil } ?? utf8.contains(byte)
    }
}

extension String.UTF8View {
    /// Whether `first` is directly followed by `second` somewhere.
    func containsPair(_ first: UInt8, _ second: UInt8) -> Bool {
        if let found = withContiguousStorageIfAvailable({ bytes -> Bool in
            // Each `first` found, then the byte after it checked.
            var start = 0
            while let index = bytes.index(of: first, from: start) {
                if index + 1 < bytes.count && bytes[index + 1] == second { return true }
                start = index + 1
            }
            return false
        }) { return found }
        var previous: UInt8 = 0
        for byte in self {
            if previous == first && byte == second { return true }
            previous = byte
        }
        return false
    }

}

extension UnsafeBufferPointer<UInt8> {
    /// The first position of `byte` at or after `start`, found by memchr (many bytes at a time,
    /// where a Swift loop looked at each).
    /// Whether every byte is ASCII and none is a carriage return: eight bytes at a time (a high
    /// bit set, or a zero byte in the word XOR 0x0D repeated, by the usual bit test).
    var isASCIIWithoutCarriageReturn: Bool {
        guard let base = baseAddress else { return true }
        let raw = UnsafeRawPointer(base)
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        var index = 0
        while index + 8 <= count {
            let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            let carriage = word ^ (ones &* 0x0D)
            if (word & highs) | ((carriage &- ones) & ~carriage & highs) != 0 { return false }
            index += 8
        }
        while index < count {
            if base[index] >= 0x80 || base[index] == 0x0D { return false }
            index += 1
        }
        return true
    }

    func index(of byte: UInt8, from start: Int) -> Int? {
        guard let base = baseAddress, start < count, let found = memchr(base + start, Int32(byte), count - start) else { return nil }
        return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }
}

extension Slice<UnsafeBufferPointer<UInt8>> {
    /// Whether any of `needles` (non-empty, each starting with an upper-case ASCII letter) occurs in these bytes.
    func containsAny(of needles: [[UInt8]]) -> Bool {
        var index = startIndex
        while index != endIndex {
            let byte = self[index]
            // Upper-case ASCII only: every needle starts with one.
            if byte >= UInt8(ascii: "A"), byte <= UInt8(ascii: "Z") {
                for needle in needles where needle[0] == byte && endIndex - index >= needle.count {
                    var matched = 1
                    while matched < needle.count && self[index + matched] == needle[matched] { matched += 1 }
                    if matched == needle.count { return true }
                }
            }
            formIndex(after: &index)
        }
        return false
    }
}

extension Array where Element: Hashable {
    /// The elements without repeats, first occurrences in order. A rule's lists (APIs, topics,
    /// crash codes) hold a handful of names, and comparing them pairwise costs a fraction of
    /// hashing each into a Set; longer lists still go through one.
    var uniqued: [Element] {
        guard count <= Self.uniquedPairwiseLimit else { return uniquedByHashing }
        var result: [Element] = []
        result.reserveCapacity(count)
        for element in self where !result.contains(element) { result.append(element) }
        return result
    }

    /// At most this many elements are compared pairwise by `uniqued`.
    static var uniquedPairwiseLimit: Int { 16 }

    var uniquedByHashing: [Element] {
        var seen = Set<Element>()
        return filter { seen.insert($0).inserted }
    }
}

extension Array where Element == String {
    /// `joined(separator:)`, each piece's bytes copied straight into storage made once for the
    /// whole result: the standard library's join grew its result piece by piece (about 9 k
    /// instructions for a block's few lines), and appending each piece to a reserved String
    /// still cost about 400 instructions a piece, 16 M at 1,000 rules. The bytes are the same.
    func concatenated(separator: String) -> String {
        guard !isEmpty else { return "" }
        var count = separator.utf8.count * (self.count - 1)
        for piece in self { count += piece.utf8.count }
        var separator = separator
        return separator.withUTF8 { separatorBytes in
            String(unsafeUninitializedCapacity: count) { buffer in
                var written = 0
                func copy(_ bytes: UnsafeBufferPointer<UInt8>) {
                    guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
                    (buffer.baseAddress! + written).update(from: base, count: bytes.count)
                    written += bytes.count
                }
                for index in indices {
                    if index > 0 { copy(separatorBytes) }
                    var piece = self[index]
                    piece.withUTF8(copy)
                }
                return written
            }
        }
    }
}
