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
        case .text, .code: return literal
        case .softBreak, .lineBreak: return "\n"
        case .htmlInline, .htmlBlock: return ""
        case .codeBlock: return literal
        default:
            let separator = isBlock && children.contains(where: \.isBlock) ? "\n\n" : ""
            return children.map(\.plainText).joined(separator: separator)
        }
    }

    public var isBlock: Bool {
        switch kind {
        case .document, .blockQuote, .list, .item, .codeBlock, .htmlBlock, .paragraph, .heading, .thematicBreak: return true
        default: return false
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
