extension String {
    /// The text without the Unicode scalars of `set` at either end. By scalars, not Characters:
    /// a combining mark after a trimmed space stays, as every text heuristic here cuts text.
    public func trimmingCharacters(in set: String) -> String {
        let scalars = unicodeScalars
        var start = scalars.startIndex, end = scalars.endIndex
        while start < end, set.unicodeScalars.contains(scalars[start]) { start = scalars.index(after: start) }
        while end > start, set.unicodeScalars.contains(scalars[scalars.index(before: end)]) { end = scalars.index(before: end) }
        return start == scalars.startIndex && end == scalars.endIndex ? self : String(scalars[start..<end])
    }

    /// Every scalar Unicode calls white space (`Unicode.Scalar.Properties.isWhitespace`): spaces,
    /// tabs and line breaks. For a line someone typed, where any blank around it means nothing.
    public static let whitespace = "\t\n\u{0B}\u{0C}\r \u{85}\u{A0}\u{1680}"
        + "\u{2000}\u{2001}\u{2002}\u{2003}\u{2004}\u{2005}\u{2006}\u{2007}\u{2008}\u{2009}\u{200A}"
        + "\u{2028}\u{2029}\u{202F}\u{205F}\u{3000}"

    /// Spaces and tabs, not line breaks: what Foundation's `CharacterSet.whitespaces` holds on
    /// Linux (the white space that is not a line break, and U+200B), written out so the result
    /// is the same on every platform.
    public static let spacesAndTabs = "\t \u{A0}\u{1680}"
        + "\u{2000}\u{2001}\u{2002}\u{2003}\u{2004}\u{2005}\u{2006}\u{2007}\u{2008}\u{2009}\u{200A}\u{200B}"
        + "\u{202F}\u{205F}\u{3000}"
}
