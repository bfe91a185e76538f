import BGKBMarkdown
import BGKBModel

extension BlockWalker {
    /// Builds a rule from a gathered point: its annotation wins over what the text implies.
    mutating func rule(from draft: PointDraft, documentID: String, diagnostics: inout Diagnostics) -> Rule {
        let annotation = draft.annotation.map { block -> RuleAnnotation in
            RuleAnnotation(block: YAMLBlock(path: parser.path, firstLine: block.start.line + 1, columnOffset: block.start.column - 1,
                                            text: block.literal), diagnostics: &diagnostics)
        } ?? nil
        if let annotation { references += annotation.references }
        if let id = annotation?.id { explicitIDs.insert(id) }

        // The lead paragraph: the first one that is not a labelled Why/Instead paragraph.
        let leadIndex = draft.blocks.firstIndex { if case .paragraph = $0.kind { return !Self.isLabelled($0) } else { return false } }
        var inlines: [MarkdownNode] = leadIndex.map { draft.blocks[$0].children } ?? []
        let callout = Self.stripCallout(&inlines)
        let leadText = MarkdownNode.plainText(of: inlines[...])
        var statement = Sentence.first(in: leadText)
        if statement.isEmpty, let first = draft.blocks.first { statement = Sentence.first(in: first.plainText) }
        let tail = Self.inlines(inlines, after: statement, in: leadText)

        // Room for a part per block up front, in each list below.
        let blockCount = draft.blocks.count
        var detailParts: [String] = []
        detailParts.reserveCapacity(blockCount + 1)
        let tailMarkdown = MarkdownWriter.inlines(tail).trimmed
        if !tailMarkdown.isEmpty { detailParts.append(tailMarkdown) }
        var why: [String] = []
        var instead: [String] = []
        var plainParts = [leadText]
        plainParts.reserveCapacity(blockCount + 1)
        var prose = [leadText]
        prose.reserveCapacity(blockCount + 1)
        var codeSpans: [String] = []
        codeSpans.reserveCapacity(8)
        // Lists and code right after a Why/Instead paragraph belong to it, until the next paragraph.
        var currentLabel: String?
        for (index, block) in draft.blocks.enumerated() {
            block.appendCodeSpanLiterals(to: &codeSpans)
            if index == leadIndex { continue }
            if let label = Self.label(of: block) {
                let text = MarkdownWriter.inlines(block.children.dropFirst()).trimmed
                if label == "why" { why.append(text) } else { instead.append(text) }
                plainParts.append(MarkdownNode.plainText(of: block.children.dropFirst()))
                currentLabel = label
                continue
            }
            if case .paragraph = block.kind { currentLabel = nil }
            if let label = currentLabel {
                if label == "why" { why.append(source(of: block)) } else { instead.append(source(of: block)) }
                continue
            }
            if leadIndex == nil, index == 0, case .list = block.kind {
                // A point that is only a list: the first item is the statement, the rest is details.
                detailParts.append(source(of: block))
                prose.append(block.plainText)
                continue
            }
            detailParts.append(source(of: block))
            // Made once for both lists: a block's plain text is a walk over its whole tree.
            if case .codeBlock = block.kind {} else {
                let text = block.plainText
                plainParts.append(text)
                prose.append(text)
            }
        }
        let plain = plainParts.joined(separator: "\n")

        let id = annotation?.id ?? DerivedID.make(from: statement)
        let examples = draft.examples.compactMap { example(from: $0, rule: id, diagnostics: &diagnostics) }
        let sources: [Citation] = annotation?.sources ?? front.source.map { [Citation(source: $0, version: front.version)] } ?? []
        let topics = annotation?.topics ?? inferTopics(plain)
        let apis = Self.withoutBareDuplicates((annotation?.apis ?? []) + codeSpans.filter(Self.looksLikeAPI) + PlainText.apis(in: plain))
        let title = annotation?.title ?? PlainText.title(from: statement)
        let numbers = annotation?.numbers ?? PlainText.numbers(in: plain, measures: title)
        // The plain text and the code spans looked at one by one: no word runs across two of them.
        let crashCodes = (annotation?.crashCodes ?? []) + PlainText.crashCodes(in: plain) + codeSpans.flatMap(PlainText.crashCodes(in:))
        return Rule(id: id, title: title, statement: statement.replacingNewlines, details: detailParts.joined(separator: "\n\n"),
                    kind: annotation?.kind ?? PlainText.kind(of: statement), callout: callout, topics: topics, apis: apis,
                    numbers: numbers, crashCodes: crashCodes.uniqued, sources: sources,
                    why: why.isEmpty ? nil : why.joined(separator: "\n\n"), instead: instead.isEmpty ? nil : instead.joined(separator: "\n\n"),
                    examples: examples, dispute: annotation?.dispute, notSimulated: annotation?.notSimulated,
                    related: annotation?.related ?? [], wording: prose.map(\.trimmed).filter { !$0.isEmpty }.joined(separator: "\n\n"),
                    document: documentID, version: front.version,
                    location: parser.location(draft.blocks.first?.start ?? Position(line: 1, column: 1)))
    }

