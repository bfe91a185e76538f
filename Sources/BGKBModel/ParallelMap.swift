import Dispatch
import Foundation

/// `map` over all cores with results in input order: the output is the same as a serial `map`.
/// For work that is independent per element (a file to parse, a page to render, a rule's
/// questions); every module that spreads work over the cores uses this one.
public enum ParallelMap {
    public static func map<Input: Sendable, Output: Sendable>(_ inputs: [Input], _ transform: @Sendable (Input) -> Output) -> [Output] {
        let count = inputs.count
        guard count > 1 else { return inputs.map(transform) }
        let slots = Slots<Output>(count: count)
        // Small chunks: items can differ a lot in cost (one rule's examples explore thousands of
        // schedules, another's a hundred), and with a few large chunks one core ends up alone
        // with the last of them. A core takes the next chunk when it is done with one, so the
        // cores finish at most a chunk apart; at least 64 chunks a core keeps that tail short.
        let chunk = max(1, min(16, count / (ProcessInfo.processInfo.activeProcessorCount * 64)))
        let chunks = (count + chunk - 1) / chunk
        DispatchQueue.concurrentPerform(iterations: chunks) { index in
            let start = index * chunk
            for position in start..<min(count, start + chunk) {
                slots.set(position, transform(inputs[position]))
            }
        }
        return slots.values()
    }

    /// One slot per input; each slot is written by exactly one iteration, under a lock.
    private final class Slots<Value: Sendable>: @unchecked Sendable {
        private var storage: [Value?]
        private let lock = NSLock()

        init(count: Int) { storage = Array(repeating: nil, count: count) }

        func set(_ index: Int, _ value: Value) {
            lock.lock()
            storage[index] = value
            lock.unlock()
        }

        func values() -> [Value] {
            lock.lock()
            defer { lock.unlock() }
            return storage.compactMap { $0 }
        }
    }
}
