import BGKBMarkdown

/// The lines a forum web page puts around a post when the page is saved or copied as text: the
/// thread's address, the locked notice, counts, badges, author-and-date lines, field labels and
/// the page's buttons. None of it is guidance, so none of it may become a rule.
///
/// Each kind of chrome has one recogniser that looks at the shape of a whole line (after
/// trimming): a sentence that only mentions views, replies or a moderator is never chrome,
/// because chrome is never a sentence. `strip(_:)` is the one place the parser calls.
enum ForumChrome {
    enum Kind: String, CaseIterable, Sendable {
        case threadURL, lockedNotice, counts, latestReply, staffBadge, authorAndDate, fieldLabel, pageControl
    }

    /// The kind of chrome a whole line is, or nil for a line of the post.
    static func kind(ofLine raw: String) -> Kind? {
        let line = raw.trimmingCharacters(in: " \t")
        // Chrome is short, except a thread address with a remark after it.
        guard !line.isEmpty, line.utf8.count <= 160 else { return nil }
        if isThreadURL(line) { return .threadURL }
        guard line.utf8.count <= 100 else { return nil }
        // The lower-cased words, split once for the three recognisers that read them, and only
        // when the first word is one they can start with.
        if mayStartLowerWordRecogniser(line) {
            let lower = lowerWords(line)
            if isLockedNotice(lower) { return .lockedNotice }
            if isCounts(lower) { return .counts }
            if isLatestReply(lower, line: line) { return .latestReply }
        }
        if isStaffBadge(line) { return .staffBadge }
        if isAuthorAndDate(line) { return .authorAndDate }
        if isFieldLabel(line) { return .fieldLabel }
        if isPageControl(line) { return .pageControl }
        return nil
    }

    // MARK: One recogniser per kind

    /// `https://developer.apple.com/forums/thread/85066`, alone or followed by a short remark
    /// ("in case the page gets removed!"). Only a forum thread's address: a link to documentation
    /// on a line of its own is part of the post.
    static func isThreadURL(_ line: String) -> Bool {
        // The first word, as `split` gives it: the line does not start with a space.
        let url = line.prefix { $0 != " " }.lowercased()
        guard url.hasPrefix("https://") || url.hasPrefix("http://") else { return false }
        return url.contains("/forums/") && url.contains("/thread") && line.split(separator: " ").count <= 12
    }

    /// Whether the first of `lowerWords(line)` can start a locked notice (`this`), counts (a
    /// digit, or a separator before them) or a latest reply (`latest`, `last`): when it cannot,
    /// none of the three needs the rest of the words.
    static func mayStartLowerWordRecogniser(_ line: String) -> Bool {
        // The first lower-cased word, as `lowerWords` gives it: the line does not start with a space.
        let first = String(line.lowercased().prefix { $0 != " " }).trimmingCharacters(in: ".")
        return first == "this" || first == "latest" || first == "last" || first.first?.isASCIIDigit == true
            || countSeparators.contains(first)
    }

    /// `This thread has been locked by a moderator.` and its siblings (deleted, closed), as the
    /// whole line.
    static func isLockedNotice(_ lowerWords: [String]) -> Bool {
        var words = lowerWords
        guard words.count >= 4, ["thread", "post", "reply", "question"].contains(words[1]), words[0] == "this",
              words[2] == "has", words[3] == "been" else { return false }
        words.removeFirst(4)
        guard let state = words.first, ["locked", "deleted", "closed", "removed", "hidden", "archived"].contains(state) else { return false }
        words.removeFirst()
        if words.isEmpty { return true }
        return words.count == 3 && words[0] == "by" && ["a", "an", "the"].contains(words[1])
            && ["moderator", "administrator", "admin"].contains(words[2])
    }

