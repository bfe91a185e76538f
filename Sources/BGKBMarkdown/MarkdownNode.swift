/// A Markdown block or inline, as cmark parsed it, in plain Swift values.
public struct MarkdownNode: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
        case document, blockQuote, list(ordered: Bool), item, htmlBlock
        /// `fence` is the opening fence (```` ``` ````, `~~~~`), empty for an indented block.
        case codeBlock(info: String, fence: String)
        case paragraph, heading(level: Int), thematicBreak
        case text, softBreak, lineBreak, code, htmlInline, emphasis, strong
        case link(destination: String, title: String), image(destination: String, title: String)
        case other
    }

    public var kind: Kind
    /// Text of text, code, code-block and HTML nodes; empty for containers.
    public var literal: String
    public var children: [MarkdownNode]
    /// Where the node starts. cmark gives positions for blocks only: inlines carry their block's.
    public var start: Position
    public var end: Position

    public init(kind: Kind, literal: String = "", children: [MarkdownNode] = [], start: Position, end: Position) {
        self.kind = kind
        self.literal = literal
        self.children = children
        self.start = start
        self.end = end
    }

    /// The node's text with inline markup removed; soft and hard breaks become `\n`.
    public var plainText: String {
        switch kind {
        case .text, .code, .codeBlock: return literal
        case .softBreak, .lineBreak: return "\n"
        case .htmlInline, .htmlBlock: return ""
        default:
            var gathered = PlainTextBytes()
            _ = read(into: &gathered)
            return String(decoding: gathered.bytes, as: UTF8.self)
        }
    }

    /// `plainText.utf8.count`, without making the text.
    public var plainTextByteCount: Int {
        switch kind {
        case .text, .code, .codeBlock: return literal.utf8.count
        case .softBreak, .lineBreak: return 1
        case .htmlInline, .htmlBlock: return 0
        default:
            let separated = isBlock && children.contains(where: \.isBlock)
            var count = 0
            for index in children.indices { count += children[index].plainTextByteCount }
            return count + (separated && children.count > 1 ? 2 * (children.count - 1) : 0)
        }
    }

    /// `nodes.map(\.plainText).joined()`, gathered into one buffer (no String per node, and no
    /// join of them).
    public static func plainText(of nodes: ArraySlice<MarkdownNode>) -> String {
        var gathered = PlainTextBytes()
        _ = read(nodes, separated: false, into: &gathered)
        return String(decoding: gathered.bytes, as: UTF8.self)
    }

    /// The first line of `plainText` trimmed of spaces, tabs and line feeds at both ends, the
    /// lines split at line feeds (Unicode scalars: a `\r\n` pair ends a line too), or "" when
    /// nothing is left: read from the pieces of the text only until the line is known, so a long
    /// paragraph is not made into text to be cut.
    public var plainTextFirstLine: String {
        var reader = FirstLineReader()
        _ = read(into: &reader)
        return reader.line
    }

    /// The pieces of `plainText`, in order, handed to `reader` until it wants no more (false).
    private func read<Reader: PlainTextReader>(into reader: inout Reader) -> Bool {
        switch kind {
        case .text, .code, .codeBlock: return reader.read(literal)
        case .softBreak, .lineBreak: return reader.read("\n")
        case .htmlInline, .htmlBlock: return true
        default: return Self.read(children[...], separated: isBlock && children.contains(where: \.isBlock), into: &reader)
        }
    }

    /// The nodes' plain texts in order, `\n\n` between them when `separated`. The nodes are read
    /// where they are in the array, field by field, not copied whole.
    private static func read<Reader: PlainTextReader>(_ nodes: ArraySlice<MarkdownNode>, separated: Bool, into reader: inout Reader) -> Bool {
        for index in nodes.indices {
            if separated, index > nodes.startIndex, !reader.read("\n\n") { return false }
            switch nodes[index].kind {
            case .text, .code, .codeBlock:
                if !reader.read(nodes[index].literal) { return false }
            case .softBreak, .lineBreak:
                if !reader.read("\n") { return false }
            case .htmlInline, .htmlBlock:
                break
            default:
                let isBlock = nodes[index].isBlock
                let children = nodes[index].children
                if !read(children[...], separated: isBlock && children.contains(where: \.isBlock), into: &reader) { return false }
            }
        }
        return true
    }

    public var isBlock: Bool {
        switch kind {
        case .document, .blockQuote, .list, .item, .codeBlock, .htmlBlock, .paragraph, .heading, .thematicBreak: return true
        default: return false
        }
    }

    /// The literals of the code spans in the node and its descendants, in document order.
    public func appendCodeSpanLiterals(to literals: inout [String]) {
        if case .code = kind { literals.append(literal) }
        Self.appendCodeSpanLiterals(of: children, to: &literals)
    }

    /// The nodes read where they are in the array, not copied whole.
    private static func appendCodeSpanLiterals(of nodes: [MarkdownNode], to literals: inout [String]) {
        for index in nodes.indices {
            if case .code = nodes[index].kind { literals.append(nodes[index].literal) }
            appendCodeSpanLiterals(of: nodes[index].children, to: &literals)
        }
    }

    /// Visits the node and all its descendants, depth first, in document order.
    public func forEach(_ body: (MarkdownNode) -> Void) {
        body(self)
        for child in children { child.forEach(body) }
    }
}

/// 1-based line and column; the column counts Characters from the start of the line.
public struct Position: Hashable, Sendable, Comparable {
    public var line: Int
    public var column: Int
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }
    public static func < (lhs: Position, rhs: Position) -> Bool { (lhs.line, lhs.column) < (rhs.line, rhs.column) }
}

/// Takes the pieces of a plain text in order; false once it needs no more of them.
private protocol PlainTextReader {
    mutating func read(_ piece: String) -> Bool
}

/// Every piece's bytes, in one buffer.
private struct PlainTextBytes: PlainTextReader {
    var bytes: [UInt8] = []

    init() { bytes.reserveCapacity(256) }

    mutating func read(_ piece: String) -> Bool {
        bytes.append(contentsOf: piece.utf8)
        return true
    }
}

/// The pieces of a plain text through its first line and the first byte after that line that
/// trimming keeps (then the line is known to keep its own trailing blanks), or to the end. The
/// blanks and the line feed are ASCII, so the bytes are read as UTF-8.
private struct FirstLineReader: PlainTextReader {
    var bytes: [UInt8] = []
    /// The line's first byte that is not blank, once read.
    var lineStart: Int?
    /// The line feed that ends the line, once read.
    var lineEnd: Int?
    /// Whether a byte trimming keeps follows the line feed.
    var followed = false

    init() { bytes.reserveCapacity(256) }

    static func isBlank(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\t")
    }

    mutating func read(_ piece: String) -> Bool {
        var index = bytes.count
        bytes.append(contentsOf: piece.utf8)
        if lineStart == nil {
            while index < bytes.count, Self.isBlank(bytes[index]) { index += 1 }
            guard index < bytes.count else { return true }
            lineStart = index
        }
        if lineEnd == nil {
            while index < bytes.count, bytes[index] != UInt8(ascii: "\n") { index += 1 }
            guard index < bytes.count else { return true }
            lineEnd = index
            index += 1
        }
        while index < bytes.count, Self.isBlank(bytes[index]) { index += 1 }
        followed = index < bytes.count
        return !followed
    }

    /// The line; without its trailing blanks when nothing but blanks follows it (trimming reaches it).
    var line: String {
        guard let start = lineStart else { return "" }
        var end = lineEnd ?? bytes.count
        if !followed {
            while end > start, Self.isBlank(bytes[end - 1]) { end -= 1 }
        }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }
}
