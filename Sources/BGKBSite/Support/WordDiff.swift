/// A word-level diff between two wordings, for the revision history of a rule. Words are compared
/// exactly; whitespace only separates them, so rewrapping a paragraph is not a change.
enum WordDiff {
    enum Operation: String, Sendable, Hashable {
        case same, inserted, deleted
    }

    struct Segment: Sendable, Hashable {
        var operation: Operation
        var text: String
    }

    /// The segments that turn `old` into `new`, adjacent words of one operation merged.
    static func diff(_ old: String, _ new: String) -> [Segment] {
        let a = words(old)
        let b = words(new)
        // Trim the common prefix and suffix first: most rewordings touch a few words of a long text.
        var prefix = 0
        while prefix < a.count, prefix < b.count, a[prefix] == b[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < a.count - prefix, suffix < b.count - prefix, a[a.count - 1 - suffix] == b[b.count - 1 - suffix] { suffix += 1 }
        let midA = Array(a[prefix..<(a.count - suffix)])
        let midB = Array(b[prefix..<(b.count - suffix)])

        var operations: [(Operation, String)] = a[..<prefix].map { (.same, $0) }
        operations += middle(midA, midB)
        operations += a[(a.count - suffix)...].map { (.same, $0) }

        var segments: [Segment] = []
        for (operation, word) in operations {
            if let last = segments.last, last.operation == operation {
                segments[segments.count - 1].text += " " + word
            } else {
                segments.append(Segment(operation: operation, text: word))
            }
        }
        return segments
    }

    /// Longest common subsequence over words; deletions before insertions where both occur.
    private static func middle(_ a: [String], _ b: [String]) -> [(Operation, String)] {
        if a.isEmpty { return b.map { (.inserted, $0) } }
        if b.isEmpty { return a.map { (.deleted, $0) } }
        // Past this size a full table costs too much memory; show it as a replacement instead.
        if a.count * b.count > 4_000_000 { return a.map { (.deleted, $0) } + b.map { (.inserted, $0) } }
        let columns = b.count + 1
        var table = [Int32](repeating: 0, count: (a.count + 1) * columns)
        for i in stride(from: a.count - 1, through: 0, by: -1) {
            for j in stride(from: b.count - 1, through: 0, by: -1) {
                table[i * columns + j] = a[i] == b[j]
                    ? table[(i + 1) * columns + j + 1] + 1
                    : max(table[(i + 1) * columns + j], table[i * columns + j + 1])
            }
        }
        var result: [(Operation, String)] = []
        var i = 0
        var j = 0
        while i < a.count, j < b.count {
            if a[i] == b[j] {
                result.append((.same, a[i])); i += 1; j += 1
            } else if table[(i + 1) * columns + j] >= table[i * columns + j + 1] {
                result.append((.deleted, a[i])); i += 1
            } else {
                result.append((.inserted, b[j])); j += 1
            }
        }
        while i < a.count { result.append((.deleted, a[i])); i += 1 }
        while j < b.count { result.append((.inserted, b[j])); j += 1 }
        return result
    }

    static func words(_ text: String) -> [String] {
        text.split(whereSeparator: { $0.isWhitespace }).map(String.init)
    }

    /// The diff as HTML (`<ins>`, `<del>`), every word escaped by the writer.
    static func html(_ old: String, _ new: String) -> String {
        var writer = HTMLWriter()
        write(old, new, into: &writer)
        return writer.string
    }

    static func write(_ old: String, _ new: String, into writer: inout HTMLWriter) {
        var diffWriter = HTMLWriter()
        for segment in diff(old, new) {
            switch segment.operation {
            case .same: diffWriter.text(segment.text)
            case .inserted: diffWriter.markup("<ins>"); diffWriter.text(segment.text); diffWriter.markup("</ins>")
            case .deleted: diffWriter.markup("<del>"); diffWriter.text(segment.text); diffWriter.markup("</del>")
            }
            diffWriter.markup(" ")
        }
        diffWriter.trimTrailingWhitespace()
        writer.trusted(diffWriter)
    }
}
