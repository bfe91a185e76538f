/// How the session writes: the width to wrap at and whether to colour. The CLI decides both
/// (colour only on a terminal, never with NO_COLOR or TERM=dumb); the library only obeys.
public struct TextStyle: Sendable {
    public var width: Int
    public var colour: Bool

    public init(width: Int = 80, colour: Bool = false) {
        self.width = max(40, min(width, 80))
        self.colour = colour
    }

    public enum Tone: String, Sendable {
        case bold = "1", dim = "2", green = "32", red = "31", yellow = "33", cyan = "36"
    }

    public func paint(_ text: String, _ tone: Tone) -> String {
        colour && !text.isEmpty ? "\u{1B}[\(tone.rawValue)m\(text)\u{1B}[0m" : text
    }

    /// Word-wrapped to the width, every line starting with `indent` and continuation lines with
    /// `hanging` (for "  a) " choices). A word longer than a line is cut, so nothing overflows.
    public func wrap(_ text: String, indent: String = "", hanging: String? = nil) -> [String] {
        let continuation = hanging ?? indent
        var lines: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            // The first line of the text gets the indent; every later line (and paragraph) hangs.
            var line = lines.isEmpty ? indent : continuation
            var lineHasWord = false
            for word in paragraph.split(separator: " ") {
                var word = Substring(word)
                while !word.isEmpty {
                    let room = width - line.count - (lineHasWord ? 1 : 0)
                    if word.count <= room {
                        line += (lineHasWord ? " " : "") + word
                        lineHasWord = true
                        word = ""
                    } else if !lineHasWord {
                        // Longer than a whole line: cut it.
                        let cut = max(1, width - line.count)
                        line += word.prefix(cut)
                        word = word.dropFirst(cut)
                        lines.append(line)
                        line = continuation
                    } else {
                        lines.append(line)
                        line = continuation
                        lineHasWord = false
                    }
                }
            }
            lines.append(line)
        }
        return lines.map { $0.trailingSpacesRemoved() }
    }

    /// A listing line by line, indented. A line too long for the width continues on the next
    /// line after a "↳" marker instead of being cut: the learner may need its end to answer, and
    /// the marker keeps the code's own line structure visible.
    public func listing(_ text: String, indent: String = "    ") -> [String] {
        let continuation = indent + "↳ "
        var lines: [String] = []
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var rest = Substring(raw.replacingTabs())
            var lead = indent
            while lead.count + rest.count > width, width - lead.count > 8 {
                let room = width - lead.count
                lines.append(lead + rest.prefix(room))
                rest = rest.dropFirst(room)
                lead = continuation
            }
            lines.append(lead + rest)
        }
        return lines
    }
}

extension Substring {
    func replacingTabs() -> String { String(self).split(separator: "\t", omittingEmptySubsequences: false).joined(separator: "    ") }
}

extension String {
    func trailingSpacesRemoved() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
