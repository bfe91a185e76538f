import BGKBModel
import CCmark
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The only place in bgkb that talks to cmark's C API. It parses Markdown with source positions
/// and hands back Swift values, and renders Markdown to HTML in cmark's safe mode.
public enum CommonMarkConverter {
    /// Parses `text` into a tree. `lineOffset` is added to every line (for text that followed
    /// front matter in its file), so positions point into the original file.
    public static func parse(_ text: String, lineOffset: Int = 0) -> MarkdownNode {
        let lines = LineTable(text)
        // No CMARK_OPT_VALIDATE_UTF8, here or below: a Swift String's bytes are valid UTF-8, so
        // cmark's check of every line (a copy that looks at each byte) could never change them,
        // and `strlen` stops at a NUL before cmark sees one.
        let options = CMARK_OPT_SOURCEPOS
        let document: OpaquePointer? = text.withCString { pointer in
            cmark_parse_document(pointer, strlen(pointer), options)
        }
        guard let document else {
            return MarkdownNode(kind: .document, start: Position(line: 1 + lineOffset, column: 1), end: Position(line: 1 + lineOffset, column: 1))
        }
        defer { cmark_node_free(document) }
        return convert(document, lines: lines, lineOffset: lineOffset, inherited: Position(line: 1 + lineOffset, column: 1))
    }

