import BGKBMarkdown

/// A page saved as plain text often keeps one line per paragraph and no blank line between them
/// (a whole forum post, its sign-off, its revision history and the page after it as one block of
/// lines). Markdown would read that as one paragraph, so one point; a document whose body has no
/// blank line at all is read instead as one paragraph per line.
enum SavedPageLines {
    /// Fewer lines than this, with no blank line, is an ordinary short paragraph.
    static let minimumLines = 4

    /// Whether `body` (the text after any front matter) has at least `minimumLines` lines and no
    /// blank line between two of them. One pass over the bytes (the blanks and the line feed are
    /// ASCII), stopping at the first blank line inside the text.
    static func hasNoBlankLine(_ body: String) -> Bool {
        var lines = 0
        var lineHasText = false
        var blankSeen = false
        for byte in body.utf8 {
            switch byte {
            case UInt8(ascii: "\n"):
                if lineHasText { lines += 1 } else if lines > 0 { blankSeen = true }
                lineHasText = false
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
                break
            default:
                if blankSeen { return false }
                lineHasText = true
            }
        }
        if lineHasText { lines += 1 }
        return lines >= minimumLines
    }

    /// Each top-level paragraph split into one paragraph per line, each starting on its own line,
    /// when at least half of the lines end a sentence (`.`, `!`, `?` or `:`): a paragraph wrapped
    /// at a fixed width does not, and stays whole. Lines of forum page chrome do not count (they
    /// are stripped afterwards, line by line).
    static func split(_ document: inout MarkdownNode) {
        var lines = 0
        var sentenceEnds = 0
        for block in document.children {
            guard case .paragraph = block.kind else { continue }
            for line in BlockWalker.lines(of: block.children) where !line.isEmpty {
                let text = MarkdownNode.plainText(of: line[...]).trimmed
                if ForumChrome.kind(ofLine: text) != nil { continue }
                lines += 1
                if let last = text.last, ".!?:".contains(last) { sentenceEnds += 1 }
            }
        }
        guard sentenceEnds * 2 >= lines else { return }
        var blocks: [MarkdownNode] = []
        blocks.reserveCapacity(document.children.count)
        for block in document.children {
            guard case .paragraph = block.kind else { blocks.append(block); continue }
            for (offset, line) in BlockWalker.lines(of: block.children).enumerated() where !line.isEmpty {
                let start = Position(line: block.start.line + offset, column: offset == 0 ? block.start.column : 1)
                blocks.append(MarkdownNode(kind: .paragraph, children: line, start: start, end: Position(line: start.line, column: 1)))
            }
        }
        document.children = blocks
    }
}
