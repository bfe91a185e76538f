/// Writes inline nodes back as CommonMark, so a point can be split (statement, label, rest) and
/// the rest still renders with its code spans, emphasis and links.
public enum MarkdownWriter {
    public static func inlines(_ nodes: ArraySlice<MarkdownNode>) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        write(nodes, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    public static func inlines(_ nodes: [MarkdownNode]) -> String { inlines(nodes[...]) }

    public static func inline(_ node: MarkdownNode) -> String { inlines([node]) }

    /// Appends to one buffer of bytes, not a string per node joined afterwards. The nodes are read
    /// where they are in the array, field by field, not copied whole.
    private static func write(_ nodes: ArraySlice<MarkdownNode>, into out: inout [UInt8]) {
        for index in nodes.indices {
            switch nodes[index].kind {
            case .text: out.append(contentsOf: escape(nodes[index].literal).utf8)
            case .softBreak: out.append(UInt8(ascii: "\n"))
            case .lineBreak: out.append(contentsOf: "\\\n".utf8)
            case .code:
                let literal = nodes[index].literal
                let ticks = containsBacktick(literal) ? "``" : "`"
                let pad = literal.hasPrefix("`") || literal.hasSuffix("`") ? " " : ""
                out.append(contentsOf: ticks.utf8)
                out.append(contentsOf: pad.utf8)
                out.append(contentsOf: literal.utf8)
                out.append(contentsOf: pad.utf8)
                out.append(contentsOf: ticks.utf8)
            case .emphasis: wrap(nodes[index].children, "*", "*", into: &out)
            case .strong: wrap(nodes[index].children, "**", "**", into: &out)
            case let .link(destination, title):
                wrap(nodes[index].children, "[", "](<" + destination + ">" + (title.isEmpty ? "" : " \"\(title)\"") + ")", into: &out)
            case let .image(destination, title):
                wrap(nodes[index].children, "![", "](<" + destination + ">" + (title.isEmpty ? "" : " \"\(title)\"") + ")", into: &out)
            case .htmlInline: out.append(contentsOf: nodes[index].literal.utf8)
            default: write(nodes[index].children[...], into: &out)
            }
        }
    }

    private static func wrap(_ children: [MarkdownNode], _ open: String, _ close: String, into out: inout [UInt8]) {
        out.append(contentsOf: open.utf8)
        write(children[...], into: &out)
        out.append(contentsOf: close.utf8)
    }

    /// Whether a code span holds a backtick scalar (CommonMark reads backticks as bytes, so one
    /// with a combining mark after it still counts).
    static func containsBacktick(_ text: String) -> Bool {
        text.utf8.contains(UInt8(ascii: "`"))
    }

    /// Backslash-escapes what would otherwise start markup, and nothing more, so the text stays
    /// readable where it is shown as is (`bgkb show`): `_` only at a word's edge, `#` and `>` only
    /// at a line's start. By Unicode scalars: a letter or digit next to `_` is one by its scalar
    /// properties.
    static func escape(_ text: String) -> String {
        // Most text has none of these bytes, and then nothing changes. (Looked for in a copy of the
        // bytes: an array is read faster than the string's own view of them.)
        guard Array(text.utf8).contains(where: isEscapedByte) else { return text }
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