    /// `692 Views`, `0 Replies`, `1 Boost`, or several such pairs on one line (`692 Views · 3 Replies`):
    /// every word is a count or the thing counted.
    static func isCounts(_ lowerWords: [String]) -> Bool {
        let words = lowerWords.filter { !countSeparators.contains($0) }
        guard !words.isEmpty, words.count.isMultiple(of: 2) else { return false }
        return stride(from: 0, to: words.count, by: 2).allSatisfy { index in
            isCount(words[index]) && countedThings.contains(words[index + 1].trimmingCharacters(in: ",;"))
        }
    }

    /// `Latest reply: 3 weeks ago by eskimo`, `Latest reply on Apr 26, 2017 by Pat`: the page's
    /// summary of a thread, which always names who replied.
    static func isLatestReply(_ words: [String], line: String) -> Bool {
        guard words.count >= 4, words.count <= 16, ["latest", "last"].contains(words[0]),
              ["reply", "post", "activity"].contains(words[1].trimmingCharacters(in: ":")) else { return false }
        // The page writes `Latest reply:` or `Latest reply by`/`on`; a sentence goes on differently.
        guard words[1].hasSuffix(":") || ["by", "on"].contains(words[2]) else { return false }
        return words.dropFirst(2).contains("by") && !line.hasSuffix(".")
    }

    /// `Apple Staff (8,640 points)`, `eskimo DTS Engineer (123 points)`: a short name or role
    /// followed by a points tally in brackets, as the whole line.
    static func isStaffBadge(_ line: String) -> Bool {
        guard line.hasSuffix(")"), let open = line.lastIndex(of: "(") else { return false }
        let tally = lowerWords(String(line[line.index(after: open)..<line.index(before: line.endIndex)]))
        let before = line[..<open].split(separator: " ")
        return tally.count == 2 && isCount(tally[0]) && ["points", "point", "pts"].contains(tally[1]) && before.count <= 5
    }

    /// `eskimoApr 26, 2017 1:47 AM` (the page runs the author's name into the date), `Pat Apr 26, 2017`,
    /// `Apr 26, 2017 1:47 AM`: at most one word before a `Mon D, YYYY` date, an optional time, and
    /// nothing after.
    static func isAuthorAndDate(_ line: String) -> Bool {
        // The line ends with the year, a time or `AM`/`PM`: told from its last Character before
        // it is split into words.
        guard let end = line.last, end.isASCIIDigit || end == "M" || end == "m" else { return false }
        var words = line.split(separator: " ").map(String.init)
        if let last = words.last, ["AM", "PM", "am", "pm"].contains(last) { words.removeLast() }
        if let last = words.last, isClockTime(last) { words.removeLast() }
        guard words.count >= 3, words.count <= 4, let year = words.last, year.count == 4, year.allSatisfy(\.isASCIIDigit) else { return false }
        let day = words[words.count - 2]
        guard day.hasSuffix(","), (2...3).contains(day.count), day.dropLast().allSatisfy(\.isASCIIDigit) else { return false }
        let monthWord = words[words.count - 3]
        guard let month = monthNames.first(where: { monthWord.hasSuffix($0) }) else { return false }
        let author = monthWord.dropLast(month.count)
        // One author word, either run into the month or before it, never both.
        return words.count == 3 || author.isEmpty
    }

    /// `Topic:`, `SubTopic:`, `Tags:`, alone or with their value on the same line (the value lines
    /// that follow a bare label are dropped by `strip`).
    static func isFieldLabel(_ line: String) -> Bool {
        // A colon Character is a colon byte: a line without one is looked at no further.
        guard line.utf8.contains(UInt8(ascii: ":")), let colon = line.firstIndex(of: ":") else { return false }
        let label = line[..<colon].lowercased()
        return fieldLabels.contains(label) && line[line.index(after: colon)...].split(separator: " ").count <= 8
    }

    /// The page's own buttons and headings, each alone on its line: `Boost`, `Copy to clipboard`,
    /// `Replies`, `Views`, `Activity`, `Selecting any option will automatically load the page`.
    static func isPageControl(_ line: String) -> Bool {
        pageControls.contains(line.trimmingCharacters(in: ":"))
    }

    // MARK: Removing chrome from a parsed document

