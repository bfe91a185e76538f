#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one home for byte-level code: the few primitives over UTF-8 bytes that the pipeline, the
/// site and the quiz call on every rule, written once against the bytes in place. Everything
/// outside this file (and the cmark converter, and the files that make system calls) works on
/// `String`, `[UInt8]` and their slices in plain Swift and calls these.
///
/// It lives in BGKBModel because every module depends on that one; a module of its own would
/// add a target for a single file.
public enum Bytes {
    /// The Unicode scalar that starts at `index` in `bytes` (valid UTF-8, as a String's are) and
    /// its length in bytes; U+FFFD and 1 where the bytes are not valid there.
    public static func scalar(at index: Int, in bytes: [UInt8]) -> (scalar: Unicode.Scalar, length: Int) {
        var iterator = bytes[index..<min(index + 4, bytes.count)].makeIterator()
        var decoder = UTF8()
        guard case let .scalarValue(scalar) = decoder.decode(&iterator) else { return ("\u{FFFD}", 1) }
        return (scalar, UTF8.width(scalar))
    }

    /// The offset of the first `byte` at or after `start`, or nil.
    public static func firstOffset(of byte: UInt8, in text: String, from start: Int = 0) -> Int? {
        firstOffset(of: CollectionOfOne(byte), in: text.utf8, from: start)
    }

    /// The offset of the first occurrence of `needle` (non-empty) at or after `start` in
    /// `haystack`, or nil. Offsets count from the collection's first element. (Inlinable, so a
    /// caller in another module gets it specialized for its collections.)
    @inlinable
    public static func firstOffset(of needle: some Collection<UInt8>, in haystack: some Collection<UInt8>, from start: Int = 0) -> Int? {
        withContiguousBytes(of: needle) { pattern in
            withContiguousBytes(of: haystack) { search(pattern, in: $0, from: start) }
        }
    }

    /// Whether `needle` occurs in `haystack`.
    @inlinable
    public static func contains(_ needle: some Collection<UInt8>, in haystack: some Collection<UInt8>) -> Bool {
        firstOffset(of: needle, in: haystack) != nil
    }

    /// Whether the literal `needle` occurs in `haystack`.
    @inlinable
    public static func contains(_ needle: StaticString, in haystack: some Collection<UInt8>) -> Bool {
        needle.withUTF8Buffer { pattern in withContiguousBytes(of: haystack) { search(pattern, in: $0, from: 0) } } != nil
    }

    /// `body` over the bytes in place, or over a copy when they are not contiguous.
    @inlinable
    static func withContiguousBytes<Result>(of bytes: some Collection<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        if let result = bytes.withContiguousStorageIfAvailable(body) { return result }
        return Array(bytes).withUnsafeBufferPointer(body)
    }

