/// Writes inline nodes back as CommonMark, so a point can be split (statement, label, rest) and
/// the rest still renders with its code spans, emphasis and links.
public enum MarkdownWriter {
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

    /// Appends to one string, not a string per node joined afterwards.
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
    /// Whether a code span holds a backtick scalar (CommonMark reads backticks as bytes, so one
    /// with a combining mark after it still counts).
    static func containsBacktick(_ text: String) -> Bool {
        text.utf8.contains(UInt8(ascii: "`"))
    }

    /// By Unicode scalars: a letter or digit next to `_` is one by its scalar properties.
    static func escape(_ text: String) -> String {
        // Most text has none of these bytes, and then nothing changes.
        guard text.utf8.contains(where: isEscapedByte) else { return text }
        func isAlphanumeric(_ scalar: Unicode.Scalar) -> Bool { scalar.properties.isAlphabetic || scalar.properties.numericType != nil }
        let scalars = Array(text.unicodeScalars)
        var result = String.UnicodeScalarView()
        for (index, scalar) in scalars.enumerated() {
            let before: Unicode.Scalar = index > 0 ? scalars[index - 1] : "\n"
            let after: Unicode.Scalar = index + 1 < scalars.count ? scalars[index + 1] : " "
            let needsEscape: Bool
            switch scalar {
            case "\\", "`", "*", "[", "]", "<": needsEscape = true
            case "_": needsEscape = !isAlphanumeric(before) || !isAlphanumeric(after)
            case "#", ">": needsEscape = before == "\n"
            default: needsEscape = false
            }
            if needsEscape { result.append("\\") }
            result.append(scalar)
        }
        return String(result)
    }

    /// The bytes `escape` may act on (backslash, backtick and `*_[]<>#`).
    private static func isEscapedByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "\\"), UInt8(ascii: "`"), UInt8(ascii: "*"), UInt8(ascii: "_"), UInt8(ascii: "["),
             UInt8(ascii: "]"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "#"): return true
        default: return false
        }
    }
}
