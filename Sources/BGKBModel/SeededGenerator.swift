/// SplitMix64: a tiny seeded generator, the same on every platform (the standard library's is not
/// seedable), so a session, a random schedule or a generated test input is a function of its seed.
/// Inlinable: the engine draws from it while it explores.
@frozen
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    @usableFromInline var state: UInt64

    @inlinable
    public init(seed: UInt64) { state = seed }

    @inlinable
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
