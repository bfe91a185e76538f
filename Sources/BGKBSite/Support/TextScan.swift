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
    /// the pair.
    static func collapseWhitespace(_ text: String) -> String {
        var result: [UInt8] = []
        result.reserveCapacity(text.utf8.count)
        var pendingSpace = false
        for scalar in text.unicodeScalars {
            let isSpace = scalar.isASCII ? scalar == " " || (0x09...0x0D).contains(scalar.value) : scalar.properties.isWhitespace
            if isSpace {
                pendingSpace = !result.isEmpty
                continue
            }
            if pendingSpace { result.append(UInt8(ascii: " ")) }
            pendingSpace = false
            if scalar.isASCII { result.append(UInt8(scalar.value)) } else { result.append(contentsOf: scalar.utf8) }
        }
        return String(decoding: result, as: UTF8.self)
    }
}