    /// Each candidate position found by `memchr` on the needle's first byte, then compared.
    @usableFromInline
    static func search(_ pattern: UnsafeBufferPointer<UInt8>, in buffer: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard let first = pattern.first, let base = buffer.baseAddress, start >= 0, pattern.count <= buffer.count else { return nil }
        let last = buffer.count - pattern.count
        var index = start
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

    /// Bit n set when byte n (below 64) is one `ByteBuffer.appendHTMLEscaped` escapes: `"` 34,
    /// `&` 38, `'` 39, `<` 60, `>` 62.
    static let htmlSpecialMask: UInt64 = 0x5000_00C4_0000_0000

    /// Appends `text` as the inside of a JSON string, escaped as `JSONEncoder` escapes it: the
    /// quote, the backslash and control characters; slashes and non-ASCII are left as they are.
    public static func appendJSONEscaped(_ text: String, to out: inout [UInt8]) {
        withContiguousBytes(of: text.utf8) { buffer in
            var runStart = 0
            for index in 0..<buffer.count {
                let byte = buffer[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[runStart..<index]))
                runStart = index + 1
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), byte]
                case 0x08: out += [UInt8(ascii: "\\"), UInt8(ascii: "b")]
                case 0x0C: out += [UInt8(ascii: "\\"), UInt8(ascii: "f")]
                case 0x0A: out += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
                case 0x0D: out += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
                case 0x09: out += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
                default: out += [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0xF)]]
                }
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[runStart...]))
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// Appends the bytes of a string literal. Inlinable: pages call it for every piece of markup,
    /// and across the module boundary each call would go through an unspecialised function.
    @inlinable
    public static func append(_ literal: StaticString, to out: inout [UInt8]) {
        literal.withUTF8Buffer { out.append(contentsOf: $0) }
    }

    /// Whether the UTF-8 bytes of `a` and `b` are equal once every run of ASCII digits in each
    /// counts as the same, whatever its length (`task 9 ended` and `task 10 ended` are).
    public static func equalExceptDigitRuns(_ a: String, _ b: String) -> Bool {
        func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
        return withContiguousBytes(of: a.utf8) { x in
            withContiguousBytes(of: b.utf8) { y in
                var i = 0, j = 0
                while i < x.count && j < y.count {
                    if isDigit(x[i]) && isDigit(y[j]) {
                        repeat { i += 1 } while i < x.count && isDigit(x[i])
                        repeat { j += 1 } while j < y.count && isDigit(y[j])
                    } else if x[i] == y[j] {
                        i += 1
                        j += 1
                    } else {
                        return false
                    }
                }
                return i == x.count && j == y.count
            }
        }
    }

    /// `text` with each run of whitespace made one space and whitespace at either end dropped.
    /// Whitespace is decided per Unicode scalar (the White_Space property), not per Character: a
    /// combining mark after a space is kept and starts the next word. ASCII bytes are answered as
    /// they are; only a byte that starts a non-ASCII scalar is decoded.
    public static func collapsingWhitespace(_ text: String) -> String {
        let collapsed = withContiguousBytes(of: text.utf8) { buffer in
            [UInt8](unsafeUninitializedCapacity: buffer.count) { out, count in
                var kept = 0
                var pendingSpace = false
                var index = 0
                while index < buffer.count {
                    let byte = buffer[index]
                    var length = 1
                    let isSpace: Bool
                    if byte > 0x20 && byte < 0x80 {
                        isSpace = false
                    } else if byte < 0x80 {
                        isSpace = byte == 0x20 || (0x09...0x0D).contains(byte)
                    } else {
                        var iterator = buffer[index..<min(index + 4, buffer.count)].makeIterator()
                        var decoder = UTF8()
                        if case let .scalarValue(scalar) = decoder.decode(&iterator) {
                            isSpace = scalar.properties.isWhitespace
                            length = UTF8.width(scalar)
                        } else {
                            isSpace = false
                        }
                    }
                    if isSpace {
                        pendingSpace = kept > 0
                    } else {
                        if pendingSpace {
                            out[kept] = UInt8(ascii: " ")
                            kept += 1
                            pendingSpace = false
                        }
                        if length == 1 {
                            out[kept] = byte
                        } else {
                            for offset in 0..<length { out[kept + offset] = buffer[index + offset] }
                        }
                        kept += length
                    }
                    index += length
                }
                count = kept
            }
        }
        return String(decoding: collapsed, as: UTF8.self)
    }
}

extension Bytes {
    /// Whether `bytes` are exactly the UTF-8 of `literal`: a keyword matched where it lies in a
    /// text, with no String made. Inlinable, so a caller gets it specialized and the length
    /// decides most mismatches at once.
    @inlinable
    public static func equals(_ bytes: ArraySlice<UInt8>, _ literal: StaticString) -> Bool {
        literal.withUTF8Buffer { $0.count == bytes.count && $0.elementsEqual(bytes) }
    }
}

extension Bytes {
    /// The offset of every `byte` in `bytes`, in order, each found by `memchr` from just after
    /// the one before (a text's line feeds, say, without a test of every byte in Swift).
    public static func offsets(of byte: UInt8, in bytes: [UInt8]) -> [Int] {
        bytes.withUnsafeBufferPointer { buffer in
            var offsets: [Int] = []
            guard let base = buffer.baseAddress else { return offsets }
            var index = 0
            while index < buffer.count, let found = memchr(base + index, Int32(byte), buffer.count - index) {
                index = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                offsets.append(index)
                index += 1
            }
            return offsets
        }
    }
}

/// A growing run of bytes with exactly one owner (`~Copyable`), for writing a file piece by piece:
/// a page, its SVG, a feed. `[UInt8]` may share its storage, so each append asks the runtime
/// whether the storage is shared before it writes; this buffer cannot be shared, so an append is
/// a capacity test and a copy. Hand the bytes on with `withUnsafeBytes` or `array`.
public struct ByteBuffer: ~Copyable {
    @usableFromInline var start: UnsafeMutablePointer<UInt8>
    @usableFromInline var used: Int
    @usableFromInline var capacity: Int

    public init(capacity: Int = 64) {
        self.capacity = max(capacity, 16)
        start = .allocate(capacity: self.capacity)
        used = 0
    }

    deinit { start.deallocate() }

    /// How many bytes have been written.
    public var count: Int { used }

    /// The last byte written, if any.
    public var last: UInt8? { used == 0 ? nil : start[used - 1] }

