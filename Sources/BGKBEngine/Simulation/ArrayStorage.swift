/// Empties an array and keeps its storage, so the next run fills it without allocating.
@inline(__always)
func clear<Element>(_ array: inout [Element]) {
    if !array.isEmpty { array.removeAll(keepingCapacity: true) }
}

/// Makes `array` equal to `source` inside `array`'s own storage (kept, and grown only when too
/// small), so copying a paused machine into a pooled one allocates nothing once it has grown.
/// `source` is `inout` only so that passing it neither copies nor retains it; it is not changed.
/// The array is first cut or padded to `source`'s length, then overwritten element by element:
/// appending `source` whole would retain and release its storage on every copy.
@inline(__always)
func copy<Element>(_ array: inout [Element], _ source: inout [Element]) {
    if array.count > source.count {
        array.removeLast(array.count - source.count)
    } else if array.count < source.count {
        array.append(contentsOf: repeatElement(source[array.count], count: source.count - array.count))
    }
    for index in source.indices { array[index] = source[index] }
}
