/// FNV-1a, 64 bits. Swift's `Hasher` is seeded per process, so it cannot name a question in a
/// file that outlives the process; this one gives the same value on every run and machine.
public struct StableHash: Sendable {
    private var state: UInt64 = 0xcbf2_9ce4_8422_2325

    public init() {}

    public mutating func combine(_ text: String) {
        for byte in text.utf8 { mix(byte) }
        // A separator, so ("ab", "c") and ("a", "bc") differ.
        mix(0x1f)
    }

    private mutating func mix(_ byte: UInt8) {
        state ^= UInt64(byte)
        state = state &* 0x0000_0100_0000_01b3
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

