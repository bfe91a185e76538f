/// FNV-1a, 64 bits. Swift's `Hasher` is seeded per process, so it cannot name a question in a
/// file that outlives the process; this one gives the same value on every run and machine.
public struct StableHash: Sendable {
    private var state: UInt64 = 0xcbf2_9ce4_8422_2325

    public init() {}

    public mutating func combine(_ text: String) {
        // Over the bytes in place where the text has them (a native String always does): through
        // the UTF-8 view's iterator each byte cost 20 instructions, and every question hashes its
        // rule's whole wording for its version.
        let hashed: Void? = text.utf8.withContiguousStorageIfAvailable { bytes in
            var state = self.state
            for byte in bytes { state = (state ^ UInt64(byte)) &* Self.prime }
            self.state = state
        }
        if hashed == nil { for byte in text.utf8 { mix(byte) } }
        // A separator, so ("ab", "c") and ("a", "bc") differ.
        mix(0x1f)
    }

    private static let prime: UInt64 = 0x0000_0100_0000_01b3

    private mutating func mix(_ byte: UInt8) {
        state ^= UInt64(byte)
        state = state &* Self.prime
    }

    public var value: UInt64 { state }

    /// Sixteen lowercase hex digits.
    public var hex: String {
        let digits = String(state, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    public static func of(_ parts: String...) -> StableHash {
        var hash = StableHash()
        for part in parts { hash.combine(part) }
        return hash
    }
}