    private func inferTopics(_ plain: String) -> [String] {
        let lower = plain.lowercased()
        let matched = parser.topics.filter { topic in topic.keywords.contains { PlainText.contains(lower, $0.lowercased()) } }.map(\.id)
        return matched.isEmpty ? front.topics : matched
    }

    /// Frameworks are not APIs a rule can point at. A switch, not a set: most names an API list
    /// holds are longer than any of these, and comparing lengths turns them down without the
    /// hashing a set look-up does.
    static func isFrameworkName(_ name: String) -> Bool {
        switch name {
        case "UIKit", "BackgroundTasks", "Foundation", "SwiftUI", "WatchKit", "UserNotifications", "Dispatch": return true
        default: return false
        }
    }

    /// Drops `endBackgroundTask(_:)` when `UIApplication.endBackgroundTask(_:)` is also named, and framework names.
    static func withoutBareDuplicates(_ apis: [String]) -> [String] {
        let unique = apis.uniqued.filter { !isFrameworkName($0) }
        // Each name's dotted form made once, not once per pair.
        let dotted = unique.map { "." + $0 }
        // A name never ends with a dot and itself, so no name is compared with itself.
        return unique.indices.filter { index in !unique.contains { $0.hasSuffix(dotted[index]) } }.map { unique[$0] }
    }

    /// Code spans that name an API rather than a value: no space, starts with a letter, `_` or
    /// `.`, longer than two and holding a capital or `(`. By Unicode scalars: a letter or capital
    /// is one by its scalar properties.
    static func looksLikeAPI(_ span: String) -> Bool {
        let scalars = span.unicodeScalars
        guard let first = scalars.first else { return false }
        let isLetter = first.isASCII ? ("a"..."z").contains(first) || ("A"..."Z").contains(first) : first.properties.isAlphabetic
        guard isLetter || first == "_" || first == "." else { return false }
        return !scalars.contains(" ") && !scalars.dropFirst(2).isEmpty
            && scalars.contains { $0 == "(" || ($0.isASCII ? ("A"..."Z").contains($0) : $0.properties.isUppercase) }
    }

    /// Removes a leading `IMPORTANT`, `Note` or `Warning` label (plain or bold) from a paragraph's inlines.
    static func stripCallout(_ inlines: inout [MarkdownNode]) -> Callout? {
        guard let first = inlines.first else { return nil }
        if case .strong = first.kind {
            let label = first.plainText.trimmingCharacters(in: ":. ")
            guard let callout = callout(named: label) else { return nil }
            inlines.removeFirst()
            if let next = inlines.first, case .text = next.kind {
                inlines[0].literal = String(next.literal.drop { $0 == " " || $0 == ":" })
            }
            return callout
        }
        guard case .text = first.kind else { return nil }
        // The first word and the rest, cut at the first space Character.
        let literal = first.literal
        let space = literal.firstIndex(of: " ")
        let word = literal[..<(space ?? literal.endIndex)]
        let label = word.hasSuffix(":") ? String(word.dropLast()) : String(word)
        guard let callout = callout(named: label) else { return nil }
        let rest = space.map { String(literal[literal.index(after: $0)...]) } ?? ""
        // `Note that …` is prose, not a callout: a callout is followed by `:` or a capitalised sentence.
        let continuesWithCapital = rest.first.map(\.isUppercase) ?? (inlines.count > 1)
        if callout != .important, !word.hasSuffix(":"), !continuesWithCapital { return nil }
        inlines[0].literal = rest
        return callout
    }

    private static func callout(named label: String) -> Callout? {
        switch label {
        case "IMPORTANT", "Important": return .important
        case "Note", "NOTE": return .note
        case "Warning", "WARNING": return .warning
        default: return nil
        }
    }

