/// The one heuristic for "the first sentence" of a text: the pipeline takes a point's statement
/// with it, the quiz its hints. It works on plain text (Markdown marks already stripped), by
/// Unicode scalars.
public enum Sentence {
    /// The first sentence: up to the first `.`, `!` or `?` followed by a space or line break and a
    /// capital, a digit or an opening quote, or by the end; a blank line ends it too. Dots inside
    /// words (`UIApplication.shared`) and after abbreviations (`e.g.`) do not end it.
    public static func first(in text: String) -> String {
        let scalars = text.unicodeScalars
        var index = scalars.startIndex
        while index < scalars.endIndex {
            let scalar = scalars[index]
            let next = scalars.index(after: index)
            if scalar == "\n" && next < scalars.endIndex && scalars[next] == "\n" { break }
            if scalar == "." || scalar == "!" || scalar == "?" {
                guard next < scalars.endIndex else { return String(scalars[...index]).trimmingCharacters(in: " \n\t") }
                if scalars[next] == " " || scalars[next] == "\n" {
                    let afterIndex = scalars.index(after: next)
                    let after = afterIndex < scalars.endIndex ? scalars[afterIndex] : nil
                    if opensSentence(after), !endsWithAbbreviation(scalars[..<index]) {
                        return String(scalars[...index]).trimmingCharacters(in: " \n\t")
                    }
                }
            }
            index = next
        }
        return String(scalars[..<index]).trimmingCharacters(in: " \n\t")
    }

    /// Whether `scalar` can start a sentence: a capital, a digit, an opening quote, bracket,
    /// backtick or asterisk, or nothing (the end of the text).
    private static func opensSentence(_ scalar: Unicode.Scalar?) -> Bool {
        guard let scalar else { return true }
        return scalar.properties.isUppercase || scalar.properties.numericType != nil || "“\"‘'(`*".unicodeScalars.contains(scalar)
    }

    private static let abbreviations: Set<String> = ["e.g", "i.e", "etc", "vs", "cf", "approx"]

    /// Whether the last word of `text` (after any trailing spaces and line breaks) is one of `abbreviations`.
    private static func endsWithAbbreviation(_ text: Substring.UnicodeScalarView) -> Bool {
        let isSeparator = { (scalar: Unicode.Scalar) in scalar == " " || scalar == "\n" }
        var end = text.endIndex
        while end > text.startIndex, isSeparator(text[text.index(before: end)]) { end = text.index(before: end) }
        var start = end
        while start > text.startIndex, !isSeparator(text[text.index(before: start)]) { start = text.index(before: start) }
        return abbreviations.contains(String(text[start..<end]).lowercased())
    }
}

extension StringProtocol {
    /// The text with its first character in upper case (`leaked task` → `Leaked task`), by the
    /// standard library's Unicode mapping; the rest as it is.
    @inlinable public var withFirstLetterUppercased: String {
        // The first character made a String first: `uppercased()` of a Substring is Foundation's,
        // through NSString.
        String(prefix(1)).uppercased() + dropFirst()
    }
}
