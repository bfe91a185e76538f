/// Number formatting that never depends on locale or platform, so output is byte-identical.
enum Format {
    /// `30 s`, `0.5 s`, `1.25 s`: at most two decimals, trailing zeros dropped.
    static func seconds(_ value: Double) -> String { number(value) + "\u{00A0}s" }

    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "?" }
        // Beyond this, hundredths no longer fit an Int; such a figure can only be a typo in Content.
        guard abs(value) < 1e13 else { return String(value) }
        let hundredths = Int((abs(value) * 100).rounded())
        let sign = value < 0 && hundredths != 0 ? "-" : ""
        let whole = hundredths / 100
        let fraction = hundredths % 100
        if fraction == 0 { return "\(sign)\(whole)" }
        if fraction % 10 == 0 { return "\(sign)\(whole).\(fraction / 10)" }
        return "\(sign)\(whole).\(fraction < 10 ? "0" : "")\(fraction)"
    }

    /// Coordinates in SVG: one decimal is plenty and keeps files small.
    static func coordinate(_ value: Double) -> String {
        guard value.isFinite, abs(value) < 1e15 else { return "0" }
        let tenths = Int((value * 10).rounded())
        let sign = tenths < 0 ? "-" : ""
        let magnitude = abs(tenths)
        return magnitude % 10 == 0 ? "\(sign)\(magnitude / 10)" : "\(sign)\(magnitude / 10).\(magnitude % 10)"
    }

    /// `1 rule`, `3 rules`.
    static func count(_ n: Int, _ singular: String, _ plural: String? = nil) -> String {
        "\(n) \(n == 1 ? singular : (plural ?? singular + "s"))"
    }
}
