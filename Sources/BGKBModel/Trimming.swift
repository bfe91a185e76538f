extension String {
    /// The text without the Unicode scalars of `set` at either end. By scalars, not Characters:
    /// a combining mark after a trimmed space stays, as every text heuristic here cuts text.
    public func trimmingCharacters(in set: String) -> String {
        let scalars = unicodeScalars
        var start = scalars.startIndex, end = scalars.endIndex
        while start < end, set.unicodeScalars.contains(scalars[start]) { start = scalars.index(after: start) }
        while end > start, set.unicodeScalars.contains(scalars[scalars.index(before: end)]) { end = scalars.index(before: end) }
        return start == scalars.startIndex && end == scalars.endIndex ? self : String(scalars[start..<end])
    }
}
