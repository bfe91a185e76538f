import BGKBMarkdown
import BGKBModel

/// Turns one Content file into a document version: front matter, points (rules), examples, the
/// sign-off, the revision history, and conflict notes. It walks cmark's block tree; the only
/// text it reads by line is what cmark has already located (front matter, fence lines).
struct DocumentParser {
    static let frontMatterFields = ["title", "document", "version", "source", "topics", "summary"]
    static let signOffOpenings = ["share and enjoy", "cheers", "thanks", "thank you", "regards", "best regards", "best wishes", "kind regards"]
    static let longestSignOffOpening = signOffOpenings.map(\.utf8.count).max() ?? 0
    /// The first three bytes of each opening (all ASCII).
    static let signOffHeads = signOffOpenings.map { Array($0.utf8.prefix(3)) }
    static let historyTitles = ["revision history", "change history", "changelog", "change log"]

    let path: String
    let text: String
    let defaultDocumentID: String
    let topics: [Topic]

    func parse(diagnostics: inout Diagnostics) -> ParsedFile {
        let lines = SourceLines(text)
        var front = FrontMatter()
        var bodyStart = 0
        if lines[0].trimmed == "---" {
            if let end = (1..<lines.count).first(where: { lines[$0].trimmed == "---" || lines[$0].trimmed == "..." }) {
                front = FrontMatter(block: YAMLBlock(path: path, firstLine: 2, columnOffset: 0, text: lines.joined(1..<end)),
                                    diagnostics: &diagnostics)
                bodyStart = end + 1
            } else {
                diagnostics.error("bad-front-matter", "front matter opened here is never closed with `---`", at: location(line: 1, column: 1))
            }
        }
        // `lines[bodyStart...].joined(separator: "\n")`, taken from the text instead of rebuilt.
        let bodyOffset = lines.offset(ofLine: bodyStart)
        let body = bodyOffset >= text.utf8.count ? "" : String(text[text.utf8.index(text.utf8.startIndex, offsetBy: bodyOffset)...])
        var tree = CommonMarkConverter.parse(body, lineOffset: bodyStart)
        // A post saved from a forum page as it is: a line a paragraph if it has no blank lines,
        // and the page's own lines are never points.
        if SavedPageLines.hasNoBlankLine(body) { SavedPageLines.split(&tree) }
        let chromeLines = ForumChrome.strip(&tree)
        var walker = BlockWalker(parser: self, lines: lines, front: front)
        walker.walk(tree, diagnostics: &diagnostics)

        let documentID = front.document ?? defaultDocumentID
        let rules = walker.points.enumerated().map { walker.rule(from: $0.element, documentID: documentID, diagnostics: &diagnostics) }
        var seen: [String: SourceLocation] = [:]
        var uniqueRules: [Rule] = []
        for var rule in rules {
            if let earlier = seen[rule.id] {
                if walker.explicitIDs.contains(rule.id) {
                    diagnostics.error("duplicate-id", "rule id `\(rule.id)` is used twice in this document", at: rule.location,
                                      notes: ["first used at \(earlier)"])
                } else {
                    var suffix = 2
                    while seen["\(rule.id)-\(suffix)"] != nil { suffix += 1 }
                    rule = rule.with { fields in
                        fields.id = "\(fields.id)-\(suffix)"
                        fields.examples = fields.examples.map { var example = $0; example.rule = fields.id; return example }
                    }
                }
            }
            seen[rule.id] = rule.location
            uniqueRules.append(rule)
        }
        if uniqueRules.isEmpty && walker.entries.isEmpty {
            diagnostics.warning("empty-document", "no points found: every paragraph is a point, unless it follows the sign-off",
                                at: location(line: bodyStart + 1, column: 1))
        }
        let version = DocumentVersion(label: front.version, source: front.source, path: path, rules: uniqueRules,
                                      revisions: walker.entries.map { var entry = $0; entry.document = documentID; return entry },
                                      signOff: walker.signOff, summary: front.summary)
        return ParsedFile(documentID: documentID, title: front.title ?? walker.firstHeading ?? documentID, sourceID: front.source,
                          summary: front.summary, version: version, conflictNotes: walker.conflictNotes,
                          references: front.references + walker.references, location: location(line: 1, column: 1),
                          chromeLines: chromeLines)
    }

