/// Plain byte searches over UTF-8. Foundation's `contains`/`range(of:)` on Linux goes through
/// CFString and cost about a million instructions per rule (ranking, Markdown rewrites); every
/// needle here is ASCII, so a byte search finds the same matches.
enum TextScan {
    static func contains(_ haystack: String, _ needle: StaticString) -> Bool {
        firstIndex(of: needle, in: Array(haystack.utf8), from: 0) != nil
    }

    /// The offset of the first `needle` in `bytes` at or after `start`.
    static func firstIndex(of needle: StaticString, in bytes: [UInt8], from start: Int) -> Int? {
        needle.withUTF8Buffer { pattern -> Int? in
            guard let first = pattern.first, pattern.count <= bytes.count else { return nil }
            var index = start
            let last = bytes.count - pattern.count
            while index <= last {
                if bytes[index] == first {
                    var matched = 1
                    while matched < pattern.count, bytes[index + matched] == pattern[matched] { matched += 1 }
                    if matched == pattern.count { return index }
                }
                index += 1
            }
            return nil
        }
    }

    /// Runs of whitespace (`Character.isWhitespace`'s White_Space scalars) become one space;
    /// leading and trailing whitespace goes. Same as splitting on whitespace and joining with " ".
    static func collapseWhitespace(_ text: String) -> String {
        // Bytes, not `String` appends: appending scalar by scalar to a String cost ~750 K
        // instructions per rule.
        var result: [UInt8] = []
        result.reserveCapacity(text.utf8.count)
        var pendingSpace = false
        for scalar in text.unicodeScalars {
            let isSpace = scalar.isASCII
                ? (scalar.value == 0x20 || (0x09...0x0D).contains(scalar.value))
                : scalar.properties.isWhitespace
            if isSpace {
                pendingSpace = !result.isEmpty
                continue
            }
            if pendingSpace { result.append(0x20); pendingSpace = false }
            if scalar.isASCII {
                result.append(UInt8(scalar.value))
            } else {
                UTF8.encode(scalar) { result.append($0) }
            }
        }
        return String(decoding: result, as: UTF8.self)
    }
}
