/// Writes HTML (and SVG/XML) into a byte buffer with every value escaped. The hottest pages (one per
/// rule, with their timelines) are written with it instead of Mustache, which cost about 25 M
/// instructions per rule page in dictionary look-ups and dynamic casts.
///
/// Three ways in, so escaping cannot be forgotten: `markup` takes only string literals (the page's
/// own tags, checked by the compiler to be `StaticString`), `text` escapes any value exactly as
/// Mustache's `{{value}}` did (`< > & " '`), and `trusted` takes HTML that is safe by construction
/// (cmark's safe-mode output, or markup this writer produced).
struct HTMLWriter {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    /// A coordinate as `Format.coordinate` writes it (tenths, no trailing `.0`), straight into
    /// the bytes.
    mutating func coordinate(_ value: Double) {
        guard value.isFinite, abs(value) < 1e15 else { bytes.append(UInt8(ascii: "0")); return }
        let tenths = Int((value * 10).rounded())
        let magnitude = tenths.magnitude
        // Written backwards from the end of a small buffer, then appended at once (a byte at a
        // time, each append checked the array's uniqueness and capacity).
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        withUnsafeMutableBytes(of: &digits) { buffer in
            var start = buffer.count
            func put(_ byte: UInt8) {
                start -= 1
                buffer[start] = byte
            }
            if magnitude % 10 != 0 {
                put(UInt8(ascii: "0") + UInt8(magnitude % 10))
                put(UInt8(ascii: "."))
            }
            var whole = magnitude / 10
            repeat {
                put(UInt8(ascii: "0") + UInt8(whole % 10))
                whole /= 10
            } while whole > 0
            if tenths < 0 { put(UInt8(ascii: "-")) }
            // As typed bytes: appending a raw buffer went element by element.
            let digits = UnsafeRawBufferPointer(rebasing: buffer[start...])
            bytes.append(contentsOf: digits.assumingMemoryBound(to: UInt8.self))
        }
    }

    /// Markup written in the source code. Only literals can be passed, never a runtime value.
    mutating func markup(_ literal: StaticString) {
        literal.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// A value from Content, the engine or the configuration, HTML-escaped.
    mutating func text(_ value: String) {
        var value = value
        value.withUTF8 { buffer in
            guard let base = buffer.baseAddress else { return }
            // Runs of bytes that need no escaping are copied whole (appending byte by byte was a
            // fifteenth of a warm build's instructions). Most values have nothing to escape, so
            // eight bytes at a time are first tested for any of the five (a word-wide zero-byte
            // test per escaped byte), and only a word that holds one is looked at byte by byte.
            var runStart = 0
            var index = 0
            let count = buffer.count
            let raw = UnsafeRawPointer(base)
            while index < count {
                if index + 8 <= count && !HTMLWriter.holdsEscapedByte(raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)) {
                    index += 8
                    continue
                }
                let byte = base[index]
                index += 1
                let escaped: StaticString
                switch byte {
                case UInt8(ascii: "<"): escaped = "&lt;"
                case UInt8(ascii: ">"): escaped = "&gt;"
                case UInt8(ascii: "&"): escaped = "&amp;"
                case UInt8(ascii: "\""): escaped = "&quot;"
                case UInt8(ascii: "'"): escaped = "&#39;"
                default: continue
                }
                let at = index - 1
                if runStart < at { bytes.append(contentsOf: UnsafeBufferPointer(start: base + runStart, count: at - runStart)) }
                escaped.withUTF8Buffer { bytes.append(contentsOf: $0) }
                runStart = index
            }
            if runStart < count { bytes.append(contentsOf: UnsafeBufferPointer(start: base + runStart, count: count - runStart)) }
        }
    }

    /// Whether any byte of `word` is one `text` escapes (`< > & " '`): for each, the word XOR
    /// that byte repeated has a zero byte exactly where it occurs, found with the classic
    /// `(v - 0x01…) & ~v & 0x80…` test. Exact, no false positives.
    @inline(__always)
    private static func holdsEscapedByte(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        @inline(__always) func hasByte(_ byte: UInt8) -> UInt64 {
            let v = word ^ (ones &* UInt64(byte))
            return (v &- ones) & ~v & highs
        }
        return (hasByte(0x3C) | hasByte(0x3E) | hasByte(0x26) | hasByte(0x22) | hasByte(0x27)) != 0
    }

    /// A value escaped exactly as the Mustache templates escape it (`ByteHTMLContentType`): for
    /// pages that moved off a template and keep its bytes. It differs from `text` only for text
    /// beyond ASCII that holds one of the five, which goes Character by Character there.
    mutating func templateText(_ value: String) {
        trusted(ByteHTMLContentType().escapeText(value))
    }

    /// HTML that is already safe: cmark's safe-mode rendering of Content Markdown, or the output of
    /// another `HTMLWriter`. Never a value straight from Content.
    mutating func trusted(_ html: String) {
        var html = html
        html.withUTF8 { bytes.append(contentsOf: $0) }
    }

    mutating func trusted(_ other: HTMLWriter) {
        bytes.append(contentsOf: other.bytes)
    }

    /// Drops trailing spaces and newlines (the word diff ends every segment with a space).
    mutating func trimTrailingWhitespace() {
        while let last = bytes.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\n") { bytes.removeLast() }
    }

    /// The markup as a String. Files on disk take `bytes` directly: converting (and validating)
    /// cost ~270 K instructions per rule page.
    var string: String { String(decoding: bytes, as: UTF8.self) }
}