    /// `parse(text).plainText` without building the tree: text, code and code-block literals,
    /// `\n` for soft and hard breaks, nothing for raw HTML, and `\n\n` between the children of a
    /// block whose children are blocks. The search index asks this of every rule.
    public static func plainText(_ text: String) -> String {
        let document: OpaquePointer? = text.withCString { pointer in
            cmark_parse_document(pointer, strlen(pointer), CMARK_OPT_DEFAULT)
        }
        guard let document else { return "" }
        defer { cmark_node_free(document) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        appendPlainText(document, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func appendPlainText(_ node: OpaquePointer, to bytes: inout [UInt8]) {
        switch cmark_node_get_type(node) {
        case CMARK_NODE_TEXT, CMARK_NODE_CODE, CMARK_NODE_CODE_BLOCK:
            if let literal = cmark_node_get_literal(node) {
                literal.withMemoryRebound(to: UInt8.self, capacity: strlen(literal)) {
                    bytes.append(contentsOf: UnsafeBufferPointer(start: $0, count: strlen(literal)))
                }
            }
        case CMARK_NODE_SOFTBREAK, CMARK_NODE_LINEBREAK:
            bytes.append(UInt8(ascii: "\n"))
        case CMARK_NODE_HTML_INLINE, CMARK_NODE_HTML_BLOCK:
            break
        default:
            var separated = false
            if isBlock(node) {
                var child = cmark_node_first_child(node)
                while let current = child, !separated {
                    separated = isBlock(current)
                    child = cmark_node_next(current)
                }
            }
            var child = cmark_node_first_child(node)
            var first = true
            while let current = child {
                if separated, !first {
                    bytes.append(UInt8(ascii: "\n"))
                    bytes.append(UInt8(ascii: "\n"))
                }
                first = false
                appendPlainText(current, to: &bytes)
                child = cmark_node_next(current)
            }
        }
    }

    /// `MarkdownNode.isBlock` of the node `kind(of:)` would make.
    private static func isBlock(_ node: OpaquePointer) -> Bool {
        switch cmark_node_get_type(node) {
        case CMARK_NODE_DOCUMENT, CMARK_NODE_BLOCK_QUOTE, CMARK_NODE_LIST, CMARK_NODE_ITEM, CMARK_NODE_CODE_BLOCK,
             CMARK_NODE_HTML_BLOCK, CMARK_NODE_PARAGRAPH, CMARK_NODE_HEADING, CMARK_NODE_THEMATIC_BREAK:
            return true
        default:
            return false
        }
    }

    /// Renders Markdown to HTML. Safe mode: raw HTML becomes a comment and `javascript:` links lose
    /// their target, so Content can never inject script into a page.
    public static func renderHTML(_ markdown: String, smartPunctuation: Bool = false) -> String {
        withRenderedHTML(markdown, smartPunctuation: smartPunctuation) { String(decoding: $0, as: UTF8.self) }
    }

    /// `renderHTML`'s bytes as cmark wrote them, lent to `body` (no String made of them: a page
    /// that copies them into its own bytes needs none).
    public static func withRenderedHTML<Result>(_ markdown: String, smartPunctuation: Bool = false,
                                                _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        var options = CMARK_OPT_DEFAULT
        if smartPunctuation { options |= CMARK_OPT_SMART }
        guard let rendered = markdown.withCString({ cmark_markdown_to_html($0, strlen($0), options) }) else {
            return try body(UnsafeBufferPointer(start: nil, count: 0))
        }
        defer { free(rendered) }
        let count = strlen(rendered)
        return try rendered.withMemoryRebound(to: UInt8.self, capacity: count) { try body(UnsafeBufferPointer(start: $0, count: count)) }
    }

    /// `withRenderedHTML(markdown, smartPunctuation: true)`, also handing `body` the text
    /// `plainText(markdown)` gives, from the same parse when it can (the rule pages render each
    /// rule's prose, and the search index wants its plain text: a second parse would cost as much
    /// as the first).
    ///
    /// Smart punctuation only ever turns `"` and `'` into curly quotes, `--` and `---` into en
    /// and em dashes and `...` into an ellipsis, in text (never in code, never in a link's
    /// target), and changes no other structure: so the smart tree's plain text with those seven
    /// characters turned back is the plain text, provided the Markdown could not have put one of
    /// them there itself: no byte 0xE2 (which starts each of them in UTF-8) and no `&` (an
    /// entity such as `&rdquo;`). Markdown with either is parsed again, without smart
    /// punctuation.
    public static func withRenderedSmartHTMLAndPlainText<Result>(_ markdown: String,
                                                                _ body: (UnsafeBufferPointer<UInt8>, String) throws -> Result) rethrows -> Result {
        let options = CMARK_OPT_DEFAULT | CMARK_OPT_SMART
        let document: OpaquePointer? = markdown.withCString { cmark_parse_document($0, strlen($0), options) }
        guard let document else { return try body(UnsafeBufferPointer(start: nil, count: 0), plainText(markdown)) }
        defer { cmark_node_free(document) }
        guard let rendered = cmark_render_html(document, options) else {
            return try body(UnsafeBufferPointer(start: nil, count: 0), plainText(markdown))
        }
        defer { free(rendered) }
        let plain: String
        if canUndoSmartPunctuation(markdown) {
            var bytes: [UInt8] = []
            bytes.reserveCapacity(markdown.utf8.count)
            appendPlainText(document, to: &bytes)
            plain = undoingSmartPunctuation(bytes)
        } else {
            plain = plainText(markdown)
        }
        let count = strlen(rendered)
        return try rendered.withMemoryRebound(to: UInt8.self, capacity: count) { try body(UnsafeBufferPointer(start: $0, count: count), plain) }
    }

    /// No byte 0xE2 and no `&`: every smart character in the smart tree's text came from smart
    /// punctuation, so turning them back gives the text without it.
    static func canUndoSmartPunctuation(_ markdown: String) -> Bool {
        let check: Bool? = markdown.utf8.withContiguousStorageIfAvailable { buffer in
            guard let start = buffer.baseAddress else { return true }
            return memchr(start, 0xE2, buffer.count) == nil && memchr(start, Int32(UInt8(ascii: "&")), buffer.count) == nil
        }
        return check ?? !markdown.utf8.contains { $0 == 0xE2 || $0 == UInt8(ascii: "&") }
    }

    /// Curly quotes, en and em dashes and the ellipsis (E2 80 xx in UTF-8) back to the ASCII
    /// cmark's smart punctuation made them from.
    static func undoingSmartPunctuation(_ bytes: [UInt8]) -> String {
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress, memchr(base, 0xE2, buffer.count) != nil else { return String(decoding: buffer, as: UTF8.self) }
            var out: [UInt8] = []
            out.reserveCapacity(buffer.count + 16)
            // The runs between E2 bytes are copied whole (memchr finds each E2).
            var index = 0
            while index < buffer.count {
                guard let found = memchr(base + index, 0xE2, buffer.count - index) else {
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[index...]))
                    break
                }
                let at = UnsafeRawPointer(found).assumingMemoryBound(to: UInt8.self) - base
                out.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[index..<at]))
                index = at + 1
                guard at + 2 < buffer.count, buffer[at + 1] == 0x80 else { out.append(0xE2); continue }
                switch buffer[at + 2] {
                case 0x9C, 0x9D: out.append(UInt8(ascii: "\""))
                case 0x98, 0x99: out.append(UInt8(ascii: "'"))
                case 0x93: out += [UInt8(ascii: "-"), UInt8(ascii: "-")]
                case 0x94: out += [UInt8(ascii: "-"), UInt8(ascii: "-"), UInt8(ascii: "-")]
                case 0xA6: out += [UInt8(ascii: "."), UInt8(ascii: "."), UInt8(ascii: ".")]
                default: out.append(0xE2); continue
                }
                index = at + 3
            }
            return String(decoding: out, as: UTF8.self)
        }
    }

    private static func convert(_ node: OpaquePointer, lines: LineTable, lineOffset: Int, inherited: Position) -> MarkdownNode {
        let startLine = Int(cmark_node_get_start_line(node))
        let hasPosition = startLine > 0
        let start = hasPosition
            ? lines.position(line: startLine, byteColumn: Int(cmark_node_get_start_column(node)), lineOffset: lineOffset)
            : inherited
        let end = hasPosition
            ? lines.position(line: Int(cmark_node_get_end_line(node)), byteColumn: Int(cmark_node_get_end_column(node)), lineOffset: lineOffset)
            : inherited

        var children: [MarkdownNode] = []
        var child = cmark_node_first_child(node)
        if child != nil {
            // Counted first, so the array is allocated once.
            var count = 0
            var sibling = child
            while let current = sibling {
                count += 1
                sibling = cmark_node_next(current)
            }
            children.reserveCapacity(count)
        }
        while let current = child {
            children.append(convert(current, lines: lines, lineOffset: lineOffset, inherited: start))
            child = cmark_node_next(current)
        }
        let literal = string(cmark_node_get_literal(node))
        return MarkdownNode(kind: kind(of: node, lines: lines), literal: literal, children: children, start: start, end: end)
    }

    private static func kind(of node: OpaquePointer, lines: LineTable) -> MarkdownNode.Kind {
        switch cmark_node_get_type(node) {
        case CMARK_NODE_DOCUMENT: return .document
        case CMARK_NODE_BLOCK_QUOTE: return .blockQuote
        case CMARK_NODE_LIST: return .list(ordered: cmark_node_get_list_type(node) == CMARK_ORDERED_LIST)
        case CMARK_NODE_ITEM: return .item
        case CMARK_NODE_CODE_BLOCK:
            // cmark 0.30 has no public getter for the fence: read it off the block's first line.
            let fence = lines.fence(atLine: Int(cmark_node_get_start_line(node)))
            return .codeBlock(info: string(cmark_node_get_fence_info(node)), fence: fence)
        case CMARK_NODE_HTML_BLOCK: return .htmlBlock
        case CMARK_NODE_PARAGRAPH: return .paragraph
        case CMARK_NODE_HEADING: return .heading(level: Int(cmark_node_get_heading_level(node)))
        case CMARK_NODE_THEMATIC_BREAK: return .thematicBreak
        case CMARK_NODE_TEXT: return .text
        case CMARK_NODE_SOFTBREAK: return .softBreak
        case CMARK_NODE_LINEBREAK: return .lineBreak
        case CMARK_NODE_CODE: return .code
        case CMARK_NODE_HTML_INLINE: return .htmlInline
        case CMARK_NODE_EMPH: return .emphasis
        case CMARK_NODE_STRONG: return .strong
        case CMARK_NODE_LINK: return .link(destination: string(cmark_node_get_url(node)), title: string(cmark_node_get_title(node)))
        case CMARK_NODE_IMAGE: return .image(destination: string(cmark_node_get_url(node)), title: string(cmark_node_get_title(node)))
        default: return .other
        }
    }

    private static func string(_ pointer: UnsafePointer<CChar>?) -> String {
        pointer.map { String(cString: $0) } ?? ""
    }
}

