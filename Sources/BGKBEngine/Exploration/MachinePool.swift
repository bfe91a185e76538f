import Foundation

/// A machine held by reference. Machines move between the pool and the explorations in boxes,
/// so handing one on never copies it (a copy is two dozen arrays retained, then released), and
/// two boxes' machines can be accessed at once (a child's machine copied from its parent's
/// where both stand), which two elements of one array cannot.
final class MachineBox {
    /// Unchecked: a box is used by one exploration at a time, one access at a time, so the
    /// runtime's exclusivity check on each access (several per run) checks nothing.
    @exclusivity(unchecked) var machine: Machine

    init(_ machine: Machine) {
        self.machine = machine
    }
}

/// Machines that finished an exploration, kept for the next one (on any thread, of any scenario).
/// An exploration uses two to five machines; made fresh, each would derive its scenario's tables
/// again and grow its two dozen arrays from nothing. A pooled machine keeps its arrays' capacity
/// and takes its scenario's tables from a template (`Machine.adopt(_:)`); every run starts with
/// `reset` or `copyState(from:)`, so what a machine ran before changes nothing.
/// `MachinePoolTests` explores with pooled machines after other scenarios and compares.
final class MachinePool: @unchecked Sendable {
    static let shared = MachinePool()

    private let lock = NSLock()
    private var spare: [MachineBox] = []
    /// Enough for every core's exploration at once; beyond that a machine is dropped, so a
    /// few very large machines cannot pile up.
    private let limit = 8 * ProcessInfo.processInfo.activeProcessorCount

    /// A machine of `template`'s scenario, constants and options: a kept one when there is one.
    func take(like template: borrowing Machine) -> MachineBox {
        lock.lock()
        let kept = spare.popLast()
        lock.unlock()
        guard let kept else { return MachineBox(copy template) }
        kept.machine.adopt(template)
        return kept
    }

    /// A machine that grew large (a scenario that ran towards the step limit: its trace alone
    /// can hold 200,000 events) is dropped rather than kept, so the pool never holds more than a
    /// few megabytes whatever Content asked of it.
    static let largestKept = 1 << 14

    func give(_ box: MachineBox) {
        guard box.machine.largestCapacity <= Self.largestKept else { return }
        lock.lock()
        defer { lock.unlock() }
        guard spare.count < limit else { return }
        spare.append(box)
    }

    /// Machines kept (for tests).
    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return spare.count
    }
}