    func location(line: Int, column: Int) -> SourceLocation { SourceLocation(path: path, line: line, column: column) }
    func location(_ position: Position) -> SourceLocation { location(line: position.line, column: position.column) }
}

/// Front matter fields, read with positions.
struct FrontMatter {
    var title: String?
    var document: String?
    var version: String?
    var source: String?
    var topics: [String] = []
    var summary: String?
    var references: [Reference] = []

    init() {}

    init(block: YAMLBlock, diagnostics: inout Diagnostics) {
        guard !block.text.trimmed.isEmpty, let node = block.compose(diagnostics: &diagnostics, what: "front matter"),
              let reader = FieldReader(node, block: block, what: "front matter", allowed: DocumentParser.frontMatterFields, diagnostics: &diagnostics)
        else { return }
        title = reader.string("title", diagnostics: &diagnostics)
        document = reader.string("document", diagnostics: &diagnostics)
        if let document { RuleAnnotation.checkID(document, at: reader.location("document"), diagnostics: &diagnostics) }
        version = reader.string("version", diagnostics: &diagnostics)
        if let version, case let .invalid(message, id) = RevisionDate.parse(version) {
            diagnostics.error(id, "version \(message)", at: reader.location("version"))
        }
        source = reader.string("source", diagnostics: &diagnostics)
        if let source { references.append(Reference(target: .source, id: source, location: reader.location("source"), role: "document source")) }
        let topicValues = reader.strings("topics", diagnostics: &diagnostics)
        topics = topicValues.map(\.0)
        references += topicValues.map { Reference(target: .topic, id: $0.0, location: $0.1, role: "topic") }
        summary = reader.string("summary", diagnostics: &diagnostics)
    }
}

/// A point as gathered from the block stream, before it becomes a rule.
struct PointDraft {
    var blocks: [MarkdownNode]
    var annotation: MarkdownNode?
    var examples: [MarkdownNode] = []
}

/// The state machine over top-level blocks: points, then the sign-off, then the history, then
/// whatever follows (ignored).
struct BlockWalker {
    enum State { case points, signedOff, history, ended }

    let parser: DocumentParser
    let lines: SourceLines
    let front: FrontMatter
    var state = State.points
    var pending: [MarkdownNode] = []
    var points: [PointDraft] = []
    var entries: [RevisionEntry] = []
    var conflictNotes: [ConflictNote] = []
    var references: [Reference] = []
    var explicitIDs = Set<String>()
    var signOff: String?
    var firstHeading: String?
    var annotated = false
    /// First lines of the top-level paragraphs and headings (see `firstLine(of:)`).
    var firstLines: [BlockKey: FirstLine] = [:]

    /// A top-level block's first line, and whether that makes it the revision history's title
    /// (asked of every block two or three times: trimmed and lowercased once).
    struct FirstLine {
        var text: String
        var isHistoryTitle: Bool

        init(_ text: String) {
            self.text = text
            isHistoryTitle = BlockWalker.isHistoryTitle(firstLine: text)
        }
    }

    /// A top-level block, by where it starts and ends (no two share both).
    struct BlockKey: Hashable {
        var start: Position
        var end: Position
        init(_ block: MarkdownNode) { start = block.start; end = block.end }
    }

    init(parser: DocumentParser, lines: SourceLines, front: FrontMatter) {
        self.parser = parser
        self.lines = lines
        self.front = front
    }

