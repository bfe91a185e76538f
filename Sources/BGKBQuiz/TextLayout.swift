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

    /// A listing line by line, indented. A line too long for the width breaks only between
    /// tokens (identifiers, string literals, numbers, spaces, punctuation), and its remainder
    /// continues on the next line after a "↳" mark, so the code's own lines stay visible and no
    /// name is split. Only a single token longer than a whole line is cut, after a `.`, `/`, `-`,
    /// `:` or space inside it when it has one.
    public func listing(_ text: String, indent: String = "    ") -> [String] {
        let continuation = indent + "↳ "
        var lines: [String] = []
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = raw.replacingTabs()
            guard indent.count + line.count > width, width - continuation.count > 8 else {
                lines.append(indent + line)
                continue
            }
            var lead = indent
            var onLine: [String] = []
            var used: Int { lead.count + onLine.reduce(0) { $0 + $1.count } }
            func flush() {
                lines.append((lead + onLine.joined()).trailingSpacesRemoved())
                lead = continuation
                onLine = []
            }
            func isBlank(_ token: String) -> Bool { token.allSatisfy(\.isWhitespace) }
            for token in TextStyle.tokens(line) {
                // A continuation line does not start with the spaces the break fell on.
                if lead == continuation && onLine.isEmpty && isBlank(token) { continue }
                if used + token.count <= width {
                    onLine.append(token)
                    continue
                }
                if isBlank(token) {
                    flush()
                    continue
                }
                if onLine.contains(where: { !isBlank($0) }) {
                    // A closing mark does not start a line alone: the word before it goes along.
                    var carried: [String] = []
                    if token.count == 1, ".,;:)]}".contains(token), let last = onLine.last, !isBlank(last),
                       onLine.filter({ !isBlank($0) }).count > 1, continuation.count + last.count + 1 <= width {
                        carried = [onLine.removeLast()]
                    }
                    flush()
                    onLine = carried
                }
                for piece in TextStyle.pieces(token, room: width - continuation.count) {
                    if used + piece.count > width { flush() }
                    onLine.append(piece)
                }
            }
            flush()
        }
        return lines
    }

    /// A code line as tokens: runs of identifier characters (letters, digits, `_`, `$`),
    /// string literals with their quotes, runs of spaces, and single punctuation characters.
    /// Joined, the tokens are the line.
    static func tokens(_ line: String) -> [String] {
        var tokens: [String] = []
        var index = line.startIndex
        func isWord(_ character: Character) -> Bool { character.isLetter || character.isNumber || character == "_" || character == "$" }
        while index < line.endIndex {
            let character = line[index]
            var end = line.index(after: index)
            if isWord(character) {
                while end < line.endIndex, isWord(line[end]) { end = line.index(after: end) }
            } else if character == " " {
                while end < line.endIndex, line[end] == " " { end = line.index(after: end) }
            } else if character == "\"" {
                var escaped = false
                while end < line.endIndex {
                    let next = line[end]
                    end = line.index(after: end)
                    if next == "\"" && !escaped { break }
                    escaped = next == "\\" && !escaped
                }
            }
            tokens.append(String(line[index..<end]))
            index = end
        }
        return tokens
    }

    /// A token cut into pieces of at most `room` characters, each ending after a `.`, `/`, `-`,
    /// `:` or space where there is one; hard cuts only where there is none.
    static func pieces(_ token: String, room: Int) -> [String] {
        guard token.count > room, room > 0 else { return [token] }
        var pieces: [String] = []
        var rest = Substring(token)
        while rest.count > room {
            let window = rest.prefix(room)
            let cut = window.lastIndex { ".:/- ".contains($0) }.map { window.index(after: $0) } ?? window.endIndex
            pieces.append(String(rest[..<cut]))
            rest = rest[cut...]
        }
        if !rest.isEmpty { pieces.append(String(rest)) }
        return pieces
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
