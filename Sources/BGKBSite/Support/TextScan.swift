import BGKBModel

/// Plain-text helpers for the site's pages.
enum TextScan {
    /// Whether `haystack` holds `needle`, byte for byte. Foundation's `contains` goes through
    /// CFString on Linux; every needle here is ASCII, so a byte search finds the same matches.
    static func contains(_ haystack: String, _ needle: StaticString) -> Bool {
        Bytes.contains(needle, in: haystack.utf8)
    }

    /// Runs of whitespace become one space; leading and trailing whitespace goes. Whitespace is
    /// decided per Unicode scalar (the White_Space property), not per Character: a combining
    /// mark after a space is kept and starts the next word, where a Character split would drop
    /// the pair (`Bytes.collapsingWhitespace`).
    static func collapseWhitespace(_ text: String) -> String {
        Bytes.collapsingWhitespace(text)
    }
}