    public mutating func removeLast() {
        precondition(used > 0, "removeLast on an empty ByteBuffer")
        used -= 1
    }

    @inlinable
    public mutating func append(_ byte: UInt8) {
        if used == capacity { grow(toHold: 1) }
        start[used] = byte
        used += 1
    }

    /// The bytes of a string literal. Inlinable, so a page's markup is copied without a call
    /// through an unspecialized function in this module.
    @inlinable
    public mutating func append(_ literal: StaticString) {
        literal.withUTF8Buffer { append($0) }
    }

    @inlinable
    public mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        let count = bytes.count
        guard count > 0, let source = bytes.baseAddress else { return }
        if capacity - used < count { grow(toHold: count) }
        (start + used).initialize(from: source, count: count)
        used += count
    }

    /// Bytes of any collection: copied in place when they are contiguous (a rendered page from
    /// cmark, a slice of an array).
    @inlinable
    public mutating func append(contentsOf bytes: some Collection<UInt8>) {
        Bytes.withContiguousBytes(of: bytes) { append($0) }
    }

    /// The UTF-8 of `text`, as it is.
    public mutating func append(_ text: String) {
        Bytes.withContiguousBytes(of: text.utf8) { append($0) }
    }

    /// Another buffer's bytes.
    public mutating func append(_ other: borrowing ByteBuffer) {
        append(UnsafeBufferPointer(start: other.start, count: other.used))
    }

    /// `text` with `< > & " '` escaped as `&lt; &gt; &amp; &quot; &#39;`. Runs without any of them
    /// are copied whole.
    public mutating func appendHTMLEscaped(_ text: String) {
        Bytes.withContiguousBytes(of: text.utf8) { appendHTMLEscaped($0) }
    }

    /// `value` in decimal digits, without leading zeros (`0` for zero).
    public mutating func appendDecimal(_ value: UInt64) {
        var digitCount = 1
        var rest = value / 10
        while rest > 0 {
            digitCount += 1
            rest /= 10
        }
        if capacity - used < digitCount { grow(toHold: digitCount) }
        // Written from the last digit back.
        var position = start + used + digitCount
        rest = value
        repeat {
            position -= 1
            position.pointee = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
        } while rest > 0
        used += digitCount
    }

    /// `body` over the bytes written so far.
    public func withUnsafeBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        try body(UnsafeBufferPointer(start: start, count: used))
    }

    /// A copy of the bytes as an array.
    public var array: [UInt8] { withUnsafeBytes { Array($0) } }

    /// The bytes as a String (invalid UTF-8 repaired with U+FFFD).
    public var string: String { withUnsafeBytes { String(decoding: $0, as: UTF8.self) } }

    /// Room for at least `extra` more bytes: the capacity doubles (or more when `extra` needs it),
    /// so appending n bytes one at a time copies each byte a constant number of times on average.
    @usableFromInline
    mutating func grow(toHold extra: Int) {
        let newCapacity = max(capacity * 2, used + extra)
        let newStart = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newStart.initialize(from: start, count: used)
        start.deallocate()
        start = newStart
        capacity = newCapacity
    }
}

extension ByteBuffer {
    /// Part of a text's UTF-8 (its bytes copied into an array), escaped as
    /// `appendHTMLEscaped(_: String)` escapes a String: a token of highlighted code is written
    /// from the code's bytes, without a String made for each token.
    public mutating func appendHTMLEscaped(_ bytes: ArraySlice<UInt8>) {
        bytes.withUnsafeBufferPointer { appendHTMLEscaped($0) }
    }

    /// The escape of `< > & " '` over bytes in place, for the String and the slice alike. Runs
    /// without any of them are copied whole.
    mutating func appendHTMLEscaped(_ buffer: UnsafeBufferPointer<UInt8>) {
        var runStart = 0
        for index in 0..<buffer.count {
            // The five bytes to escape are all below 64: one shift and test passes every other byte.
            let byte = buffer[index]
            guard byte < 64, Bytes.htmlSpecialMask >> byte & 1 != 0 else { continue }
            let escaped: StaticString
            switch byte {
            case UInt8(ascii: "<"): escaped = "&lt;"
            case UInt8(ascii: ">"): escaped = "&gt;"
            case UInt8(ascii: "&"): escaped = "&amp;"
            case UInt8(ascii: "\""): escaped = "&quot;"
            case UInt8(ascii: "'"): escaped = "&#39;"
            default: continue
            }
            append(UnsafeBufferPointer(rebasing: buffer[runStart..<index]))
            append(escaped)
            runStart = index + 1
        }
        append(UnsafeBufferPointer(rebasing: buffer[runStart...]))
    }
}
