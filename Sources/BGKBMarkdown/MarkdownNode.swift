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
            var bytes: [UInt8] = []
            bytes.reserveCapacity(256)
            var scan: FirstLineScan?
            appendPlainText(to: &bytes, scan: &scan)
            return String(decoding: bytes, as: UTF8.self)
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
        var bytes: [UInt8] = []
        bytes.reserveCapacity(256)
        var scan: FirstLineScan?
        for node in nodes { node.appendPlainText(to: &bytes, scan: &scan) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The start of `plainText`: at least through the end of its first non-blank line and the
    /// first ASCII non-blank character after that line's `\n`, or the whole text when it has no
    /// such character. Whatever the first line of `plainText` is (after trimming), this prefix has
    /// the same first line, for a fraction of the work on a long paragraph.
    public var plainTextThroughFirstLine: String {
        var bytes: [UInt8] = []
        var scan: FirstLineScan? = FirstLineScan()
        appendPlainText(to: &bytes, scan: &scan)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Where the scan is: still in leading blanks, in the first line, after its line break, done.
    struct FirstLineScan {
        var sawContent = false
        var sawBreak = false
        var done = false
        var previous: UInt8 = 0

        /// Reads a piece before it is appended; the number of its bytes to append: all of them,
        /// or (once nothing more is needed) those through the byte that ended the scan. Errs
        /// towards reading on: `\r` counts as blank, and `\r\n` (one Character, not a line break
        /// for a reader of Characters) does not end the line.
        mutating func read(_ piece: String.UTF8View) -> Int {
            var count = 0
            for byte in piece {
                count += 1
                defer { previous = byte }
                let blank = byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
                if !sawContent {
                    if !blank { sawContent = true }
                } else if !sawBreak {
                    if byte == UInt8(ascii: "\n") && previous != UInt8(ascii: "\r") { sawBreak = true }
                } else if !blank && byte < 0x80 {
                    done = true
                    return count
                }
            }
            return count
        }
    }

    /// `plainText`, appended into one buffer of bytes rather than joined level by level; with a
    /// `scan`, it stops once the scan has read enough (`plainTextThroughFirstLine`), and a long
    /// piece (a code block) is copied only through the byte that ended it. The pieces are
    /// Strings, so their bytes, and the bytes of any run of them, are valid UTF-8.
    private func appendPlainText(to bytes: inout [UInt8], scan: inout FirstLineScan?) {
        switch kind {
        case .text, .code, .codeBlock: Self.append(literal, to: &bytes, scan: &scan)
        case .softBreak, .lineBreak: Self.append("\n", to: &bytes, scan: &scan)
        case .htmlInline, .htmlBlock: break
        default: Self.appendPlainText(of: children, separated: isBlock && children.contains(where: \.isBlock), to: &bytes, scan: &scan)
        }
    }

    /// The children's plain texts in order, `\n\n` between them when `separated`. The nodes are
    /// read where they are in the array, field by field, not copied whole.
    private static func appendPlainText(of nodes: [MarkdownNode], separated: Bool, to bytes: inout [UInt8], scan: inout FirstLineScan?) {
        for index in nodes.indices {
            if scan?.done == true { return }
            if separated, index > 0 { append("\n\n", to: &bytes, scan: &scan) }
            switch nodes[index].kind {
            case .text, .code, .codeBlock: append(nodes[index].literal, to: &bytes, scan: &scan)
            case .softBreak, .lineBreak: append("\n", to: &bytes, scan: &scan)
            case .htmlInline, .htmlBlock: break
            default:
                let isBlock = nodes[index].isBlock
                appendPlainText(of: nodes[index].children, separated: isBlock && nodes[index].children.contains(where: \.isBlock),
                                to: &bytes, scan: &scan)
            }
        }
    }

    private static func append(_ piece: String, to bytes: inout [UInt8], scan: inout FirstLineScan?) {
        guard scan != nil else { return bytes.append(contentsOf: piece.utf8) }
        let count = scan!.read(piece.utf8)
        bytes.append(contentsOf: piece.utf8.prefix(count))
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
        for child in children { child.appendCodeSpanLiterals(to: &literals) }
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
