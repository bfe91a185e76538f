import BGKBModel

/// What the pipeline reads out of a point's plain text when no annotation says otherwise. It works
/// on text that cmark has already stripped of markup, word by word: never on Markdown source.
enum PlainText {
    /// The first sentence: up to the first `.`, `!` or `?` followed by a space and a capital, digit or
    /// opening quote, or by the end. Dots inside words (`UIApplication.shared`, `e.g.`) do not end it.
    static func firstSentence(_ text: String) -> String {
        let characters = Array(text)
        var index = 0
        while index < characters.count {
            let character = characters[index]
            if character == "\n" && index + 1 < characters.count && characters[index + 1] == "\n" { break }
            if ".!?".contains(character) {
                let next = index + 1 < characters.count ? characters[index + 1] : nil
                if next == nil { return String(characters[...index]).trimmed }
                if let next, next == " " || next == "\n" {
                    let after = index + 2 < characters.count ? characters[index + 2] : nil
                    let wordBefore = String(characters[..<index]).split(whereSeparator: { $0 == " " || $0 == "\n" }).last.map(String.init) ?? ""
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

    /// A title from a statement: at most about 72 characters, cut at a word, no final period.
    static func title(from statement: String) -> String {
        var text = statement.replacingNewlines
        while let last = text.last, ".:;,".contains(last) { text.removeLast() }
        guard text.count > 72 else { return text }
        var result = ""
        for word in text.split(separator: " ") {
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
        return words(text).compactMap { word in
            let lower = word.lowercased().trimmingCharacters(in: ".,;:()“”\"’'`")
            guard lower.hasPrefix("0x"), lower.count == 10, lower.dropFirst(2).allSatisfy(\.isHexDigit) else { return nil }
            return lower
        }.uniqued
    }

    /// API-shaped words in unformatted text: selectors such as `beginBackgroundTask(expirationHandler:)`
    /// and framework types such as `UIApplication`, `BGTaskScheduler`.
    static func apis(in text: String) -> [String] {
        words(text).compactMap { word -> String? in
            // Only a word with `(` or one of the prefixes can qualify: skip the rest without trimming.
            guard word.utf8.contains(UInt8(ascii: "(")) || apiPrefixes.contains(where: { word.utf8.contains($0.utf8) }) else { return nil }
            var word = Substring(word)
            while let last = word.last, ".,;)”’\"'".contains(last), !word.hasSuffix(":)") { word = word.dropLast() }
            while let first = word.first, "(“‘\"'".contains(first) { word = word.dropFirst() }
            if word.contains("("), word.hasSuffix(")"), word.first?.isLetter == true { return String(word) }
            if let prefix = apiPrefixes.first(where: { word.hasPrefix($0) }), word.count > prefix.count + 2,
               word.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "." }),
               word.dropFirst(prefix.count).first?.isUppercase == true || prefix == "ProcessInfo" {
                return String(word)
            }
            return nil
        }.uniqued
    }

    private static let apiPrefixes = ["UI", "BG", "NS", "Dispatch", "ProcessInfo"]

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
        var result: [StatedNumber] = []
        var index = 0
        while index < tokens.count {
            let token = tokens[index].lowercased()
            let previous = index > 0 ? tokens[index - 1].lowercased() : ""
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
            } else if let word = numberWords[token], index + 1 < tokens.count, unitWords[tokens[index + 1].lowercased()] != nil,
                      word > 1 || Self.hedges.contains(previous) || Self.hedges.contains(hedgeBefore(tokens, index)) {
                // "less than a second" is a quantity; "a second call" is not.
                value = word
            } else if token.hasPrefix("~"), let number = Double(token.dropFirst()) {
                value = number
                firmness = .about
            }
            guard var number = value, !notQuantities.contains(previous) else { index += 1; continue }
            // A bare number of 1900–2100 with no unit is a year.
            let next = index + 1 < tokens.count ? tokens[index + 1].lowercased() : ""
            var unit = unitWords[next]
            if unit != nil { consumed = 2 } else if next == "or", index + 3 < tokens.count, tokens[index + 2].lowercased() == "so",
                                                       let later = unitWords[tokens[index + 3].lowercased()] {
                unit = later
                consumed = 4
            }
            if unit == nil {
                if (1900...2100).contains(number) || number < 10 || token.contains(".") { index += 1; continue }
            }
            let hedge = (index >= 2 ? tokens[index - 2].lowercased() + " " : "") + previous
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
        text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }).map(String.init)
    }
}

extension String {
    var trimmed: String { trimmingCharacters(in: " \n\t") }
    var replacingNewlines: String { split(separator: "\n", omittingEmptySubsequences: false).joined(separator: " ") }

    /// Trims characters of `set`, which holds single-scalar characters only (as every caller's does).
    func trimmingCharacters(in set: String) -> String {
        // Fast path: an ASCII first and last byte that are not in the set mean nothing to trim (a
        // character of the set that starts or ends the text would start or end with its byte).
        let bytes = utf8
        if let first = bytes.first, let last = bytes.last, first < 0x80, last < 0x80,
           !set.utf8.contains(first), !set.utf8.contains(last) {
            return self
        }
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

extension String.UTF8View {
    /// Whether `first` is directly followed by `second` somewhere.
    func containsPair(_ first: UInt8, _ second: UInt8) -> Bool {
        var previous: UInt8 = 0
        for byte in self {
            if previous == first && byte == second { return true }
            previous = byte
        }
        return false
    }

    /// Whether the bytes of `needle` occur contiguously.
    func contains(_ needle: String.UTF8View) -> Bool {
        let count = needle.count
        guard count > 0, self.count >= count else { return count == 0 }
        var index = startIndex
        let last = self.index(endIndex, offsetBy: -count)
        while true {
            if self[index...].starts(with: needle) { return true }
            if index == last { return false }
            formIndex(after: &index)
        }
    }
}

extension Array where Element: Hashable {
    var uniqued: [Element] {
        var seen = Set<Element>()
        return filter { seen.insert($0).inserted }
    }
}
