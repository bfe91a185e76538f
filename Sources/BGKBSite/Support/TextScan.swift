#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Plain byte searches over UTF-8. Foundation's `contains`/`range(of:)` on Linux goes through
/// CFString and cost about a million instructions per rule (ranking, Markdown rewrites); every
/// needle here is ASCII, so a byte search finds the same matches.
enum TextScan {
    static func contains(_ haystack: String, _ needle: StaticString) -> Bool {
        firstIndex(of: needle, in: Array(haystack.utf8), from: 0) != nil
    }

    /// The offset of the first `needle` in `bytes` at or after `start`.
    /// The first byte is found with memchr (a byte-by-byte loop was 5 instructions a byte, and
    /// most pages' HTML is searched whole for a needle it does not hold).
    static func firstIndex(of needle: StaticString, in bytes: [UInt8], from start: Int) -> Int? {
        bytes.withUnsafeBufferPointer { firstIndex(of: needle, in: $0, from: start) }
    }

    static func firstIndex(of needle: StaticString, in buffer: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        needle.withUTF8Buffer { pattern -> Int? in
            guard let first = pattern.first, pattern.count <= buffer.count, start >= 0, let base = buffer.baseAddress else { return nil }
            var index = start
            let last = buffer.count - pattern.count
            while index <= last {
                guard let found = memchr(base + index, Int32(first), last + 1 - index) else { return nil }
                index = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                var matched = 1
                while matched < pattern.count, buffer[index + matched] == pattern[matched] { matched += 1 }
                if matched == pattern.count { return index }
                index += 1
            }
            return nil
        }
    }

    /// Runs of whitespace (`Character.isWhitespace`'s White_Space scalars) become one space;
    /// leading and trailing whitespace goes. Same as splitting on whitespace and joining with " ".
    static func collapseWhitespace(_ text: String) -> String {
        // Bytes, not `String` appends: appending scalar by scalar to a String cost ~750 K
        // instructions per rule. Scalars are decoded only where one could be whitespace: every
        // non-ASCII White_Space scalar (U+0085, U+00A0, U+1680, U+2000-U+200A, U+2028, U+2029,
        // U+202F, U+205F, U+3000) starts with 0xC2, 0xE1, 0xE2 or 0xE3 (a test holds this);
        // other bytes are copied as they are.
        // A whitespace scalar next to one beyond ASCII may share a Character with it (a
        // combining mark after a space makes the pair a whitespace Character, which the split
        // drops whole): such text is split by Characters, as the definition says.
        var clustered = false
        var text = text
        let collapsed = text.withUTF8 { bytes -> String in
            // Written straight into the new String's storage: the output is never longer than
            // the input (a space stands for one or more whitespace bytes), and appending each
            // word's run to an array cost a hundred instructions a word.
            String(unsafeUninitializedCapacity: bytes.count) { result in
                var written = 0
                var pendingSpace = false
                // Text between whitespace is copied a run at a time.
                var runStart = -1
                func flush(upTo end: Int) {
                    guard runStart >= 0 else { return }
                    if pendingSpace {
                        result[written] = 0x20
                        written += 1
                    }
                    let length = end - runStart
                    (result.baseAddress! + written).update(from: bytes.baseAddress! + runStart, count: length)
                    written += length
                    runStart = -1
                }
                var index = 0
                let count = bytes.count
                while index < count {
                    // The printable ASCII bytes other than the space that come next continue (or
                    // start) a run, eight at a time: one test finds where the next space, control
                    // or non-ASCII byte is, and the loop jumps to it (a byte at a time, a word of
                    // prose cost a pass per byte).
                    if index + 8 <= count {
                        let word = UnsafeRawPointer(bytes.baseAddress! + index).loadUnaligned(as: UInt64.self)
                        let low: UInt64 = 0x0101_0101_0101_0101, high: UInt64 = 0x8080_8080_8080_8080
                        // The high bit of each byte below 0x21 (`(word - 0x21…) & ~word`; a borrow
                        // can only mark bytes above a marked one) and of each byte of 0x80 or more.
                        let special = ((word &- low &* 0x21) & ~word | word) & high
                        if special == 0 {
                            if runStart < 0 { runStart = index }
                            index += 8
                            continue
                        }
                        let plain = special.trailingZeroBitCount >> 3
                        if plain > 0 {
                            if runStart < 0 { runStart = index }
                            index += plain
                        }
                    }
                    let byte = bytes[index]
                    // A single space inside a run, before a printable ASCII byte, stays as it is:
                    // the run goes on through it. Ending the run there and starting the next
                    // after it copied prose a word at a time (20,000 instructions a rule's text).
                    if byte == 0x20, runStart >= 0, index + 1 < count, bytes[index + 1] > 0x20, bytes[index + 1] < 0x80 {
                        index += 1
                        continue
                    }
                    var length = 1
                    let isSpace: Bool
                    if byte < 0x80 {
                        isSpace = byte == 0x20 || (byte >= 0x09 && byte <= 0x0D)
                    } else {
                        length = min(byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2, count - index)
                        if byte == 0xC2 || (byte >= 0xE1 && byte <= 0xE3) {
                            var value = UInt32(byte) & (length == 2 ? 0x1F : 0x0F)
                            for offset in 1..<length { value = value << 6 | UInt32(bytes[index + offset] & 0x3F) }
                            isSpace = Unicode.Scalar(value)?.properties.isWhitespace ?? false
                        } else {
                            isSpace = false
                        }
                    }
                    if isSpace {
                        if (index > 0 && bytes[index - 1] >= 0x80) || (index + length < count && bytes[index + length] >= 0x80) {
                            clustered = true
                            return 0
                        }
                        flush(upTo: index)
                        pendingSpace = written > 0
                    } else if runStart < 0 {
                        runStart = index
                    }
                    index += length
                }
                flush(upTo: count)
                return written
            }
        }
        return clustered ? text.split(whereSeparator: \.isWhitespace).joined(separator: " ") : collapsed
    }
}
