import Yams

/// Reads the few YAML shapes Content's blocks are written in, without libyaml: a mapping of
/// `key: value` lines whose values are plain or quoted scalars on one line, flow lists
/// (`[a, "b"]`), flow mappings (`{source: x, locator: "y"}`), a block list of those (`- {…}`),
/// or another such mapping indented under its key; and a top-level block list of such mappings
/// (`sources.yml`, `topics.yml`: `- id: x` with the item's other keys indented under `id`).
/// Anything else (comments, tabs, escapes, multi-line scalars, anchors, a value that would be a
/// YAML error) gives nil, and Yams reads the block. The result is the node Yams would give,
/// marks included; `YAMLSubsetTests` holds it to that on every block in Content. Reading a rule
/// block through Yams does far more work per block, and Yams' first read in a process also
/// compiles its resolver's regular expressions.
enum YAMLSubset {
    /// A line: where its bytes start and end in the block, and whether they are all ASCII (then a
    /// value's column is its byte offset, not a count of the characters before it).
    struct Line {
        var start: Int
        var end: Int
        var ascii: Bool
    }

    static func parse(_ text: String) -> YAMLNode? {
        // A copy the reader owns: a list item that is a mapping has its dash overwritten (below).
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty, let lines = lines(bytes) else { return nil }
        var reader = Reader(bytes: bytes, lines: lines)
        return reader.topLevel()
    }

    /// The lines of the block, or nil when it holds a byte the subset leaves to Yams.
    private static func lines(_ bytes: [UInt8]) -> [Line]? {
        var lines: [Line] = []
        lines.reserveCapacity(16)
        var start = 0
        var ascii = true
        var index = 0
        let count = bytes.count
        while index < count {
            let byte = bytes[index]
            // Printable ASCII but `#`: nearly every byte of a block, passed with one test.
            if byte >= 0x20 && byte < 0x7F && byte != UInt8(ascii: "#") {
                index += 1
                continue
            }
            switch byte {
            case 0x0A:
                lines.append(Line(start: start, end: index, ascii: ascii))
                start = index + 1
                ascii = true
            case 0x80...:
                // Not in the subset, left to Yams: C1 controls (NEL is a line break in YAML 1.1),
                // U+2028 and U+2029, the BOM, U+FFFE/F.
                ascii = false
                if byte == 0xC2, index + 1 < count, (0x80...0x9F).contains(bytes[index + 1]) { return nil }
                if byte == 0xE2, index + 2 < count, bytes[index + 1] == 0x80, bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9 {
                    return nil
                }
                if byte == 0xEF, index + 2 < count,
                   (bytes[index + 1] == 0xBB && bytes[index + 2] == 0xBF) || (bytes[index + 1] == 0xBF && bytes[index + 2] >= 0xBE) {
                    return nil
                }
            default:
                // `#` (comments), tab, CR and other controls, DEL.
                return nil
            }
            index += 1
        }
        lines.append(Line(start: start, end: count, ascii: ascii))
        return lines
    }

    private struct Reader {
        var bytes: [UInt8]
        let lines: [Line]
        var lineIndex = 0

