import BGKBModel
import Foundation

/// What the pipeline reads out of a point's plain text when no annotation says otherwise. It works
/// on text that cmark has already stripped of markup, word by word: never on Markdown source.
///
/// Words and sentences are cut by Unicode scalars (a space, tab or line feed is a separator on
/// its own), not by Characters: a combining mark after a space belongs to the next word.
enum PlainText {
    /// Whether `keyword` occurs in `text`, byte for byte in UTF-8 (no canonical equivalence: Content
    /// and keywords are compared as written).
    static func contains(_ text: String, _ keyword: String) -> Bool {
        !keyword.isEmpty && Bytes.contains(keyword.utf8, in: text.utf8)
    }

    /// A title from a statement: at most about 72 Unicode scalars, cut at a word (words split at
    /// spaces, line feeds read as spaces), no final period. Worked on as UTF-8 bytes: the
    /// separators and trimmed marks are ASCII, and a scalar is a byte that does not continue one.
    static func title(from statement: String) -> String {
        var bytes = Array(statement.utf8)
        while let last = bytes.last, ".:;,".utf8.contains(last) { bytes.removeLast() }
        for index in bytes.indices where bytes[index] == UInt8(ascii: "\n") { bytes[index] = UInt8(ascii: " ") }
        func scalarCount(_ slice: ArraySlice<UInt8>) -> Int { slice.count { $0 & 0xC0 != 0x80 } }
        guard scalarCount(bytes[...]) > 72 else { return String(decoding: bytes, as: UTF8.self) }
        var result: [UInt8] = []
        var length = 0
        // Word by word (runs between spaces, empty ones skipped) only as far as the title goes.
        var wordStart = 0
        while wordStart < bytes.count {
            let wordEnd = bytes[wordStart...].firstIndex(of: UInt8(ascii: " ")) ?? bytes.count
            defer { wordStart = wordEnd + 1 }
            guard wordEnd > wordStart else { continue }
            let word = bytes[wordStart..<wordEnd]
            let wordLength = scalarCount(word)
            if length + wordLength + 1 > 70 { break }
            if length > 0 {
                result.append(UInt8(ascii: " "))
                length += 1
            }
            result.append(contentsOf: word)
            length += wordLength
        }
        return String(decoding: result, as: UTF8.self) + "…"
    }

    /// The kind a statement's wording implies.
    static func kind(of statement: String) -> Rule.Kind {
        let text = " " + statement.lowercased().replacingNewlines + " "
        func has(_ phrases: [String]) -> Bool { phrases.contains { Bytes.contains($0.utf8, in: text.utf8) } }
        if has([" must not ", " mustn’t ", " mustn't ", " never ", " do not ", " don’t ", " don't ", " cannot rely"]) { return .mustNot }
        if has([" must ", " always ", " need to ", " required ", " responsible for "]) { return .must }
        if has([" should not ", " shouldn’t ", " shouldn't ", " avoid ", " not a good idea"]) { return .shouldNot }
        if has([" should ", " recommend ", " best to ", " it’s best ", " make sense "]) { return .should }
        return .fact
    }

    /// Crash codes: `0x` followed by eight hex digits, as words.
    static func crashCodes(in text: String) -> [String] {
        guard Bytes.contains("0x".utf8, in: text.utf8) || Bytes.contains("0X".utf8, in: text.utf8) else { return [] }
        return wordSlices(text).compactMap { word in
            let lower = word.lowercased().trimmingCharacters(in: ".,;:()“”\"’'`")
            guard lower.hasPrefix("0x"), lower.count == 10, lower.dropFirst(2).allSatisfy(\.isHexDigit) else { return nil }
            return lower
        }.uniqued
    }

    /// API-shaped words in unformatted text: selectors such as `beginBackgroundTask(expirationHandler:)`
    /// and framework types such as `UIApplication`, `BGTaskScheduler`. Only words holding `(` or
    /// an API prefix are looked at further.
    static func apis(in text: String) -> [String] {
        let bytes = Array(text.utf8)
        func isSeparator(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x09 }
        // `(` or the first letter of a prefix (U, B, N, D, P): every candidate holds one.
        func mayNameAPI(_ byte: UInt8) -> Bool {
            byte == 0x28 || byte == 0x55 || byte == 0x42 || byte == 0x4E || byte == 0x44 || byte == 0x50
        }
        var apis: [String] = []
        var index = 0
        // From each byte a candidate needs out to its word's ends, then on past that word.
        while let found = bytes[index...].firstIndex(where: mayNameAPI) {
            var start = found
            while start > 0, !isSeparator(bytes[start - 1]) { start -= 1 }
            var end = found + 1
            while end < bytes.count, !isSeparator(bytes[end]) { end += 1 }
            let word = bytes[start..<end]
            if word.contains(UInt8(ascii: "(")) || apiPrefixBytes.contains(where: { Bytes.contains($0, in: word) }),
               let api = api(Array(word)) {
                apis.append(api)
            }
            index = end
        }
        return apis.uniqued
    }