    mutating func walk(_ document: MarkdownNode, diagnostics: inout Diagnostics) {
        // Room for every top-level block up front: grown from nothing, the table was rehashed
        // eight or nine times a document.
        firstLines.reserveCapacity(document.children.count)
        for block in document.children {
            switch block.kind {
            case .paragraph, .heading: firstLines[BlockKey(block)] = FirstLine(Self.firstLine(of: block))
            default: break
            }
        }
        annotated = document.children.contains { Self.fenceWord($0) == "rule" }
        let signOffBreak = signOffBreakIndex(document.children)
        for (index, block) in document.children.enumerated() {
            if index == signOffBreak, state == .points {
                flushPlain()
                state = .signedOff
                signOff = document.children[(index + 1)...].prefix { if case .paragraph = $0.kind { return !isHistoryTitle($0) } else { return false } }
                    .map { $0.plainText.trimmed }.joined(separator: "\n")
                continue
            }
            checkFence(block, diagnostics: &diagnostics)
            if Self.fenceWord(block) == "conflict" {
                readConflict(block, diagnostics: &diagnostics)
                continue
            }
            switch state {
            case .points: point(block, diagnostics: &diagnostics)
            case .signedOff:
                if isHistoryTitle(block) { beginHistory(block, diagnostics: &diagnostics) }
            case .history: historyBlock(block, diagnostics: &diagnostics)
            case .ended: break
            }
        }
        flushPlain()
    }

    /// A thematic break is the sign-off when only one or two paragraphs (or nothing) follow it before
    /// the revision history or the end: `---` then a signature.
    private func signOffBreakIndex(_ blocks: [MarkdownNode]) -> Int? {
        let historyIndex = blocks.firstIndex(where: isHistoryTitle) ?? blocks.count
        guard let last = blocks[..<historyIndex].lastIndex(where: { if case .thematicBreak = $0.kind { return true } else { return false } }) else {
            return nil
        }
        let after = blocks[(last + 1)..<historyIndex].filter { Self.fenceWord($0) != "conflict" }
        let onlyShortParagraphs = after.count <= 2 && after.allSatisfy { if case .paragraph = $0.kind { return true } else { return false } }
        return onlyShortParagraphs ? last : nil
    }

    // MARK: Points

    private mutating func point(_ block: MarkdownNode, diagnostics: inout Diagnostics) {
        switch block.kind {
        case let .heading(level):
            if level == 1, firstHeading == nil { firstHeading = block.plainText.trimmed }
            if isHistoryTitle(block) { beginHistory(block, diagnostics: &diagnostics); return }
            flushPlain()
        case .paragraph:
            if isHistoryTitle(block) { beginHistory(block, diagnostics: &diagnostics); return }
            if isSignOff(block) {
                flushPlain()
                signOff = block.plainText.trimmed
                state = .signedOff
                return
            }
            if isTitleLine(block) {
                firstHeading = block.plainText.trimmed
                return
            }
            if !annotated { flushPlain() }
            pending.append(block)
        case .thematicBreak:
            flushPlain()
        case .codeBlock:
            switch Self.fenceWord(block) {
            case "rule":
                guard !pending.isEmpty else {
                    diagnostics.error("missing-rule", "this ```rule block has no point before it", at: parser.location(block.start))
                    return
                }
                points.append(PointDraft(blocks: pending, annotation: block))
                // The next point's blocks start with the room this one's had.
                pending.removeAll(keepingCapacity: true)
            case "scenario":
                flushPlain()
                guard !points.isEmpty else {
                    diagnostics.error("missing-rule", "this example has no rule before it", at: parser.location(block.start))
                    return
                }
                points[points.count - 1].examples.append(block)
            default:
                pending.append(block)
            }
        default:
            pending.append(block)
        }
    }

    /// Turns pending blocks with no ```rule block into points, one per paragraph with the blocks after it.
    private mutating func flushPlain() {
        guard !pending.isEmpty else { return }
        var current: [MarkdownNode] = []
        for block in pending {
            if case .paragraph = block.kind, !current.isEmpty, !Self.isLabelled(block) {
                points.append(PointDraft(blocks: current))
                current = []
            }
            current.append(block)
        }
        if !current.isEmpty { points.append(PointDraft(blocks: current)) }
        pending = []
    }

