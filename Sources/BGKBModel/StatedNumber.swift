/// A number a rule states, with its unit and how firm the source is about it.
public struct StatedNumber: Hashable, Sendable, Codable, CustomStringConvertible {
    public enum Unit: String, Sendable, Codable, CaseIterable {
        case milliseconds = "ms", seconds = "s", minutes = "min", hours = "h", days = "d"
        case count, perHour = "per-hour", weeks = "weeks"
    }

    public enum Firmness: String, Sendable, Codable, CaseIterable {
        /// The value is stated as exact and documented.
        case exact
        /// "about 30 s": a rough figure.
        case about
        /// "at most 10 pending", "up to 30 s", "less than a second".
        case atMost = "at-most"
        /// "at least", "more than".
        case atLeast = "at-least"
        /// "a few seconds", "minutes": no figure given.
        case vague
    }

    public var value: Double
    public var unit: Unit
    public var firmness: Firmness
    /// False when the source says the value may change or is not promised.
    public var guaranteed: Bool
    /// What the number measures ("background task budget").
    public var measures: String
    public var note: String?

    public init(value: Double, unit: Unit, firmness: Firmness, guaranteed: Bool = false, measures: String, note: String? = nil) {
        self.value = value
        self.unit = unit
        self.firmness = firmness
        self.guaranteed = guaranteed
        self.measures = measures
        self.note = note
    }

    /// The value as written for people: `30`, `0.5`. Whole numbers print without a fraction only
    /// while they fit an `Int` exactly; Content may state any number (the fuzzer found a 50-digit
    /// one), and converting that to `Int` traps.
    public var formattedValue: String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    /// The unit after the number, with its leading space: ` s`, ` weeks`, ` week` for one week
    /// (the other units are symbols, the same for one as for many), empty for a count.
    public var unitText: String {
        switch unit {
        case .count: return ""
        case .weeks where value == 1: return " week"
        default: return " \(unit.rawValue)"
        }
    }

    /// `about 30 s, not guaranteed`.
    public var description: String {
        let number = formattedValue
        let prefix: String
        switch firmness {
        case .exact: prefix = ""
        case .about: prefix = "about "
        case .atMost: prefix = "at most "
        case .atLeast: prefix = "at least "
        case .vague: prefix = "roughly "
        }
        return "\(prefix)\(number)\(unitText)\(guaranteed ? "" : ", not guaranteed")"
    }
}
