import BGKBModel

/// Writes HTML (and SVG/XML) into a byte buffer with every value escaped.
///
/// Three ways in, so escaping cannot be forgotten: `markup` takes only string literals (the page's
/// own tags, checked by the compiler to be `StaticString`), `text` escapes any value
/// (`< > & " '`), and `trusted` takes HTML that is safe by construction
/// (cmark's safe-mode output, or markup this writer produced).
///
/// The writer owns its bytes (`~Copyable`, like the `ByteBuffer` it writes into): it is passed
/// `inout` from section to section and handed on once, never copied.
struct HTMLWriter: ~Copyable {
    /// What has been written.
    private(set) var bytes: ByteBuffer

    init(capacity: Int = 0) {
        bytes = ByteBuffer(capacity: max(capacity, 64))
    }

    /// A coordinate in SVG: tenths, rounded half away from zero, without a trailing `.0`
    /// (`12`, `12.5`, `-3.1`); one decimal is plenty and keeps files small. Not finite or
    /// absurdly large, it is written `0`.
    mutating func coordinate(_ value: Double) {
        guard value.isFinite, abs(value) < 1e15 else { bytes.append(UInt8(ascii: "0")); return }
        let tenths = Int((value * 10).rounded())
        if tenths < 0 { bytes.append(UInt8(ascii: "-")) }
        let magnitude = tenths.magnitude
        bytes.appendDecimal(UInt64(magnitude / 10))
        if magnitude % 10 != 0 {
            bytes.append(UInt8(ascii: "."))
            bytes.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
        }
    }

    /// An integer in decimal digits (nothing in them to escape).
    mutating func number(_ value: Int) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        bytes.appendDecimal(UInt64(value.magnitude))
    }

    /// A span of time as `Format.duration` writes it (nothing in it to escape).
    mutating func duration(_ value: Double) {
        Format.append(duration: value, to: &bytes)
    }

    /// Markup written in the source code. Only literals can be passed, never a runtime value.
    mutating func markup(_ literal: StaticString) {
        bytes.append(literal)
    }

    /// A value from Content, the engine or the configuration, HTML-escaped.
    mutating func text(_ value: String) {
        bytes.appendHTMLEscaped(value)
    }

    /// Part of a value's UTF-8 (a token of highlighted code, cut from the code's bytes), HTML-escaped.
    mutating func text(_ value: ArraySlice<UInt8>) {
        bytes.appendHTMLEscaped(value)
    }

    /// Bytes HTML-escaped when they were made, for a value a page writes many times (a
    /// timeline's event texts, escaped once for its tooltips and its text list).
    mutating func escaped(_ html: ArraySlice<UInt8>) {
        bytes.append(contentsOf: html)
    }

    /// HTML that is already safe: cmark's safe-mode rendering of Content Markdown, or the output of
    /// another `HTMLWriter`. Never a value straight from Content.
    mutating func trusted(_ html: String) {
        bytes.append(html)
    }

    /// Bytes that are already safe HTML (cmark's safe-mode rendering).
    mutating func trusted(_ html: some Collection<UInt8>) {
        bytes.append(contentsOf: html)
    }

    mutating func trusted(_ other: borrowing HTMLWriter) {
        bytes.append(other.bytes)
    }

    /// Drops trailing spaces and newlines (the word diff ends every segment with a space).
    mutating func trimTrailingWhitespace() {
        while let last = bytes.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\n") { bytes.removeLast() }
    }

    /// The markup as a String.
    var string: String { bytes.string }
}
