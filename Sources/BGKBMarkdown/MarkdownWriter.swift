/// Writes inline nodes back as CommonMark, so a point can be split (statement, label, rest) and
/// the rest still renders with its code spans, emphasis and links.
public enum MarkdownWriter {
    /// (An array's slice, as every caller has: over `some Sequence` the loop went through the
    /// protocol's witnesses, a fifth of the cost.)
    public static func inlines(_ nodes: ArraySlice<MarkdownNode>) -> String {
        var out = ""
        for index in nodes.indices { write(nodes[index], into: &out) }
        return out
    }

    public static func inlines(_ nodes: [MarkdownNode]) -> String { inlines(nodes[...]) }

    public static func inline(_ node: MarkdownNode) -> String {
        var out = ""
        write(node, into: &out)
        return out
    }

    /// Appends to one string: building a string per node and joining them cost a third of
    /// walking a rule's blocks.
    private static func write(_ node: MarkdownNode, into out: inout String) {
        switch node.kind {
        case .text: out += escape(node.literal)
        case .softBreak: out += "\n"
        case .lineBreak: out += "\\\n"
        case .code:
            let ticks = containsBacktick(node.literal) ? "``" : "`"
            let pad = node.literal.hasPrefix("`") || node.literal.hasSuffix("`") ? " " : ""
            out += ticks; out += pad; out += node.literal; out += pad; out += ticks
        case .emphasis: wrap(node, "*", "*", into: &out)
        case .strong: wrap(node, "**", "**", into: &out)
        case let .link(destination, title):
            wrap(node, "[", "](<" + destination + ">" + (title.isEmpty ? "" : " \"\(title)\"") + ")", into: &out)
        case let .image(destination, title):
            wrap(node, "![", "](<" + destination + ">" + (title.isEmpty ? "" : " \"\(title)\"") + ")", into: &out)
        case .htmlInline: out += node.literal
        default: for child in node.children { write(child, into: &out) }
        }
    }

    private static func wrap(_ node: MarkdownNode, _ open: String, _ close: String, into out: inout String) {
        out += open
        for child in node.children { write(child, into: &out) }
        out += close
    }

    /// Backslash-escapes what would otherwise start markup, and nothing more, so the text stays
    /// readable where it is shown as is (`bgkb show`): `_` only at a word's edge, `#` and `>` only
    /// at a line's start.
    /// Whether a code span holds a backtick Character: by bytes in ASCII text (where each byte is
    /// a Character but for `\r\n`, which holds no backtick); by Characters otherwise, where a
    /// backtick with a combining mark is not one. `contains` by Characters cost 7,000
    /// instructions a span.
    static func containsBacktick(_ text: String) -> Bool {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.utf8.contains(UInt8(ascii: "`")) }
        return text.contains("`")
    }

    static func escape(_ text: String) -> String {
        // Most text has none of these bytes, and then nothing changes. (Over the bytes in place:
        // through the UTF-8 view's iterator the test cost twice as much.)
        let found = text.utf8.withContiguousStorageIfAvailable { $0.contains(where: isEscapedByte) } ?? text.utf8.contains(where: isEscapedByte)
        guard found else { return text }
        return escapeASCII(text) ?? escapeByCharacter(text)
    }

    static func escapeByCharacter(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.count)
        let characters = Array(text)
        for (index, character) in characters.enumerated() {
            let before = index > 0 ? characters[index - 1] : "\n"
            let after = index + 1 < characters.count ? characters[index + 1] : " "
            let needsEscape: Bool
            switch character {
            case "\\", "`", "*", "[", "]", "<": needsEscape = true
            case "_": needsEscape = !(before.isLetter || before.isNumber) || !(after.isLetter || after.isNumber)
            case "#", ">": needsEscape = before == "\n"
            default: needsEscape = false
            }
            if needsEscape { result.append("\\") }
            result.append(character)
        }
        return result
    }

    /// `escape` by bytes, for ASCII text without `\r` (each byte is then one Character, and
    /// `isLetter`/`isNumber` are the ASCII letters and digits); nil for other text. Going through
    /// the text's Characters cost 1,600 instructions a text node.
    static func escapeASCII(_ text: String) -> String? {
        let bytes = Array(text.utf8)
        guard bytes.allSatisfy({ $0 < 0x80 && $0 != UInt8(ascii: "\r") }) else { return nil }
        func isAlphanumeric(_ byte: UInt8) -> Bool {
            (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") || byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
        }
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count + 8)
        for index in bytes.indices {
            let byte = bytes[index]
            let before = index > 0 ? bytes[index - 1] : UInt8(ascii: "\n")
            let after = index + 1 < bytes.count ? bytes[index + 1] : UInt8(ascii: " ")
            let needsEscape: Bool
            switch byte {
            case UInt8(ascii: "\\"), UInt8(ascii: "`"), UInt8(ascii: "*"), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "<"): needsEscape = true
            case UInt8(ascii: "_"): needsEscape = !isAlphanumeric(before) || !isAlphanumeric(after)
            case UInt8(ascii: "#"), UInt8(ascii: ">"): needsEscape = before == UInt8(ascii: "\n")
            default: needsEscape = false
            }
            if needsEscape { result.append(UInt8(ascii: "\\")) }
            result.append(byte)
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// The bytes `escape` may act on (backslash, backtick and `*_[]<>#`): a switch, where a
    /// `Set<UInt8>` hashed every byte of the text.
    private static func isEscapedByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "\\"), UInt8(ascii: "`"), UInt8(ascii: "*"), UInt8(ascii: "_"), UInt8(ascii: "["),
             UInt8(ascii: "]"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "#"): return true
        default: return false
        }
    }
}