    private func firstLine(of block: MarkdownNode) -> String {
        firstLines[BlockKey(block)]?.text ?? Self.firstLine(of: block)
    }

    /// A plain post's title as a page copies it: the first block, before any heading or point, one
    /// short line that does not end a sentence (`Background Task Notes`). It titles the document
    /// as a level-1 heading would, and is not a point.
    private func isTitleLine(_ block: MarkdownNode) -> Bool {
        guard !annotated, firstHeading == nil, points.isEmpty, pending.isEmpty,
              !block.children.contains(where: { if case .softBreak = $0.kind { return true } else { return false } }) else { return false }
        let text = firstLine(of: block)
        guard let last = text.last, text.split(separator: " ").count <= 12 else { return false }
        return !".!?:;,)”\"".contains(last)
    }

    private func isSignOff(_ block: MarkdownNode) -> Bool {
        Self.isSignOff(firstLine: firstLine(of: block))
    }

    /// Whether a first line opens like a sign-off (the openings are lowercase; only as much of
    /// the line as the longest opening is lower-cased).
    static func isSignOff(firstLine line: String) -> Bool {
        // Lower-casing maps an ASCII scalar to one ASCII scalar, and its text starts as its first
        // scalars' do: a line whose first three bytes are ASCII and, lower-cased, start no opening
        // (`The`, `When`) is not lower-cased further.
        var bytes = line.utf8.makeIterator()
        if let first = bytes.next(), let second = bytes.next(), let third = bytes.next(), first < 0x80, second < 0x80, third < 0x80 {
            let (a, b, c) = (asciiLowercase(first), asciiLowercase(second), asciiLowercase(third))
            guard DocumentParser.signOffHeads.contains(where: { $0[0] == a && $0[1] == b && $0[2] == c }) else { return false }
        }
        let first = line.prefix(DocumentParser.longestSignOffOpening + 1).lowercased()
        return DocumentParser.signOffOpenings.contains { first.hasPrefix($0) }
    }

    static func asciiLowercase(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 0x20 : byte
    }

    private func isHistoryTitle(_ block: MarkdownNode) -> Bool {
        switch block.kind {
        case .heading, .paragraph:
            if let known = firstLines[BlockKey(block)] { return known.isHistoryTitle }
            return Self.isHistoryTitle(firstLine: Self.firstLine(of: block))
        default: return false
        }
    }

    static func isHistoryTitle(firstLine: String) -> Bool {
        // A line of more than 64 bytes that neither starts nor ends with `:` or a blank (bytes and
        // scalars of their own) is trimmed of nothing below: it is too long, and is not trimmed.
        let utf8 = firstLine.utf8
        func isTrimmed(_ byte: UInt8?) -> Bool {
            byte == UInt8(ascii: ":") || byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\t")
        }
        if utf8.count > 64, !isTrimmed(utf8.first), !isTrimmed(utf8.last) { return false }
        let candidate = firstLine.trimmingCharacters(in: ":").trimmed
        // A title is at most 16 ASCII bytes, and lower-casing shrinks text to no less than a third
        // of its bytes (the Kelvin sign to `k`): a longer line is not one, and is not lower-cased.
        guard candidate.utf8.count <= 64 else { return false }
        return DocumentParser.historyTitles.contains(candidate.lowercased())
    }

    /// `block.plainText.trimmed.split(separator: "\n").first`, by Unicode scalars, read only as
    /// far as the line (see `MarkdownNode.plainTextFirstLine`). `walk` asks it once per top-level block.
    static func firstLine(of block: MarkdownNode) -> String {
        block.plainTextFirstLine
    }

    // MARK: History

    private mutating func beginHistory(_ block: MarkdownNode, diagnostics: inout Diagnostics) {
        flushPlain()
        state = .history
        if case .paragraph = block.kind {
            // `Revision History` followed by entries on the next lines of the same paragraph.
            let lines = Self.lines(of: block.children)
            readEntryLines(Array(lines.dropFirst()), block: block, firstLineIndex: 1, diagnostics: &diagnostics)
        }
    }

