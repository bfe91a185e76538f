import BGKBModel

/// Reads the date an entry opens with: `2023-06-16` or `17 Aug 2017` (also `August 17, 2017`),
/// then an optional `—`, `–`, `-` or `:` before the entry's text.
enum RevisionDate {
    enum Result: Equatable {
        case date(Day, written: String, rest: String)
        /// The line starts like a date but is not one we can read, or names a day that does not exist.
        case invalid(message: String, id: String)
        case notADate
    }

    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    static func parse(_ line: String) -> Result {
        let words = Self.words(line)
        guard let firstWord = words.first else { return .notADate }
        let first = firstWord.trimmingCharacters(in: ":,")

        // ISO 8601.
        let isoParts = first.split(separator: "-", omittingEmptySubsequences: false)
        if isoParts.count == 3, isoParts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isNumber) }) {
            guard isoParts[0].count == 4, isoParts[1].count == 2, isoParts[2].count == 2,
                  let year = Int(isoParts[0]), let month = Int(isoParts[1]), let day = Int(isoParts[2]) else {
                return .invalid(message: "date `\(first)` is not in the form YYYY-MM-DD", id: "bad-date")
            }
            guard let valid = Day(validYear: year, month: month, day: day) else {
                return .invalid(message: "`\(first)` is not a real date", id: "impossible-date")
            }
            return .date(valid, written: first, rest: rest(words.dropFirst()))
        }
        if first.count >= 4, first.prefix(4).allSatisfy(\.isNumber), first.dropFirst(4).first == "-" {
            return .invalid(message: "date `\(first)` is not in the form YYYY-MM-DD", id: "bad-date")
        }

        // `17 Aug 2017` and `August 17, 2017`.
        if words.count >= 3 {
            let (dayWord, monthWord, yearWord): (String, String, String) = first.first?.isNumber == true
                ? (first, words[1], words[2].trimmingCharacters(in: ":,")) : (words[1].trimmingCharacters(in: ","), first, words[2].trimmingCharacters(in: ":,"))
            let monthIndex = months.firstIndex { monthWord.lowercased().hasPrefix($0) && monthWord.count >= 3 }
            if let monthIndex, dayWord.allSatisfy(\.isNumber), let day = Int(dayWord), yearWord.count == 4, let year = Int(yearWord) {
                guard let valid = Day(validYear: year, month: monthIndex + 1, day: day) else {
                    return .invalid(message: "`\(words[0...2].joined(separator: " "))` is not a real date", id: "impossible-date")
                }
                return .date(valid, written: words[0...2].joined(separator: " ").trimmingCharacters(in: ":,"), rest: rest(words.dropFirst(3)))
            }
            if first.first?.isNumber == true, first.count <= 2, monthIndex == nil, words[1].first?.isLetter == true,
               words[2].count == 4, words[2].allSatisfy(\.isNumber) {
                return .invalid(message: "`\(words[1])` is not a month in date `\(words[0...2].joined(separator: " "))`", id: "bad-date")
            }
        }
        return .notADate
    }

    /// The line split at spaces (a space scalar, one byte), empty words dropped.
    static func words(_ line: String) -> [String] {
        Array(line.utf8).split(separator: UInt8(ascii: " ")).map { String(decoding: $0, as: UTF8.self) }
    }

    private static func rest(_ words: some Collection<String>) -> String {
        var remaining = Array(words)
        if let first = remaining.first, ["—", "–", "-", ":", "--"].contains(first) { remaining.removeFirst() }
        return remaining.joined(separator: " ").trimmed
    }
}
