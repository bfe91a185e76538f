/// Writes inline nodes back as CommonMark, so a point can be split (statement, label, rest) and
/// the rest still renders with its code spans, emphasis and links.
public enum MarkdownWriter {
    public static func inlines(_ nodes: some Sequence<MarkdownNode>) -> String {
        var out = ""
        for node in nodes { write(node, into: &out) }
        return out
    }

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
            let ticks = node.literal.contains("`") ? "``" : "`"
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
    static func escape(_ text: String) -> String {
        // Most text has none of these bytes, and then nothing changes.
        guard text.utf8.contains(where: isEscapedByte) else { return text }
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