        private static func isKeyCharacter(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "_"), UInt8(ascii: "-"): return true
            default: return false
            }
        }

        private func isBlank(_ line: Line) -> Bool {
            var index = line.start
            while index < line.end {
                if bytes[index] != UInt8(ascii: " ") { return false }
                index += 1
            }
            return true
        }

        /// libyaml counts columns in characters (Unicode scalars), from 1 here as Yams gives them.
        private func column(_ index: Int, in line: Line) -> Int {
            if line.ascii { return index - line.start + 1 }
            var column = 1
            for offset in line.start..<index where bytes[offset] & 0xC0 != 0x80 { column += 1 }
            return column
        }

        private func text(_ start: Int, _ end: Int) -> String {
            String(decoding: bytes[start..<end], as: UTF8.self)
        }

        private func skipSpaces(_ line: Line, _ index: Int) -> Int {
            var index = index
            while index < line.end && bytes[index] == UInt8(ascii: " ") { index += 1 }
            return index
        }

        /// A mapping, or a list starting in the first column; nothing but blank lines after it.
        mutating func topLevel() -> YAMLNode? {
            while lineIndex < lines.count && isBlank(lines[lineIndex]) { lineIndex += 1 }
            guard lineIndex < lines.count else { return nil }
            let node: YAMLNode
            let first = lines[lineIndex]
            if first.start < first.end && bytes[first.start] == UInt8(ascii: "-") {
                guard let list = blockList(indent: 0) else { return nil }
                node = list
            } else {
                lineIndex = 0
                guard let mapping = blockMapping(indent: 0) else { return nil }
                node = mapping
            }
            // Whatever is left must be blank: a line less indented than a nested mapping ends it, and
            // at the top that is a line the subset does not know.
            while lineIndex < lines.count {
                guard isBlank(lines[lineIndex]) else { return nil }
                lineIndex += 1
            }
            return node
        }

        /// `key: value` lines indented by `indent`, from `lineIndex` to the first line indented less
        /// (left there). A key with nothing after its colon takes a block list, or a mapping indented
        /// deeper, from the lines that follow.
        private mutating func blockMapping(indent: Int) -> YAMLNode? {
            // Room for a rule block's keys (about eight) up front: grown from nothing, the
            // array was copied three times a block.
            var pairs: [YAMLNode.Pair] = []
            pairs.reserveCapacity(8)
            var mark: YAMLNode.Mark?
            while lineIndex < lines.count {
                let line = lines[lineIndex]
                if isBlank(line) { lineIndex += 1; continue }
                let keyStart = skipSpaces(line, line.start)
                let lineIndent = keyStart - line.start
                if lineIndent < indent { break }
                guard lineIndent == indent else { return nil }
                var end = keyStart
                while end < line.end && Self.isKeyCharacter(bytes[end]) { end += 1 }
                // A key, a colon, then a space and a value or the line's end.
                guard end > keyStart, end < line.end, bytes[end] == UInt8(ascii: ":"),
                      bytes[keyStart] != UInt8(ascii: "-") else { return nil }
                let keyMark = YAMLNode.Mark(line: lineIndex + 1, column: indent + 1)
                if mark == nil { mark = keyMark }
                let key = YAMLNode(.scalar(text(keyStart, end)), mark: keyMark)
                if end + 1 == line.end {
                    lineIndex += 1
                    while lineIndex < lines.count && isBlank(lines[lineIndex]) { lineIndex += 1 }
                    guard lineIndex < lines.count else { return nil }
                    let next = lines[lineIndex]
                    let first = skipSpaces(next, next.start)
                    let nextIndent = first - next.start
                    if bytes[first] == UInt8(ascii: "-") {
                        guard nextIndent >= indent, let list = blockList(indent: nextIndent) else { return nil }
                        pairs.append(YAMLNode.Pair(key: key, value: list))
                    } else {
                        guard nextIndent > indent, let nested = blockMapping(indent: nextIndent) else { return nil }
                        pairs.append(YAMLNode.Pair(key: key, value: nested))
                    }
                    continue
                }
                guard bytes[end + 1] == UInt8(ascii: " ") else { return nil }
                let start = skipSpaces(line, end + 1)
                guard start < line.end, let (node, after) = value(line, start, line: lineIndex + 1, flow: false),
                      skipSpaces(line, after) == line.end else { return nil }
                pairs.append(YAMLNode.Pair(key: key, value: node))
                lineIndex += 1
            }
            guard !pairs.isEmpty else { return nil }
            return YAMLNode(.mapping(pairs), mark: mark)
        }

        /// `- item` lines indented by `indent`, from `lineIndex` to the first line that is not one
        /// (left there). An item is a one-line value, or a mapping whose first key follows the dash
        /// and whose other keys are indented to that key's column.
        private mutating func blockList(indent: Int) -> YAMLNode? {
            var items: [YAMLNode] = []
            items.reserveCapacity(2)
            let mark = YAMLNode.Mark(line: lineIndex + 1, column: indent + 1)
            while lineIndex < lines.count {
                let line = lines[lineIndex]
                let dash = skipSpaces(line, line.start)
                guard dash - line.start == indent, dash < line.end, bytes[dash] == UInt8(ascii: "-") else { break }
                guard dash + 1 < line.end, bytes[dash + 1] == UInt8(ascii: " ") else { return nil }
                let start = skipSpaces(line, dash + 1)
                guard start < line.end else { return nil }
                if startsKey(line, at: start) {
                    // With the dash read as a space, the item is a mapping indented to its first key.
                    // (Nothing reads a line twice, so the bytes can be changed in place.)
                    bytes[dash] = UInt8(ascii: " ")
                    guard let mapping = blockMapping(indent: start - line.start) else { return nil }
                    items.append(mapping)
                    continue
                }
                guard let (item, after) = value(line, start, line: lineIndex + 1, flow: false),
                      skipSpaces(line, after) == line.end else { return nil }
                items.append(item)
                lineIndex += 1
            }
            guard !items.isEmpty else { return nil }
            return YAMLNode(.sequence(items), mark: mark)
        }

        /// `key:` followed by a space or the line's end: the start of a mapping.
        private func startsKey(_ line: Line, at start: Int) -> Bool {
            var end = start
            while end < line.end && Self.isKeyCharacter(bytes[end]) { end += 1 }
            return end > start && end < line.end && bytes[end] == UInt8(ascii: ":")
                && (end + 1 == line.end || bytes[end + 1] == UInt8(ascii: " "))
        }

        /// A value starting at `index`, and the index after it. `flow`: inside `[…]` or `{…}`, where
        /// `,`, `]` and `}` end a plain scalar.
        private func value(_ line: Line, _ index: Int, line number: Int, flow: Bool) -> (YAMLNode, Int)? {
            let mark = YAMLNode.Mark(line: number, column: column(index, in: line))
            switch bytes[index] {
            case UInt8(ascii: "["):
                var items: [YAMLNode] = []
                items.reserveCapacity(4)  // a flow list: two or three names
                var position = skipSpaces(line, index + 1)
                guard position < line.end else { return nil }
                if bytes[position] == UInt8(ascii: "]") { return (YAMLNode(.sequence([]), mark: mark), position + 1) }
                while true {
                    guard position < line.end, let (item, after) = value(line, position, line: number, flow: true) else { return nil }
                    items.append(item)
                    position = skipSpaces(line, after)
                    guard position < line.end else { return nil }
                    if bytes[position] == UInt8(ascii: "]") { return (YAMLNode(.sequence(items), mark: mark), position + 1) }
                    guard bytes[position] == UInt8(ascii: ",") else { return nil }
                    position = skipSpaces(line, position + 1)
                }
            case UInt8(ascii: "{"):
                var pairs: [YAMLNode.Pair] = []
                pairs.reserveCapacity(6)  // a flow mapping: a number's five keys, a citation's two
                var position = skipSpaces(line, index + 1)
                guard position < line.end, bytes[position] != UInt8(ascii: "}") else { return nil }
                while true {
                    let keyStart = position
                    while position < line.end && Self.isKeyCharacter(bytes[position]) { position += 1 }
                    guard position > keyStart, position + 1 < line.end, bytes[position] == UInt8(ascii: ":"),
                          bytes[position + 1] == UInt8(ascii: " "),
                          bytes[keyStart] != UInt8(ascii: "-") else { return nil }
                    let key = YAMLNode(.scalar(text(keyStart, position)),
                                       mark: YAMLNode.Mark(line: number, column: column(keyStart, in: line)))
                    position = skipSpaces(line, position + 1)
                    guard position < line.end, let (item, after) = value(line, position, line: number, flow: true) else { return nil }
                    pairs.append(YAMLNode.Pair(key: key, value: item))
                    position = skipSpaces(line, after)
                    guard position < line.end else { return nil }
                    if bytes[position] == UInt8(ascii: "}") { return (YAMLNode(.mapping(pairs), mark: mark), position + 1) }
                    guard bytes[position] == UInt8(ascii: ",") else { return nil }
                    position = skipSpaces(line, position + 1)
                }
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                let quote = bytes[index]
                var close = index + 1
                while close < line.end && bytes[close] != quote {
                    // Escapes (and a doubled single quote) are left to Yams.
                    if bytes[close] == UInt8(ascii: "\\") { return nil }
                    close += 1
                }
                guard close < line.end else { return nil }
                if quote == UInt8(ascii: "'"), close + 1 < line.end, bytes[close + 1] == UInt8(ascii: "'") { return nil }
                return (YAMLNode(.scalar(text(index + 1, close)), mark: mark), close + 1)
            default:
                // A plain scalar: not starting with an indicator, holding no `:` that could start a
                // mapping (in a list or mapping between braces, none at all), ended by a flow
                // delimiter in flow context and by the line's end otherwise, trailing spaces trimmed.
                switch bytes[index] {
                case UInt8(ascii: "-"), UInt8(ascii: "?"), UInt8(ascii: ":"), UInt8(ascii: ","), UInt8(ascii: "["), UInt8(ascii: "]"),
                     UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "&"), UInt8(ascii: "*"), UInt8(ascii: "!"), UInt8(ascii: "|"),
                     UInt8(ascii: ">"), UInt8(ascii: "%"), UInt8(ascii: "@"), UInt8(ascii: "`"):
                    return nil
                default: break
                }
                var end = index
                while end < line.end {
                    let byte = bytes[end]
                    if flow {
                        if byte == UInt8(ascii: ",") || byte == UInt8(ascii: "]") || byte == UInt8(ascii: "}") { break }
                        if byte == UInt8(ascii: ":") || byte == UInt8(ascii: "[") || byte == UInt8(ascii: "{") { return nil }
                    } else if byte == UInt8(ascii: ":") && (end + 1 == line.end || bytes[end + 1] == UInt8(ascii: " ")) {
                        return nil
                    }
                    end += 1
                }
                var last = end
                while last > index && bytes[last - 1] == UInt8(ascii: " ") { last -= 1 }
                guard last > index else { return nil }
                return (YAMLNode(.scalar(text(index, last)), mark: mark), end)
            }
        }
    }
}

/// For the fuzzer and tests: why `YAMLSubset`'s reading of `text` differs from Yams', or nil when
/// it does not (the subset turned the text down, or read exactly what Yams reads).
public enum YAMLSubsetCheck {
    public static func mismatch(_ text: String) -> String? {
        guard let fast = YAMLSubset.parse(text) else { return nil }
        do {
            guard let slow = try Yams.compose(yaml: text).map(YAMLNode.init) else { return "the subset read text in which Yams finds nothing" }
            return fast == slow ? nil : "the subset and Yams read different nodes"
        } catch {
            return "the subset read text Yams rejects: \(error)"
        }
    }
}
