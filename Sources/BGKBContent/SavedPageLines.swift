import BGKBMarkdown

/// A page saved as plain text often keeps one line per paragraph and no blank line between them
/// (a whole forum post, its sign-off, its revision history and the page after it as one block of
/// lines). Markdown would read that as one paragraph, so one point; a document whose body has no
/// blank line at all is read instead as one paragraph per line.
enum SavedPageLines {
    /// Fewer lines than this, with no blank line, is an ordinary short paragraph.
    static let minimumLines = 4

    /// Whether `body` (the text after any front matter) is a page saved a line a paragraph.
    static func isLineAParagraph(_ body: String) -> Bool {
        var lines = 0
        for line in body.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            let blank = line.allSatisfy { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\r") }
            if blank { if lines > 0 { return trailingBlanksOnly(after: lines, in: body) } else { continue } }
            lines += 1
        }
        return lines >= minimumLines
    }

    /// A blank line counts only if something other than blank lines follows it.
    private static func trailingBlanksOnly(after lines: Int, in body: String) -> Bool {
        let rest = body.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).drop { line in
            !line.allSatisfy { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\r") }
        }
        return lines >= minimumLines && rest.allSatisfy { line in
            line.allSatisfy { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\r") }
        }
    }

    /// Each top-level paragraph split into one paragraph per line, each starting on its own line.
    static func split(_ document: inout MarkdownNode) {
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
