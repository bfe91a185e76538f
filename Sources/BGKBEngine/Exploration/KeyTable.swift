/// A key the memo's `KeyTable` can hold: equal keys give equal `hashBits`.
protocol TableKey: Equatable {
    /// The key's bits, mixed; the table multiplies them once more to pick a slot.
    var hashBits: UInt64 { get }
}

/// A map from keys to non-negative numbers, by open addressing with linear probing and a
/// multiplicative hash: the explorer asks it for a memo key on nearly every schedule, and
/// `Dictionary`'s general-purpose hashing costs several times more per lookup. The table doubles
/// when half full. Values must be non-negative: a negative value marks an empty slot.
struct KeyTable<Key: TableKey> {
    private struct Slot {
        var key: Key
        var value: Int32
    }
    private var slots: [Slot]
    private var count = 0

    /// `capacity`: slots to start with, a power of two; `placeholder` fills the empty ones.
    init(capacity: Int, placeholder: Key) {
        precondition(capacity > 0 && capacity & (capacity - 1) == 0, "capacity must be a power of two")
        slots = [Slot](repeating: Slot(key: placeholder, value: -1), count: capacity)
    }

    private func start(_ key: Key) -> Int {
        Int(truncatingIfNeeded: (key.hashBits &* 0x9E37_79B9_7F4A_7C15) >> 32) & (slots.count - 1)
    }

    @inline(__always)
    func find(_ key: Key) -> Int32? {
        var position = start(key)
        while true {
            let slot = slots[position]
            if slot.value < 0 { return nil }
            if slot.key == key { return slot.value }
            position = (position + 1) & (slots.count - 1)
        }
    }

    /// Adds `key`, which must not be in the table yet.
    mutating func insert(_ key: Key, value: Int32) {
        precondition(value >= 0)
        if (count + 1) * 2 > slots.count {
            let old = slots
            slots = [Slot](repeating: Slot(key: key, value: -1), count: old.count * 2)
            count = 0
            for slot in old where slot.value >= 0 { place(slot) }
        }
        place(Slot(key: key, value: value))
    }

    private mutating func place(_ slot: Slot) {
        var position = start(slot.key)
        while slots[position].value >= 0 { position = (position + 1) & (slots.count - 1) }
        slots[position] = slot
        count += 1
    }
}

/// A forced expiry's time, as a memo key. Equal times are equal keys (-0 is 0).
struct ForcedExpiryKey: TableKey {
    let bits: UInt64
    init(_ time: Double) { bits = (time == 0 ? 0 : time).bitPattern }
    var hashBits: UInt64 { bits ^ bits >> 29 }
}

/// A schedule one choice deeper than its parent's: the parent's memo key, the decision where it
/// deviates and the alternative it takes there.
struct ChildKey: TableKey {
    var parent: Int32
    var index: Int32
    var choice: UInt8
    var hashBits: UInt64 {
        let packed = UInt64(UInt32(bitPattern: parent)) << 32 | UInt64(UInt32(bitPattern: index))
        return packed ^ UInt64(choice) &* 0xFF51_AFD7_ED55_8CCD
    }
}
