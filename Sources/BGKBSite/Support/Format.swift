/// Number formatting that never depends on locale or platform, so output is byte-identical.
enum Format {
    /// `30 s`, `0.5 s`, `1.25 s`: at most two decimals, trailing zeros dropped, a no-break space
    /// before the unit.
    static func seconds(_ value: Double) -> String { number(value, unit: true) }

    /// `30`, `0.5`, `1.25`: at most two decimals, trailing zeros dropped.
    static func number(_ value: Double) -> String { number(value, unit: false) }

    private static func number(_ value: Double, unit: Bool) -> String {
        let suffix = unit ? "\u{00A0}s" : ""
        guard value.isFinite else { return "?" + suffix }
        // Beyond this, hundredths no longer fit an Int; such a figure can only be a typo in Content.
        guard abs(value) < 1e13 else { return String(value) + suffix }
        let hundredths = Int((abs(value) * 100).rounded())
        var text = value < 0 && hundredths != 0 ? "-" : ""
        text += String(hundredths / 100)
        let fraction = hundredths % 100
        if fraction != 0 {
            text += "." + String(fraction / 10)
            if fraction % 10 != 0 { text += String(fraction % 10) }
        }
        return text + suffix
    }

    /// `1 rule`, `3 rules`.
    static func count(_ n: Int, _ singular: String, _ plural: String? = nil) -> String {
        "\(n) \(n == 1 ? singular : (plural ?? singular + "s"))"
    }
}