    /// The API a word (its UTF-8 bytes) names, with surrounding punctuation trimmed, or nil.
    /// Letters, digits and capitals are told by their Unicode scalar properties. The marks trimmed
    /// and looked for are found among the bytes: each is a whole scalar, and no other scalar's bytes
    /// hold an ASCII byte or end (or start) the way a mark does.
    static func api(_ word: [UInt8]) -> String? {
        var start = 0
        var end = word.count
        func endsWith(_ mark: [UInt8]) -> Bool { end - start >= mark.count && word[(end - mark.count)..<end].elementsEqual(mark) }
        func startsWith(_ mark: [UInt8]) -> Bool { end - start >= mark.count && word[start..<(start + mark.count)].elementsEqual(mark) }
        // Trailing marks, but not the `)` of a selector's `:)`.
        while let mark = trailingMarks.first(where: endsWith), !endsWith(selectorEnd) { end -= mark.count }
        while let mark = leadingMarks.first(where: startsWith) { start += mark.count }
        guard start < end else { return nil }
        func scalar(at index: Int) -> Unicode.Scalar {
            word[index] < 0x80 ? Unicode.Scalar(word[index]) : Bytes.scalar(at: index, in: word).scalar
        }
        func isLetter(_ scalar: Unicode.Scalar) -> Bool {
            scalar.isASCII ? ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) : scalar.properties.isAlphabetic
        }
        func isDigit(_ scalar: Unicode.Scalar) -> Bool { scalar.isASCII ? ("0"..."9").contains(scalar) : scalar.properties.numericType != nil }
        let text = { String(decoding: word[start..<end], as: UTF8.self) }
        if word[start..<end].contains(UInt8(ascii: "(")), word[end - 1] == UInt8(ascii: ")"), isLetter(scalar(at: start)) { return text() }
        // The prefixes are ASCII: their bytes are their scalars.
        guard let prefix = apiPrefixBytes.first(where: startsWith) else { return nil }
        let scalarCount = word[start..<end].count { $0 & 0xC0 != 0x80 }
        guard scalarCount > prefix.count + 2 else { return nil }
        var index = start
        while index < end {
            let next = scalar(at: index)
            guard isLetter(next) || isDigit(next) || next == "." else { return nil }
            index += word[index] < 0x80 ? 1 : Bytes.scalar(at: index, in: word).length
        }
        if scalar(at: start + prefix.count).properties.isUppercase || prefix.elementsEqual("ProcessInfo".utf8) { return text() }
        return nil
    }

    private static let trailingMarks = [".", ",", ";", ")", "”", "’", "\"", "'"].map { Array($0.utf8) }
    private static let leadingMarks = ["(", "“", "‘", "\"", "'"].map { Array($0.utf8) }
    private static let selectorEnd = Array(":)".utf8)
    private static let apiPrefixes = ["UI", "BG", "NS", "Dispatch", "ProcessInfo"]
    private static let apiPrefixBytes = apiPrefixes.map { Array($0.utf8) }

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

    /// The text split at spaces, tabs and line feeds, each a Unicode scalar of its own.
    static func wordSlices(_ text: String) -> [Substring] {
        let utf8 = text.utf8
        return wordRanges(Array(utf8)).map { range in
            text[utf8.index(utf8.startIndex, offsetBy: range.lowerBound)..<utf8.index(utf8.startIndex, offsetBy: range.upperBound)]
        }
    }

    /// Where the words of UTF-8 text are: runs without a space, tab or line feed (ASCII bytes,
    /// each always a whole scalar in UTF-8).
    static func wordRanges(_ bytes: [UInt8]) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var start = -1
        for index in bytes.indices {
            let byte = bytes[index]
            if byte == 0x20 || byte == 0x0A || byte == 0x09 {
                if start >= 0 { ranges.append(start..<index) }
                start = -1
            } else if start < 0 {
                start = index
            }
        }
        if start >= 0 { ranges.append(start..<bytes.count) }
        return ranges
    }
}

extension String {
    var trimmed: String { trimmingCharacters(in: " \n\t") }

    /// Each `\n` as a space.
    var replacingNewlines: String {
        guard Bytes.firstOffset(of: UInt8(ascii: "\n"), in: self) != nil else { return self }
        return String(decoding: utf8.map { $0 == UInt8(ascii: "\n") ? UInt8(ascii: " ") : $0 }, as: UTF8.self)
    }
}

extension Array where Element: Hashable {
    /// The elements without repeats, first occurrences in order. A rule's lists (APIs, topics,
    /// crash codes) hold a handful of names: those are compared pairwise rather than hashed.
    var uniqued: [Element] {
        guard count > 16 else { return reduce(into: []) { result, element in if !result.contains(element) { result.append(element) } } }
        var seen = Set<Element>()
        return filter { seen.insert($0).inserted }
    }
}
