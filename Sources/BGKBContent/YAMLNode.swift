import Yams

/// The parts of a YAML node that Content's readers use: what it holds, where it starts (1-based
/// line and column, in Unicode scalars, as libyaml counts), and its text. Made by `YAMLSubset` for
/// the plain shapes nearly every block has, and from Yams' `Node` for everything else.
struct YAMLNode: Equatable {
    struct Mark: Equatable, CustomStringConvertible {
        var line: Int
        var column: Int
        var description: String { "\(line):\(column)" }
    }

    struct Scalar: Equatable {
        var string: String
    }

    enum Content {
        case scalar(String)
        case sequence([YAMLNode])
        case mapping([Pair])
    }

    /// A key and its value. A struct, not a tuple: arrays of tuples are copied and destroyed
    /// through the runtime's generic tuple witnesses, element by element.
    struct Pair {
        var key: YAMLNode
        var value: YAMLNode
    }

    var content: Content
    var mark: Mark?
    /// What Yams' `Node.string` gives: a scalar's text (or a `=` key's value); nil otherwise.
    var string: String?

    init(_ content: Content, mark: Mark?) {
        self.content = content
        self.mark = mark
        if case let .scalar(text) = content { string = text }
    }

    init(_ node: Node) {
        let mark = node.mark.map { Mark(line: $0.line, column: $0.column) }
        switch node {
        case let .scalar(scalar):
            content = .scalar(scalar.string)
        case let .sequence(sequence):
            content = .sequence(sequence.map(YAMLNode.init))
        case let .mapping(mapping):
            content = .mapping(mapping.map { Pair(key: YAMLNode($0.key), value: YAMLNode($0.value)) })
        }
        self.mark = mark
        string = node.string
    }

    var scalar: Scalar? {
        if case let .scalar(text) = content { return Scalar(string: text) }
        return nil
    }

    var sequence: [YAMLNode]? {
        if case let .sequence(items) = content { return items }
        return nil
    }

    var mapping: [Pair]? {
        if case let .mapping(pairs) = content { return pairs }
        return nil
    }

    static func == (a: YAMLNode, b: YAMLNode) -> Bool {
        guard a.mark == b.mark, a.string == b.string else { return false }
        switch (a.content, b.content) {
        case let (.scalar(x), .scalar(y)): return x == y
        case let (.sequence(x), .sequence(y)): return x == y
        case let (.mapping(x), .mapping(y)):
            return x.count == y.count && zip(x, y).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: return false
        }
    }
}
