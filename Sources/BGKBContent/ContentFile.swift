import BGKBModel

/// A file's bytes and the path to report it by. The assembler works on these, so tests and the
/// fuzzer feed it without touching the disk.
public struct ContentFile: Sendable {
    public var path: String
    public var bytes: [UInt8]

    public init(path: String, bytes: [UInt8]) {
        self.path = path
        self.bytes = bytes
    }

    public init(path: String, text: String) {
        self.init(path: path, bytes: Array(text.utf8))
    }

    /// The text, with invalid UTF-8 replaced (U+FFFD) after reporting where the first bad byte is.
    func decoded(diagnostics: inout Diagnostics) -> String {
        var text: String
        if let valid = String(validating: bytes, as: UTF8.self) {
            // The standard library's check (the same table as `firstInvalidByte`) is much faster; the
            // byte-by-byte walk only runs to say where a file goes wrong.
            text = valid
        } else {
            if let (line, column) = Self.firstInvalidByte(bytes) {
                diagnostics.error("invalid-utf8", "the file is not valid UTF-8 (bad bytes are read as U+FFFD)",
                                  at: SourceLocation(path: path, line: line, column: column))
            }
            text = String(decoding: bytes, as: UTF8.self)
        }
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        // Foundation's replace is slow on Linux and nearly every file has no carriage return.
        return Bytes.firstOffset(of: UInt8(ascii: "\r"), in: text) != nil ? text.replacingOccurrences(of: "\r\n", with: "\n") : text
    }

    /// Line and character column of the first byte that does not decode as UTF-8.
    static func firstInvalidByte(_ bytes: [UInt8]) -> (Int, Int)? {
        var line = 1, lineStart = 0, index = 0
        while index < bytes.count {
            let byte = bytes[index]
            let length: Int
            switch byte {
            case 0x00...0x7F: length = 1
            case 0xC2...0xDF: length = 2
            case 0xE0...0xEF: length = 3
            case 0xF0...0xF4: length = 4
            default: length = 0
            }
            var valid = length > 0 && index + length <= bytes.count
            if valid, length > 1 {
                valid = bytes[(index + 1)..<(index + length)].allSatisfy { $0 & 0xC0 == 0x80 }
                if valid {
                    let second = bytes[index + 1]
                    if byte == 0xE0 && second < 0xA0 { valid = false }    // overlong
                    if byte == 0xED && second > 0x9F { valid = false }    // surrogates
                    if byte == 0xF0 && second < 0x90 { valid = false }    // overlong
                    if byte == 0xF4 && second > 0x8F { valid = false }    // past U+10FFFF
                }
            }
            if !valid {
                let column = String(decoding: bytes[lineStart..<index], as: UTF8.self).count + 1
                return (line, column)
            }
            if byte == UInt8(ascii: "\n") { line += 1; lineStart = index + 1 }
            index += length
        }
        return nil
    }
}
