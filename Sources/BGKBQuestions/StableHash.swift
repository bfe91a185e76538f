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

/// SplitMix64: a tiny seeded generator, so a session is a function of its seed on every platform
/// (the standard library's generator is not seedable).
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
}
