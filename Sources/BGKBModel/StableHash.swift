/// FNV-1a, 64 bits: the project's one stable hash. Swift's `Hasher` is seeded per process, so it
/// cannot name anything that outlives the process; this gives the same value on every run and
/// machine. Quiz question ids are made with it and learners' progress files are keyed by those
/// ids, so its values must never change.
public struct StableHash: Sendable {
    @usableFromInline var state: UInt64 = 0xcbf2_9ce4_8422_2325

    @inlinable public init() {}

    /// A hash that goes on from `value` (one made by this type): hashing A then B this way is
    /// hashing A and B at once.
    @inlinable public init(continuing value: UInt64) {
        state = value
    }

    /// Mixes in the text's UTF-8 bytes, then a separator byte (0x1F), so ("ab", "c") and
    /// ("a", "bc") differ.
    @inlinable public mutating func combine(_ text: String) {
        combine(bytes: text.utf8)
        combine(bytes: CollectionOfOne(0x1f))
    }

    /// Mixes in bytes as they are, without a separator, read where they lie (a String's UTF-8,
    /// an array) rather than through a collection's iterator. Inlinable so that each caller's
    /// collection type gets a specialised loop rather than a generic one across the module
    /// boundary.
    @inlinable public mutating func combine(bytes: some Collection<UInt8>) {
        state = Bytes.withContiguousBytes(of: bytes) { buffer in
            var state = self.state
            for byte in buffer { state = (state ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
            return state
        }
    }

    /// Mixes in an integer's bytes, least significant first, without a separator (a fixed width
    /// needs none): for fingerprints made of many small fields.
    @inlinable public mutating func combine<T: FixedWidthInteger>(integer value: T) {
        var state = self.state
        var rest = value
        for _ in 0..<(T.bitWidth / 8) {
            state = (state ^ UInt64(truncatingIfNeeded: rest & 0xff)) &* 0x0000_0100_0000_01b3
            rest >>= 8
        }
        self.state = state
    }

    @inlinable public var value: UInt64 { state }

    /// Sixteen lowercase hex digits.
    public var hex: String {
        let digits = String(state, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// The hash of the parts, each followed by the separator.
    public static func of(_ parts: String...) -> StableHash {
        var hash = StableHash()
        for part in parts { hash.combine(part) }
        return hash
    }

    /// The plain FNV-1a of the text's bytes (no separator): for seeds derived from a text.
    public static func fnv1a(_ text: String) -> UInt64 {
        var hash = StableHash()
        hash.combine(bytes: text.utf8)
        return hash.value
    }
}