    /// The document without chrome: chrome lines are removed from the paragraphs that hold them,
    /// a paragraph that is all chrome is dropped, and the number of lines removed is returned.
    static func strip(_ document: inout MarkdownNode) -> Int {
        var removed = 0
        // The blocks kept, gathered only from the first paragraph that loses a line (nearly every
        // document has none).
        var kept: [MarkdownNode]?
        var afterBareLabel = false
        var previousEnd = 0
        for index in document.children.indices {
            let block = document.children[index]
            // A bare label's values may stand on the next lines as paragraphs of their own (a page
            // saved a line a paragraph), but not after a blank line.
            if block.start.line != previousEnd + 1 { afterBareLabel = false }
            previousEnd = block.end.line
            guard case .paragraph = block.kind else { kept?.append(block); afterBareLabel = false; continue }
            let (paragraph, count) = strip(paragraph: block, afterBareLabel: &afterBareLabel)
            if count > 0, kept == nil {
                kept = Array(document.children[..<index])
                kept?.reserveCapacity(document.children.count)
            }
            removed += count
            if let paragraph { kept?.append(paragraph) }
        }
        if let kept { document.children = kept }
        return removed
    }

    /// One paragraph without its chrome lines (nil when nothing else is left), and how many went.
    /// The paragraph's start and end move past chrome lines at either end, so rules point at the post.
    static func strip(paragraph: MarkdownNode, afterBareLabel: inout Bool) -> (MarkdownNode?, Int) {
        // Nearly every paragraph has no line that could be chrome: told from each line's first and
        // last bytes and length, without making its text.
        guard afterBareLabel || paragraph.children.isEmpty || hasCandidateLine(paragraph.children) else { return (paragraph, 0) }
        let lines = BlockWalker.lines(of: paragraph.children)
        var chrome = [Bool](repeating: false, count: lines.count)
        for (index, line) in lines.enumerated() {
            let text = MarkdownNode.plainText(of: line[...])
            if let kind = kind(ofLine: text) {
                chrome[index] = true
                afterBareLabel = kind == .fieldLabel && text.trimmed.hasSuffix(":")
            } else if afterBareLabel, isFieldValue(text) {
                chrome[index] = true
            } else {
                afterBareLabel = false
            }
        }
        let count = chrome.count { $0 }
        guard count > 0 else { return (paragraph, 0) }
        guard let first = chrome.firstIndex(of: false), let last = chrome.lastIndex(of: false) else { return (nil, count) }
        var children: [MarkdownNode] = []
        for index in lines.indices where !chrome[index] {
            if !children.isEmpty { children.append(MarkdownNode(kind: .softBreak, start: paragraph.start, end: paragraph.start)) }
            children += lines[index]
        }
        var result = paragraph
        result.children = children
        if first > 0 { result.start = Position(line: paragraph.start.line + first, column: 1) }
        if last < lines.count - 1 { result.end = Position(line: paragraph.start.line + last, column: paragraph.end.column) }
        return (result, count)
    }

    /// Whether some line of these inlines could be chrome, from its length in bytes, its first
    /// four bytes and last two (every recogniser needs one of the shapes below), without making
    /// its text. Nearly every line of prose fails this at once.
    static func hasCandidateLine(_ inlines: [MarkdownNode]) -> Bool {
        var line = LineShape()
        // The nodes are read where they are in the array, not copied whole.
        for index in inlines.indices {
            switch inlines[index].kind {
            case .softBreak, .lineBreak:
                if line.mayBeChrome { return true }
                line = LineShape()
            case .text:
                line.add(text: inlines[index].literal)
            case .link:
                line.add(otherOfLength: inlines[index].plainTextByteCount, isLink: true)
            default:
                line.add(otherOfLength: inlines[index].plainTextByteCount, isLink: false)
            }
        }
        return line.mayBeChrome
    }

    /// What `hasCandidateLine` knows of a line: its first text (when the line starts with text),
    /// the bytes at its end, and its length.
    struct LineShape {
        var length = 0
        var head = ""
        var last: UInt8 = 0
        var beforeLast: UInt8 = 0
        var startsWithLink = false
        var started = false

