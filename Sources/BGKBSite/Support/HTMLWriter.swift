import BGKBModel

/// Writes HTML (and SVG/XML) into a byte buffer with every value escaped.
///
/// Three ways in, so escaping cannot be forgotten: `markup` takes only string literals (the page's
/// own tags, checked by the compiler to be `StaticString`), `text` escapes any value
/// (`< > & " '`), and `trusted` takes HTML that is safe by construction
/// (cmark's safe-mode output, or markup this writer produced).
struct HTMLWriter {
    /// What has been written.
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 0) {
        bytes.reserveCapacity(max(capacity, 64))
    }

    /// A coordinate in SVG: tenths, rounded half away from zero, without a trailing `.0`
    /// (`12`, `12.5`, `-3.1`); one decimal is plenty and keeps files small. Not finite or
    /// absurdly large, it is written `0`.
    mutating func coordinate(_ value: Double) {
        guard value.isFinite, abs(value) < 1e15 else { bytes.append(UInt8(ascii: "0")); return }
        let tenths = Int((value * 10).rounded())
        if tenths < 0 { bytes.append(UInt8(ascii: "-")) }
        let magnitude = tenths.magnitude
        // The whole part's digits, least significant first, then turned around in place.
        var whole = magnitude / 10
        let start = bytes.count
        repeat {
            bytes.append(UInt8(ascii: "0") + UInt8(whole % 10))
            whole /= 10
        } while whole > 0
        // Swapped in the array itself: reversing a slice of it would copy the whole page.
        var low = start, high = bytes.count - 1
        while low < high {
            bytes.swapAt(low, high)
            low += 1
            high -= 1
        }
        if magnitude % 10 != 0 {
            bytes.append(UInt8(ascii: "."))
            bytes.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
        }
    }

    /// Markup written in the source code. Only literals can be passed, never a runtime value.
    mutating func markup(_ literal: StaticString) {
        Bytes.append(literal, to: &bytes)
    }

    /// A value from Content, the engine or the configuration, HTML-escaped.
    mutating func text(_ value: String) {
        Bytes.appendHTMLEscaped(value, to: &bytes)
    }

    /// A value escaped when it was made (`Escaped`), for a value a page writes many times.
    mutating func text(_ value: Escaped) {
        bytes.append(contentsOf: value.html)
    }

    /// A value with its HTML-escaped bytes, escaped once when it is made: a timeline writes each
    /// time label in several tooltips and in its text list.
    struct Escaped {
        let text: String
        let html: [UInt8]

        init(_ text: String) {
            self.text = text
            var html: [UInt8] = []
            Bytes.appendHTMLEscaped(text, to: &html)
            self.html = html
        }
    }

    /// HTML that is already safe: cmark's safe-mode rendering of Content Markdown, or the output of
    /// another `HTMLWriter`. Never a value straight from Content.
    mutating func trusted(_ html: String) {
        bytes.append(contentsOf: html.utf8)
    }

    /// Bytes that are already safe HTML (cmark's safe-mode rendering).
    mutating func trusted(_ html: some Collection<UInt8>) {
        bytes.append(contentsOf: html)
    }

    mutating func trusted(_ other: HTMLWriter) {
        bytes.append(contentsOf: other.bytes)
    }

    /// Drops trailing spaces and newlines (the word diff ends every segment with a space).
    mutating func trimTrailingWhitespace() {
        while let last = bytes.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\n") { bytes.removeLast() }
    }

    /// The markup as a String.
    var string: String { String(decoding: bytes, as: UTF8.self) }
}
