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
        words(text).compactMap { word in
            let lower = word.lowercased().trimmingCharacters(in: ".,;:()“”\"’'`")
            guard lower.hasPrefix("0x"), lower.count == 10, lower.dropFirst(2).allSatisfy(\.isHexDigit) else { return nil }
            return lower
        }.uniqued
    }

    /// API-shaped words in unformatted text: selectors such as `beginBackgroundTask(expirationHandler:)`
    /// and framework types such as `UIApplication`, `BGTaskScheduler`.
    static func apis(in text: String) -> [String] {
        words(text).compactMap { word -> String? in
            var word = Substring(word)
            while let last = word.last, ".,;)”’\"'".contains(last), !word.hasSuffix(":)") { word = word.dropLast() }
            while let first = word.first, "(“‘\"'".contains(first) { word = word.dropFirst() }
            if word.contains("("), word.hasSuffix(")"), word.first?.isLetter == true { return String(word) }
            let prefixes = ["UI", "BG", "NS", "Dispatch", "ProcessInfo"]
            if let prefix = prefixes.first(where: { word.hasPrefix($0) }), word.count > prefix.count + 2,
               word.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "." }),
               word.dropFirst(prefix.count).first?.isUppercase == true || prefix == "ProcessInfo" {
                return String(word)
            }
            return nil
        }.uniqued
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
            } else if let number = Double(token.replacingOccurrences(of: ",", with: "")), token.first?.isNumber == true {
                value = number
            } else if let word = numberWords[token], index + 1 < tokens.count, unitWords[tokens[index + 1].lowercased()] != nil {
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

    func trimmingCharacters(in set: String) -> String {
        var slice = Substring(self)
        while let first = slice.first, set.contains(first) { slice = slice.dropFirst() }
        while let last = slice.last, set.contains(last) { slice = slice.dropLast() }
        return String(slice)
    }
}

extension Array where Element: Hashable {
    var uniqued: [Element] {
        var seen = Set<Element>()
        return filter { seen.insert($0).inserted }
    }
}
