import BGKBModel

/// A file's text by line, as byte offsets into it rather than a String per line: a document is
/// asked for a few lines (front matter, fence ends) and for the source of some blocks, so most
/// lines are never made Strings.
///
/// Lines end where `String.split(separator: "\n")` ends them: at a `\n` that is a Character of
/// its own, so not at the `\n` of a `\r\n` (one Character). The bytes between two lines are
/// then exactly one `\n`, and a run of lines reads as the lines joined by `\n`.
struct SourceLines {
    let text: String
    private let bytes: [UInt8]
    /// Where each line starts, in UTF-8 bytes; a line ends one byte before the next starts.
    private let starts: [Int]

    init(_ text: String) {
        self.text = text
        bytes = Array(text.utf8)
        let lineFeeds = Bytes.offsets(of: UInt8(ascii: "\n"), in: bytes)
        var starts = [0]
        starts.reserveCapacity(lineFeeds.count + 1)
        for index in lineFeeds where index == 0 || bytes[index - 1] != UInt8(ascii: "\r") { starts.append(index + 1) }
        self.starts = starts
    }

    var count: Int { starts.count }

    /// The line's bytes, from its start to the `\n` that ends it (or the text's end).
    private func range(_ index: Int) -> Range<Int> {
        starts[index]..<(index + 1 < starts.count ? starts[index + 1] - 1 : bytes.count)
    }

    private func string(_ range: Range<Int>) -> String {
        String(decoding: bytes[range], as: UTF8.self)
    }

    subscript(index: Int) -> String { string(range(index)) }

    /// Where line `index` starts in the text's bytes (the text's length past the last line).
    func offset(ofLine index: Int) -> Int { index < starts.count ? starts[index] : bytes.count }

    /// Whether the line holds nothing but spaces and tabs: `trimmed` leaves nothing of it. (It also
    /// trims `\n`, but a line holds one only after a `\r`, which it keeps.)
    func isBlank(_ index: Int) -> Bool {
        bytes[range(index)].allSatisfy { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
    }

    /// Whether the line, trimmed of spaces and tabs, is a run of at least as many of the fence's
    /// character as the fence has. A fence is backticks or tildes, so a byte other than the
    /// fence's in the run is a Character other than it too.
    func closesFence(_ index: Int, _ fence: String) -> Bool {
        guard let mark = fence.utf8.first, mark < 0x80 else { return false }
        func isBlank(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        let line = range(index)
        var start = line.lowerBound, end = line.upperBound
        while start < end && isBlank(bytes[start]) { start += 1 }
        while end > start && isBlank(bytes[end - 1]) { end -= 1 }
        return end - start >= fence.utf8.count && bytes[start..<end].allSatisfy { $0 == mark }
    }

    /// Lines `lines` joined by `\n`, read straight from the text.
    func joined(_ lines: Range<Int>) -> String {
        guard let last = lines.last else { return "" }
        return string(starts[lines.lowerBound]..<range(last).upperBound)
    }
}
