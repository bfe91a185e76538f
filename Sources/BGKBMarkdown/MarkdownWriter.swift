/// Writes inline nodes back as CommonMark, so a point can be split (statement, label, rest) and
/// the rest still renders with its code spans, emphasis and links.
public enum MarkdownWriter {
    public static func inlines(_ nodes: some Sequence<MarkdownNode>) -> String {
        nodes.map(inline).joined()
    }

    public static func inline(_ node: MarkdownNode) -> String {
        switch node.kind {
        case .text: return escape(node.literal)
        case .softBreak: return "\n"
        case .lineBreak: return "\\\n"
        case .code:
            let ticks = node.literal.contains("`") ? "``" : "`"
            let pad = node.literal.hasPrefix("`") || node.literal.hasSuffix("`") ? " " : ""
            return ticks + pad + node.literal + pad + ticks
        case .emphasis: return "*" + inlines(node.children) + "*"
        case .strong: return "**" + inlines(node.children) + "**"
        case let .link(destination, title):
            return "[" + inlines(node.children) + "](<" + destination + ">" + (title.isEmpty ? "" : " \"\(title)\"") + ")"
        case let .image(destination, title):
            return "![" + inlines(node.children) + "](<" + destination + ">" + (title.isEmpty ? "" : " \"\(title)\"") + ")"
        case .htmlInline: return node.literal
        default: return inlines(node.children)
        }
    }

    /// Backslash-escapes the characters that would otherwise start markup.
    static func escape(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.count)
        for character in text {
            if "\\`*_[]<>#!|".contains(character) { result.append("\\") }
            result.append(character)
        }
        return result
    }
}
