import Dispatch

extension Array where Element: Sendable {
    /// `map(transform)` with the elements spread over the machine's cores; the result keeps the
    /// input's order, so output stays deterministic. For work that is independent per element
    /// (parsing one file).
    func concurrentMap<T: Sendable>(_ transform: @Sendable (Element) -> T) -> [T] {
        guard count > 1 else { return map(transform) }
        let results = UnsafeMutableBufferPointer<T?>.allocate(capacity: count)
        results.initialize(repeating: nil)
        defer { results.deallocate() }
        // Each iteration writes only its own slot, so the slots need no lock.
        nonisolated(unsafe) let slots = results
        withoutActuallyEscaping(transform) { transform in
            DispatchQueue.concurrentPerform(iterations: count) { index in
                slots[index] = transform(self[index])
            }
        }
        return results.compactMap { $0 }
    }
}