    /// The inlines that remain after the statement: the statement is a prefix of the plain text
    /// (after its leading spaces and line breaks), so the nodes are cut by UTF-8 byte counts.
    static func inlines(_ inlines: [MarkdownNode], after statement: String, in plain: String) -> [MarkdownNode] {
        let leading = plain.utf8.prefix { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\n") }.count
        var remaining = leading + statement.utf8.count
        var result: [MarkdownNode] = []
        for node in inlines {
            if remaining <= 0 { result.append(node); continue }
            let length = node.plainTextByteCount
            if length <= remaining { remaining -= length; continue }
            if case .text = node.kind {
                var rest = node
                rest.literal = String(decoding: node.literal.utf8.dropFirst(remaining), as: UTF8.self)
                result.append(rest)
            } else {
                // The sentence ends inside emphasis or a link: keep the whole node rather than break markup.
                result.append(node)
            }
            remaining = 0
        }
        return result
    }

    /// A block's Markdown exactly as written in the file.
    func source(of block: MarkdownNode) -> String {
        let first = max(1, block.start.line)
        var last = min(lines.count, max(block.end.line, first))
        guard first <= last else { return "" }
        // cmark ends a block on the line before a blank one, except lists, whose end may include it.
        while last >= first && lines.isBlank(last - 1) { last -= 1 }
        return lines.joined((first - 1)..<last)
    }

    private func example(from block: MarkdownNode, rule: String, diagnostics: inout Diagnostics) -> Example? {
        guard case let .codeBlock(info, _) = block.kind else { return nil }
        let words = Self.infoWords(info)
        let location = SourceLocation(path: parser.path, line: block.start.line + 1, column: block.start.column)
        guard words.count >= 2, let intent = Example.Intent(rawValue: words[1]) else {
            diagnostics.error("example-without-intent", "an example must say `scenario follows` or `scenario breaks`", at: parser.location(block.start))
            return nil
        }
        let hasExpectation = Self.hasExpectationLine(block.literal)
        if !hasExpectation {
            diagnostics.error("example-without-expectation", "this example states no expectation: add a line such as `expect suspended`",
                              at: parser.location(block.start))
        }
        let name = words.count > 2 ? words[2...].joined(separator: " ") : nil
        return Example(rule: rule, name: name, intent: intent, text: block.literal, location: location)
    }

    /// Whether a line, after its indentation (spaces and tabs), starts with `expect` (lines split
    /// at line feeds, compared as UTF-8).
    static func hasExpectationLine(_ text: String) -> Bool {
        // One pass over the bytes: at each line's start, skip its indentation and compare.
        let bytes = Array(text.utf8)
        let expect = Array("expect".utf8)
        var index = 0
        while index < bytes.count {
            while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
            if bytes.count - index >= expect.count, bytes[index] == expect[0], bytes[index..<index + expect.count].elementsEqual(expect) { return true }
            guard let lineFeed = Bytes.firstOffset(of: lineFeedNeedle, in: bytes, from: index) else { return false }
            index = lineFeed + 1
        }
        return false
    }

    private static let lineFeedNeedle = [UInt8(ascii: "\n")]

    /// Splits an info string into words, keeping "quoted names" whole and without their quotes.
    /// By Unicode scalars: a quote or space is one scalar, read among the UTF-8 bytes (`"` and the
    /// space are one byte each, `“` and `”` three, and no scalar's bytes hold one of theirs).
    static func infoWords(_ info: String) -> [String] {
        let bytes = Array(info.utf8)
        // The delimiter scalar that starts at `index` and its length in bytes, or nil.
        func delimiter(at index: Int) -> (scalar: Unicode.Scalar, length: Int)? {
            switch bytes[index] {
            case UInt8(ascii: " "): return (" ", 1)
            case UInt8(ascii: "\""): return ("\"", 1)
            case 0xE2 where bytes[index...].starts(with: "“".utf8): return ("“", 3)
            case 0xE2 where bytes[index...].starts(with: "”".utf8): return ("”", 3)
            default: return nil
            }
        }
        var words: [String] = []
        words.reserveCapacity(4)
        var start: Int?
        var quote: Unicode.Scalar?
        var index = 0
        while index < bytes.count {
            let found = delimiter(at: index)
            let scalar = found?.scalar
            if let open = quote {
                if let scalar, scalar == open || (open == "“" && scalar == "”") {
                    words.append(String(decoding: bytes[(start ?? index)..<index], as: UTF8.self))
                    start = nil
                    quote = nil
                } else if start == nil {
                    start = index
                }
            } else if let scalar, scalar != "”" {
                if let first = start { words.append(String(decoding: bytes[first..<index], as: UTF8.self)) }
                start = nil
                if scalar != " " { quote = scalar }
            } else if start == nil {
                start = index
            }
            index += found?.length ?? 1
        }
        if let first = start { words.append(String(decoding: bytes[first...], as: UTF8.self)) }
        return words
    }
}
