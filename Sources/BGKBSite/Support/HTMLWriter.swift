/// Writes HTML (and SVG/XML) into a byte buffer with every value escaped. The hottest pages (one per
/// rule, with their timelines) are written with it instead of Mustache, which cost about 25 M
/// instructions per rule page in dictionary look-ups and dynamic casts.
///
/// Three ways in, so escaping cannot be forgotten: `markup` takes only string literals (the page's
/// own tags, checked by the compiler to be `StaticString`), `text` escapes any value exactly as
/// Mustache's `{{value}}` did (`< > & " '`), and `trusted` takes HTML that is safe by construction
/// (cmark's safe-mode output, or markup this writer produced).
struct HTMLWriter {
    /// The bytes, in storage of the writer's own: `Array.append(contentsOf:)` cost about 90
    /// instructions for every run of text, literal and number (a rule page appends about 1,500
    /// times), where a capacity check and a `memcpy` do. Copy on write, as an array is.
    private var storage: Storage

    /// What has been written (a copy: `withBytes` reads it in place).
    var bytes: [UInt8] { withBytes { Array($0) } }

    func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        // `storage` is held by this writer for the call, so the bytes stay where they are.
        try withExtendedLifetime(storage) { try body(UnsafeBufferPointer(start: storage.base, count: storage.count)) }
    }

    init(capacity: Int = 0) {
        storage = Storage(capacity: max(capacity, 64))
    }

    /// (Its fields are read and written only through a writer that holds it alone, checked with
    /// `isKnownUniquelyReferenced`: the run-time exclusivity checks would cost more than the
    /// appends they guard.)
    private final class Storage: @unchecked Sendable {
        @exclusivity(unchecked) var base: UnsafeMutablePointer<UInt8>
        @exclusivity(unchecked) var count = 0
        @exclusivity(unchecked) var capacity: Int

        init(capacity: Int) {
            self.capacity = capacity
            base = .allocate(capacity: capacity)
        }

        deinit { base.deallocate() }

        func copy(minimumCapacity: Int) -> Storage {
            let copy = Storage(capacity: max(capacity, minimumCapacity))
            copy.base.initialize(from: base, count: count)
            copy.count = count
            return copy
        }

        func grow(minimumCapacity: Int) {
            let larger = max(capacity * 2, minimumCapacity)
            let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: larger)
            moved.initialize(from: base, count: count)
            base.deallocate()
            base = moved
            capacity = larger
        }
    }

    /// Room for `extra` more bytes in storage this writer alone holds.
    @inline(__always)
    private mutating func reserve(_ extra: Int) {
        if !isKnownUniquelyReferenced(&storage) {
            storage = storage.copy(minimumCapacity: storage.count + extra)
        } else if storage.count + extra > storage.capacity {
            storage.grow(minimumCapacity: storage.count + extra)
        }
    }

    @inline(__always)
    private mutating func append(_ byte: UInt8) {
        reserve(1)
        storage.base[storage.count] = byte
        storage.count += 1
    }

    @inline(__always)
    private mutating func append(_ source: UnsafePointer<UInt8>, count: Int) {
        reserve(count)
        (storage.base + storage.count).update(from: source, count: count)
        storage.count += count
    }

    @inline(__always)
    private mutating func append(_ buffer: UnsafeBufferPointer<UInt8>) {
        guard let base = buffer.baseAddress else { return }
        append(base, count: buffer.count)
    }

    /// A coordinate as `Format.coordinate` writes it (tenths, no trailing `.0`), straight into
    /// the storage: the digits are counted first and written in place (through a buffer and a
    /// closure, a coordinate cost 180 instructions; a timeline writes a hundred).
    mutating func coordinate(_ value: Double) {
        guard value.isFinite, abs(value) < 1e15 else { append(UInt8(ascii: "0")); return }
        let tenths: Int
        let scaled = value * 10
        if scaled >= 0 && scaled < 1e15 {
            // Rounded half away from zero without libm's `round` (a call, and a third of a
            // coordinate's cost): below 2^52 the part after the point, `scaled - truncated`, is
            // exact, so comparing it with a half rounds exactly as `rounded()` does.
            let truncated = Int(scaled)
            tenths = scaled - Double(truncated) >= 0.5 ? truncated + 1 : truncated
        } else {
            tenths = Int(scaled.rounded())
        }
        if tenths >= 0 && tenths < HTMLWriter.coordinateWords.count {
            // Most coordinates (a timeline is 760 wide): the bytes made once, stored as a word.
            // The word's bytes past the length land in reserved room and are written over later.
            let entry = HTMLWriter.coordinateWords[tenths]
            reserve(8)
            UnsafeMutableRawPointer(storage.base + storage.count).storeBytes(of: (entry & 0x00FF_FFFF_FFFF_FFFF).littleEndian, as: UInt64.self)
            storage.count += Int(truncatingIfNeeded: entry >> 56)
            return
        }
        let magnitude = tenths.magnitude
        var whole = magnitude / 10
        let fraction = UInt8(truncatingIfNeeded: magnitude % 10)
        var digits = 1
        var probe = whole
        while probe >= 10 {
            probe /= 10
            digits += 1
        }
        // At most a sign, 15 digits, a point and a tenth.
        reserve(18)
        let start = storage.base + storage.count
        var length = 0
        if tenths < 0 {
            start[0] = UInt8(ascii: "-")
            length = 1
        }
        var position = length + digits
        repeat {
            position -= 1
            start[position] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: whole % 10)
            whole /= 10
        } while whole > 0
        length += digits
        if fraction != 0 {
            start[length] = UInt8(ascii: ".")
            start[length + 1] = UInt8(ascii: "0") + fraction
            length += 2
        }
        storage.count += length
    }

    /// Every coordinate from 0 to 819.1 as `coordinate` writes it, one word each: its bytes in
    /// the low bytes (first byte lowest), its length in the top byte. Writing the digits one by
    /// one cost about 150 instructions a coordinate, and a rule page writes about two hundred.
    private static let coordinateWords: [UInt64] = (0..<8192).map { tenths in
        var bytes = Array(String(tenths / 10).utf8)
        if tenths % 10 != 0 { bytes += [UInt8(ascii: "."), UInt8(ascii: "0") + UInt8(tenths % 10)] }
        var word = UInt64(bytes.count) << 56
        for (index, byte) in bytes.enumerated() { word |= UInt64(byte) << UInt64(8 * index) }
        return word
    }

    /// Markup written in the source code. Only literals can be passed, never a runtime value.
    /// Inlined where it is called, the literal's address and length are constants there, and
    /// the copy of a few bytes compiles to a move or two instead of a call to `memcpy` (a rule
    /// page makes about 900 of these calls; each cost about 70 instructions, in a closure).
    @inline(__always)
    mutating func markup(_ literal: StaticString) {
        if literal.hasPointerRepresentation {
            append(literal.utf8Start, count: literal.utf8CodeUnitCount)
        } else {
            // A literal of a single Unicode scalar is stored as the scalar, not as bytes.
            literal.withUTF8Buffer { append($0) }
        }
    }

    /// A value from Content, the engine or the configuration, HTML-escaped.
    mutating func text(_ value: String) {
        // The bytes in place, without a copy of the String to call the mutating `withUTF8` on
        // (its retain and release were a tenth of a call); a String without contiguous UTF-8
        // (bridged) is copied into some first.
        if value.utf8.withContiguousStorageIfAvailable({ escapeText($0) }) == nil {
            var value = value
            value.withUTF8 { escapeText($0) }
        }
    }

    private mutating func escapeText(_ buffer: UnsafeBufferPointer<UInt8>) {
        guard let base = buffer.baseAddress else { return }
        // Runs of bytes that need no escaping are copied whole (appending byte by byte was a
        // fifteenth of a warm build's instructions). Most values have nothing to escape, so
        // eight bytes at a time are first tested for any of the five (a word-wide zero-byte
        // test per escaped byte), and only a word that holds one is looked at byte by byte.
        var runStart = 0
        var index = 0
        let count = buffer.count
        let raw = UnsafeRawPointer(base)
        // The common value, with nothing to escape, is tested whole and copied at once: word by
        // word, then its last bytes as one word too (the last eight, overlapping what was tested,
        // or the whole value zero-padded when it is shorter), where the loop below tested them a
        // byte at a time. A timeline's many short labels and numbers took ~170 instructions each.
        while index + 8 <= count && !HTMLWriter.holdsEscapedByte(raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)) {
            index += 8
        }
        if index + 8 > count {
            let last = count >= 8 ? raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self) : HTMLWriter.loadPadded(raw, count: count)
            if !HTMLWriter.holdsEscapedByte(last) {
                if count <= 16 {
                    // A short value as the one or two words already loaded, not through `memcpy`
                    // (a call costing more than the rest for the timelines' short labels). The
                    // padding past `count` lands in room reserved for it and is then written over.
                    reserve(16)
                    let end = UnsafeMutableRawPointer(storage.base + storage.count)
                    if count >= 8 {
                        end.storeBytes(of: raw.loadUnaligned(as: UInt64.self), as: UInt64.self)
                        end.storeBytes(of: last, toByteOffset: count - 8, as: UInt64.self)
                    } else {
                        end.storeBytes(of: last.littleEndian, as: UInt64.self)
                    }
                    storage.count += count
                    return
                }
                append(base, count: count)
                return
            }
        }
        while index < count {
            if index + 8 <= count {
                // Past the bytes before the first escaped one in the next eight (the lowest
                // marked lane is exact), not one byte at a time.
                let escaped = HTMLWriter.escapedBytes(raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                if escaped == 0 {
                    index += 8
                    continue
                }
                index += escaped.trailingZeroBitCount >> 3
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
            if runStart < at { append(base + runStart, count: at - runStart) }
            escaped.withUTF8Buffer { append($0) }
            runStart = index
        }
        if runStart < count { append(base + runStart, count: count - runStart) }
    }

    /// The `count` (fewer than 8) bytes at `raw` in one word, the rest zero (a byte `text` never
    /// escapes). Which lane holds which byte does not matter to `holdsEscapedByte`.
    @inline(__always)
    private static func loadPadded(_ raw: UnsafeRawPointer, count: Int) -> UInt64 {
        var word: UInt64 = 0
        var offset = 0
        if count & 4 != 0 {
            word = UInt64(raw.loadUnaligned(as: UInt32.self))
            offset = 4
        }
        if count & 2 != 0 {
            word |= UInt64(raw.loadUnaligned(fromByteOffset: offset, as: UInt16.self)) << UInt64(offset * 8)
            offset += 2
        }
        if count & 1 != 0 {
            word |= UInt64(raw.load(fromByteOffset: offset, as: UInt8.self)) << UInt64(offset * 8)
        }
        return word
    }

    /// Whether any byte of `word` is one `text` escapes (`< > & " '`): for each, the word XOR
    /// that byte repeated has a zero byte exactly where it occurs, found with the classic
    /// `(v - 0x01…) & ~v & 0x80…` test. Exact as a yes or no.
    @inline(__always)
    private static func holdsEscapedByte(_ word: UInt64) -> Bool {
        escapedBytes(word) != 0
    }

    /// The high bit of each lane of `word` that holds one of the five, and possibly of lanes
    /// above such a lane (a borrow carries upward): the lowest marked lane is always one.
    @inline(__always)
    private static func escapedBytes(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        @inline(__always) func hasByte(_ byte: UInt8) -> UInt64 {
            let v = word ^ (ones &* UInt64(byte))
            return (v &- ones) & ~v & highs
        }
        return hasByte(0x3C) | hasByte(0x3E) | hasByte(0x26) | hasByte(0x22) | hasByte(0x27)
    }

    /// HTML that is already safe: cmark's safe-mode rendering of Content Markdown, or the output of
    /// another `HTMLWriter`. Never a value straight from Content.
    mutating func trusted(_ html: String) {
        var html = html
        html.withUTF8 { append($0) }
    }

    /// Bytes that are already safe HTML (cmark's safe-mode rendering).
    mutating func trusted(_ html: UnsafeBufferPointer<UInt8>) {
        append(html)
    }

    mutating func trusted(_ other: HTMLWriter) {
        // `other` keeps its storage alive through the call; a writer appending itself copies
        // first (its storage is not held alone), so the source is never the storage that grows.
        let source = other.storage
        append(UnsafePointer(source.base), count: source.count)
    }

    /// Drops trailing spaces and newlines (the word diff ends every segment with a space).
    mutating func trimTrailingWhitespace() {
        reserve(0)
        while storage.count > 0, storage.base[storage.count - 1] == UInt8(ascii: " ") || storage.base[storage.count - 1] == UInt8(ascii: "\n") {
            storage.count -= 1
        }
    }

    /// The markup as a String. Files on disk take the bytes directly (`SiteSink.emit`): converting
    /// (and validating) cost ~270 K instructions per rule page.
    var string: String { String(decoding: UnsafeBufferPointer(start: storage.base, count: storage.count), as: UTF8.self) }
}