/// Turns cmark's byte columns into character columns, which is what editors and people count.
private struct LineTable {
    private let bytes: [UInt8]
    /// Where each line starts in `bytes`; a line ends before the next one's `\n`.
    private let starts: [Int]
    /// Whether each line is all ASCII, where a byte column is a Character column.
    private let asciiLines: [Bool]

    init(_ text: String) {
        let bytes = Array(text.utf8)
        // A line starts at the text's start and after each line feed.
        let starts = [0] + Bytes.offsets(of: 0x0A, in: bytes).map { $0 + 1 }
        // Text (or a line) is ASCII when the bitwise or of its bytes is: a loop without an early
        // exit, which the compiler runs over many bytes at a time. Every line of ASCII text is.
        func isASCII(_ bytes: ArraySlice<UInt8>) -> Bool {
            var bits: UInt8 = 0
            for byte in bytes { bits |= byte }
            return bits < 0x80
        }
        let asciiLines = isASCII(bytes[...])
            ? [Bool](repeating: true, count: starts.count)
            : starts.indices.map { isASCII(bytes[starts[$0]..<($0 + 1 < starts.count ? starts[$0 + 1] - 1 : bytes.count)]) }
        self.bytes = bytes
        self.starts = starts
        self.asciiLines = asciiLines
    }

    /// The bytes of 1-based `line`, without its `\n`.
    private func line(_ line: Int) -> ArraySlice<UInt8> {
        let start = starts[line - 1]
        let end = line < starts.count ? starts[line] - 1 : bytes.count
        return bytes[start..<end]
    }

    func position(line: Int, byteColumn: Int, lineOffset: Int) -> Position {
        guard line >= 1, line <= starts.count, byteColumn > 1 else {
            return Position(line: line + lineOffset, column: max(1, byteColumn))
        }
        let start = starts[line - 1]
        let end = min(start + byteColumn - 1, line < starts.count ? starts[line] - 1 : bytes.count)
        // ASCII bytes are one character each (a line holds no `\r\n` pair: it ends at the `\n`).
        if asciiLines[line - 1] { return Position(line: line + lineOffset, column: end - start + 1) }
        var index = start
        while index < end && bytes[index] < 0x80 { index += 1 }
        let characters = index == end ? end - start : String(decoding: bytes[start..<end], as: UTF8.self).count
        return Position(line: line + lineOffset, column: characters + 1)
    }

    /// The run of backticks or tildes that opens a fenced code block on `line`, or "".
    func fence(atLine line: Int) -> String {
        guard line >= 1, line <= starts.count else { return "" }
        let content = self.line(line).drop { $0 == UInt8(ascii: " ") }
        guard let first = content.first, first == UInt8(ascii: "`") || first == UInt8(ascii: "~") else { return "" }
        return String(decoding: content.prefix { $0 == first }, as: UTF8.self)
    }
}