        mutating func add(text: String) {
            if !started {
                started = true
                head = text
            }
            for byte in text.utf8.suffix(2) { beforeLast = last; last = byte }
            length += text.utf8.count
        }

        mutating func add(otherOfLength count: Int, isLink: Bool) {
            if !started {
                started = true
                startsWithLink = isLink
            }
            last = 0
            beforeLast = 0
            length += count
        }

        var mayBeChrome: Bool {
            guard started, length <= 160 else { return false }
            let head = head.utf8
            let first = head.first
            // A thread's address, as text or as an autolink.
            if startsWithLink { return true }
            if first == UInt8(ascii: "h") || first == UInt8(ascii: "H"), head.starts(with: "http".utf8) || head.starts(with: "HTTP".utf8) { return true }
            guard length <= 100, let first else { return false }
            let isDigit = { (byte: UInt8) in byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
            // Counts, tallies and dates: a digit first or last, a bracket last, `AM` or `PM` last.
            if isDigit(first) || isDigit(last) || last == UInt8(ascii: ")") || last == UInt8(ascii: ":") { return true }
            if (last == UInt8(ascii: "M") || last == UInt8(ascii: "m")) && "APap".utf8.contains(beforeLast) { return true }
            // `Latest reply…`, `Last reply…`.
            if first == UInt8(ascii: "L") || first == UInt8(ascii: "l"), head.starts(with: "La".utf8) || head.starts(with: "la".utf8) { return true }
            // Field labels, the locked notice and the page's buttons are short.
            return length <= 60 && first >= UInt8(ascii: "A") && first <= UInt8(ascii: "Z")
        }
    }

    /// A value under a bare field label: a short name or list of names, not a sentence.
    static func isFieldValue(_ line: String) -> Bool {
        let text = line.trimmed
        guard !text.isEmpty, text.split(separator: " ").count <= 5, let last = text.last else { return false }
        return !".!?:".contains(last)
    }

    // MARK: Vocabulary of the page

    private static let countSeparators = ["·", "•", "|", "-", "–", "—"]
    private static let countedThings: Set<String> = ["views", "view", "replies", "reply", "boosts", "boost", "comments", "comment",
                                                     "posts", "post", "answers", "answer", "likes", "like", "votes", "vote"]
    private static let fieldLabels: Set<String> = ["topic", "subtopic", "sub topic", "tags", "tag"]
    private static let pageControls: Set<String> = [
        "Boost", "Boosts", "Copy to clipboard", "Copied to clipboard", "Post", "Posts", "Reply", "Replies", "Views", "Activity",
        "Selecting any option will automatically load the page", "Sort by", "Oldest", "Newest", "Accepted Answer",
        "Add a Comment", "Comments", "Share this post", "Report", "Quote", "Subscribe", "Sign in to reply", "Reply to this question",
    ]
    private static let monthNames = ["January", "February", "March", "April", "June", "July", "August", "September", "October",
                                     "November", "December", "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep",
                                     "Sept", "Oct", "Nov", "Dec"]

    /// `692`, `8,640`, `1.2K`: a tally as the page prints it.
    private static func isCount(_ word: String) -> Bool {
        var digits = Substring(word)
        if let last = digits.last, "kKmM".contains(last) { digits = digits.dropLast() }
        return !digits.isEmpty && digits.first?.isASCIIDigit == true && digits.allSatisfy { $0.isASCIIDigit || $0 == "," || $0 == "." }
    }

    /// `1:47` or `13:05`.
    private static func isClockTime(_ word: String) -> Bool {
        let parts = word.split(separator: ":", omittingEmptySubsequences: false)
        return parts.count == 2 && (1...2).contains(parts[0].count) && parts[1].count == 2
            && parts.allSatisfy { $0.allSatisfy(\.isASCIIDigit) }
    }

    private static func lowerWords(_ line: String) -> [String] {
        line.lowercased().split(separator: " ").map { String($0).trimmingCharacters(in: ".") }
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
