import BGKBModel

/// Number formatting that never depends on locale or platform, so output is byte-identical.
/// Each format is written once, as bytes (`append`): a page writes a figure where it goes
/// (`HTMLWriter.duration`, a timeline's event times), and the String versions are made from the
/// same bytes.
enum Format {
    /// `30 s`, `0.5 s`, `1.25 s`: at most two decimals, trailing zeros dropped, a no-break space
    /// before the unit.
    static func seconds(_ value: Double) -> String { string { append(value, unit: true, to: &$0) } }

    /// `30`, `0.5`, `1.25`: at most two decimals, trailing zeros dropped.
    static func number(_ value: Double) -> String { string { append(value, unit: false, to: &$0) } }

    /// A span of time as people say it: seconds below two minutes (`30 s`, `1.5 s`), above that
    /// hours, minutes and seconds with the zero parts left out (`10 min`, `2 h`, `2 h 31 s`).
    static func duration(_ value: Double) -> String { string { append(duration: value, to: &$0) } }

    /// `1 rule`, `3 rules`.
    static func count(_ n: Int, _ singular: String, _ plural: String? = nil) -> String {
        "\(n) \(n == 1 ? singular : (plural ?? singular + "s"))"
    }

    /// `number(value)`, or `seconds(value)` when `unit`, appended as UTF-8. What it writes holds
    /// nothing HTML escapes (digits, `.`, `-`, `?`, `e+`, a no-break space and `s`).
    static func append(_ value: Double, unit: Bool, to bytes: inout ByteBuffer) {
        if !value.isFinite {
            bytes.append(UInt8(ascii: "?"))
        } else if abs(value) >= 1e13 {
            // Beyond this, hundredths no longer fit an Int; such a figure can only be a typo in Content.
            bytes.append(String(value))
        } else {
            let hundredths = Int((abs(value) * 100).rounded())
            if value < 0 && hundredths != 0 { bytes.append(UInt8(ascii: "-")) }
            bytes.appendDecimal(UInt64(hundredths / 100))
            let fraction = hundredths % 100
            if fraction != 0 {
                bytes.append(UInt8(ascii: "."))
                bytes.append(UInt8(ascii: "0") + UInt8(fraction / 10))
                if fraction % 10 != 0 { bytes.append(UInt8(ascii: "0") + UInt8(fraction % 10)) }
            }
        }
        if unit { bytes.append("\u{00A0}s") }
    }

    /// `duration(value)` appended as UTF-8; like `append(_:unit:to:)`, nothing in it to escape.
    static func append(duration value: Double, to bytes: inout ByteBuffer) {
        guard value.isFinite, value >= 120, value < 1e12 else { return append(value, unit: true, to: &bytes) }
        let hours = Int(value / 3600)
        let minutes = Int((value - Double(hours) * 3600) / 60)
        let rest = value - Double(hours) * 3600 - Double(minutes) * 60
        if hours > 0 {
            bytes.appendDecimal(UInt64(hours))
            bytes.append("\u{00A0}h")
        }
        if minutes > 0 {
            if hours > 0 { bytes.append(UInt8(ascii: " ")) }
            bytes.appendDecimal(UInt64(minutes))
            bytes.append("\u{00A0}min")
        }
        if (rest * 100).rounded() != 0 {
            if hours > 0 || minutes > 0 { bytes.append(UInt8(ascii: " ")) }
            append(rest, unit: true, to: &bytes)
        }
    }

    /// The String of what `body` appends.
    private static func string(_ body: (inout ByteBuffer) -> Void) -> String {
        var bytes = ByteBuffer(capacity: 24)
        body(&bytes)
        return bytes.string
    }
}
