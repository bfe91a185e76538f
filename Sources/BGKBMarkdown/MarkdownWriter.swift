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

    /// Backslash-escapes what would otherwise start markup, and nothing more, so the text stays
    /// readable where it is shown as is (`bgkb show`): `_` only at a word's edge, `#` and `>` only
    /// at a line's start.
    static func escape(_ text: String) -> String {
        // Most text has none of these bytes, and then nothing changes.
        guard text.utf8.contains(where: { escapedBytes.contains($0) }) else { return text }
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

    private static let escapedBytes: Set<UInt8> = Set("\\`*_[]<>#".utf8)
}