    private mutating func historyBlock(_ block: MarkdownNode, diagnostics: inout Diagnostics) {
        switch block.kind {
        case .list:
            for item in block.children {
                let inlines = item.children.first.map { $0.children } ?? []
                let line = Self.lines(of: inlines).first ?? []
                if !readEntry(line, at: parser.location(item.start), diagnostics: &diagnostics) { state = .ended; return }
            }
        case .paragraph:
            readEntryLines(Self.lines(of: block.children), block: block, firstLineIndex: 0, diagnostics: &diagnostics)
        default:
            state = .ended
        }
    }

    private mutating func readEntryLines(_ lines: [[MarkdownNode]], block: MarkdownNode, firstLineIndex: Int, diagnostics: inout Diagnostics) {
        for (offset, line) in lines.enumerated() {
            let location = SourceLocation(path: parser.path, line: block.start.line + firstLineIndex + offset,
                                          column: offset + firstLineIndex == 0 ? block.start.column : 1)
            if !readEntry(line, at: location, diagnostics: &diagnostics) { state = .ended; return }
        }
    }

    /// Reads one entry; false when the line is not an entry (the history has ended).
    private mutating func readEntry(_ inlines: [MarkdownNode], at location: SourceLocation, diagnostics: inout Diagnostics) -> Bool {
        let text = MarkdownNode.plainText(of: inlines[...]).trimmed
        if text.isEmpty { return true }
        switch RevisionDate.parse(text) {
        case let .date(day, written, rest):
            let clauses = Self.clauses(of: inlines, dropping: text.count - rest.count)
            let linked = clauses.flatMap(\.linkedRules).uniqued
            references += linked.map { Reference(target: .rule, id: $0, location: location, role: "revision entry link") }
            entries.append(RevisionEntry(date: day, writtenDate: written, text: rest, linkedRules: linked, clauses: clauses,
                                         document: front.document ?? parser.defaultDocumentID, version: front.version, location: location))
            return true
        case let .invalid(message, id):
            diagnostics.error(id, "revision entry: \(message)", at: location)
            return true
        case .notADate:
            return false
        }
    }

    /// An entry's clauses, split at `;` and sentence ends, each with the rules its links name. The
    /// first `dropping` characters (the date) are left out.
    static func clauses(of inlines: [MarkdownNode], dropping: Int) -> [RevisionEntry.Clause] {
        var clauses: [RevisionEntry.Clause] = []
        var text = ""
        var links: [String] = []
        var toDrop = dropping
        func close() {
            let trimmed = text.trimmed
            if !trimmed.isEmpty || !links.isEmpty { clauses.append(RevisionEntry.Clause(text: trimmed, linkedRules: links.uniqued)) }
            text = ""
            links = []
        }
        for node in inlines {
            var plain = node.plainText
            if toDrop > 0 {
                let dropped = min(toDrop, plain.count)
                plain = String(plain.dropFirst(dropped))
                toDrop -= dropped
            }
            node.forEach { child in
                if case let .link(destination, _) = child.kind, destination.hasPrefix("#") { links.append(String(destination.dropFirst())) }
            }
            guard case .text = node.kind else { text += plain; continue }
            // Split by Characters; the text between splits is appended as one run.
            var previous: Character?
            var runStart = plain.startIndex
            var index = plain.startIndex
            while index < plain.endIndex {
                let character = plain[index]
                let next = plain.index(after: index)
                if character == ";" || (previous == "." && character == " ") {
                    text += plain[runStart..<(character == ";" ? next : index)]
                    close()
                    runStart = next
                }
                previous = character
                index = next
            }
            text += plain[runStart...]
        }
        close()
        return clauses
    }

    /// Splits a paragraph's inlines at soft and hard breaks.
    static func lines(of inlines: [MarkdownNode]) -> [[MarkdownNode]] {
        var result: [[MarkdownNode]] = [[]]
        for node in inlines {
            switch node.kind {
            case .softBreak, .lineBreak: result.append([])
            default: result[result.count - 1].append(node)
            }
        }
        return result
    }

