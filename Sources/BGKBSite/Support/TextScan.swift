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
        // ASCII bytes are answered as they are; only a byte that starts a non-ASCII scalar is decoded.
        let bytes = Array(text.utf8)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            var next = index + 1
            let isSpace: Bool
            if byte < 0x80 {
                isSpace = byte == 0x20 || (0x09...0x0D).contains(byte)
            } else {
                let (scalar, length) = Bytes.scalar(at: index, in: bytes)
                isSpace = scalar.properties.isWhitespace
                next = index + length
            }
            if isSpace {
                pendingSpace = !result.isEmpty
            } else {
                if pendingSpace { result.append(UInt8(ascii: " ")) }
                pendingSpace = false
                if next == index + 1 { result.append(byte) } else { result.append(contentsOf: bytes[index..<next]) }
            }
            index = next
        }
        return String(decoding: result, as: UTF8.self)
    }
}
