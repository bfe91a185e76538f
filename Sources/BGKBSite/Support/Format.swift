/// Number formatting that never depends on locale or platform, so output is byte-identical.
enum Format {
    /// `30 s`, `0.5 s`, `1.25 s`: at most two decimals, trailing zeros dropped.
    static func seconds(_ value: Double) -> String { number(value, unit: true) }

    static func number(_ value: Double) -> String { number(value, unit: false) }

    /// The digits written into a small buffer and made a String once: interpolating the parts
    /// cost about 400 instructions a number, and a timeline writes some 25 of them.
    /// `FormatTests` holds it to the interpolating version it replaced.
    private static func number(_ value: Double, unit: Bool) -> String {
        guard value.isFinite else { return unit ? "?\u{00A0}s" : "?" }
        // Beyond this, hundredths no longer fit an Int; such a figure can only be a typo in Content.
        guard abs(value) < 1e13 else { return unit ? String(value) + "\u{00A0}s" : String(value) }
        let hundredths = Int((abs(value) * 100).rounded())
        // Sign, up to 11 digits, a point, two decimals and the unit's 3 bytes fit in 24.
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { buffer in
            var count = 0
            func put(_ byte: UInt8) {
                buffer[count] = byte
                count += 1
            }
            if value < 0 && hundredths != 0 { put(UInt8(ascii: "-")) }
            var whole = hundredths / 100
            let digitsStart = count
            repeat {
                put(UInt8(ascii: "0") + UInt8(whole % 10))
                whole /= 10
            } while whole > 0
            var low = digitsStart, high = count - 1
            while low < high {
                buffer.swapAt(low, high)
                low += 1
                high -= 1
            }
            let fraction = hundredths % 100
            if fraction != 0 {
                put(UInt8(ascii: "."))
                put(UInt8(ascii: "0") + UInt8(fraction / 10))
                if fraction % 10 != 0 { put(UInt8(ascii: "0") + UInt8(fraction % 10)) }
            }
            if unit {
                put(0xC2)
                put(0xA0)
                put(UInt8(ascii: "s"))
            }
            return String(decoding: UnsafeBufferPointer(rebasing: buffer[..<count]), as: UTF8.self)
        }
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