    // MARK: Blocks with info strings

    /// The first word of a fenced block's info string (`rule`, `scenario`, `conflict`, `swift`).
    static func fenceWord(_ block: MarkdownNode) -> String? {
        guard case let .codeBlock(info, _) = block.kind else { return nil }
        return firstInfoWord(info)
    }

    /// The first space-separated word of an info string.
    static func firstInfoWord(_ info: String) -> String? {
        // A space is one byte and one scalar: the word's ends are found among the bytes.
        let utf8 = info.utf8
        guard let start = utf8.firstIndex(where: { $0 != UInt8(ascii: " ") }) else { return nil }
        return String(Substring(utf8[start..<(utf8[start...].firstIndex(of: UInt8(ascii: " ")) ?? utf8.endIndex)]))
    }

    /// A fenced block that runs to the end of the file was never closed: cmark closes it silently.
    private func checkFence(_ block: MarkdownNode, diagnostics: inout Diagnostics) {
        guard case let .codeBlock(_, fence) = block.kind, !fence.isEmpty else { return }
        let lastLine = block.end.line
        let closed = lastLine - 1 < lines.count && lastLine > block.start.line && lines.closesFence(lastLine - 1, fence)
        if !closed {
            diagnostics.error("unterminated-fence", "code block opened with \(fence) is never closed", at: parser.location(block.start),
                              notes: ["everything after it, to the end of the file, was read as code"])
        }
    }

    private mutating func readConflict(_ block: MarkdownNode, diagnostics: inout Diagnostics) {
        let yaml = YAMLBlock(path: parser.path, firstLine: block.start.line + 1, columnOffset: block.start.column - 1, text: block.literal)
        guard let node = yaml.compose(diagnostics: &diagnostics, what: "conflict block"),
              let reader = FieldReader(node, block: yaml, what: "conflict block", allowed: ["id", "subject", "assessment", "claims", "rules"],
                                       diagnostics: &diagnostics) else { return }
        guard let id = reader.string("id", diagnostics: &diagnostics) else {
            diagnostics.error("bad-field-value", "a conflict block needs an `id`", at: parser.location(block.start))
            return
        }
        var claims: [Conflict.Claim] = []
        if let claimNodes = reader.node("claims")?.sequence {
            for item in claimNodes {
                guard let claimReader = FieldReader(item, block: yaml, what: "a claim", allowed: ["value", "source", "version", "locator"],
                                                    diagnostics: &diagnostics),
                      let value = claimReader.string("value", diagnostics: &diagnostics),
                      let source = claimReader.string("source", diagnostics: &diagnostics) else { continue }
                references.append(Reference(target: .source, id: source, location: claimReader.location("source"), role: "claim source"))
                claims.append(Conflict.Claim(value: value, citation: Citation(source: source, version: claimReader.string("version", diagnostics: &diagnostics),
                                                                              locator: claimReader.string("locator", diagnostics: &diagnostics)),
                                             location: yaml.location(item.mark)))
            }
        }
        let rules = reader.strings("rules", diagnostics: &diagnostics)
        references += rules.map { Reference(target: .rule, id: $0.0, location: $0.1, role: "conflict rule") }
        conflictNotes.append(ConflictNote(id: id, subject: reader.string("subject", diagnostics: &diagnostics),
                                          assessment: reader.string("assessment", diagnostics: &diagnostics), claims: claims,
                                          rules: rules.map(\.0), location: parser.location(block.start)))
    }

    static func isLabelled(_ block: MarkdownNode) -> Bool { label(of: block) != nil }

    /// `**Why it matters.**` → "why", `**Instead.**` → "instead".
    static func label(of block: MarkdownNode) -> String? {
        guard case .paragraph = block.kind, let first = block.children.first, case .strong = first.kind else { return nil }
        let text = first.plainText.trimmingCharacters(in: ".: ").lowercased()
        switch text {
        case "why it matters", "why": return "why"
        case "instead", "what to do instead", "do this instead": return "instead"
        default: return nil
        }
    }
}
