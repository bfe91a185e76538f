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

    /// A span of time as people say it: seconds below two minutes (`30 s`, `1.5 s`), above that
    /// hours, minutes and seconds with the zero parts left out (`10 min`, `2 h`, `2 h 31 s`).
    static func duration(_ value: Double) -> String {
        guard value.isFinite, value >= 120, value < 1e12 else { return seconds(value) }
        let hours = Int(value / 3600)
        let minutes = Int((value - Double(hours) * 3600) / 60)
        let rest = value - Double(hours) * 3600 - Double(minutes) * 60
        var parts: [String] = []
        if hours > 0 { parts.append("\(hours)\u{00A0}h") }
        if minutes > 0 { parts.append("\(minutes)\u{00A0}min") }
        if (rest * 100).rounded() != 0 { parts.append(seconds(rest)) }
        return parts.joined(separator: " ")
    }

    /// `1 rule`, `3 rules`.
    static func count(_ n: Int, _ singular: String, _ plural: String? = nil) -> String {
        "\(n) \(n == 1 ? singular : (plural ?? singular + "s"))"
    }
}
