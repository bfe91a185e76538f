/// Every choice that makes one run differ from another: the budget, whether the system refuses
/// beginBackgroundTask and how, when (if ever) it calls tasks in early, and which runnable thread
/// goes next at each point where more than one could. A run is a function of
/// (scenario, constants, schedule), so printing a schedule is enough to replay its run.
public struct Schedule: Hashable, Sendable, CustomStringConvertible {
    public var budget: Double
    public var refusal: Conditions.Refusal
    /// The instant the system calls every outstanding task in, early; nil: only when time runs out.
    public var forcedExpiry: Double?
    /// Non-default scheduling choices: at decision `index` (counting only points with more than one
    /// runnable agent), take alternative `choice` (0 is the default).
    public var choices: [Choice]
    /// For a random schedule: decisions not listed in `choices` are drawn from this seed.
    public var seed: UInt64?

    public struct Choice: Hashable, Sendable {
        public var index: Int32
        public var choice: UInt8
        public init(index: Int32, choice: UInt8) {
            self.index = index
            self.choice = choice
        }
    }

    public init(budget: Double, refusal: Conditions.Refusal = .none, forcedExpiry: Double? = nil,
                choices: [Choice] = [], seed: UInt64? = nil) {
        self.budget = budget
        self.refusal = refusal
        self.forcedExpiry = forcedExpiry
        self.choices = choices
        self.seed = seed
    }

    /// `budget=30s refusal=none expire=never choices=-`, or with `expire=12.001s` and `choices=3:1,7:2`.
    /// Times are written to the millisecond when that is exact, and in full otherwise (a random
    /// schedule's early expiry, `expire=7.318202627s`), so the printed schedule replays its run.
    public var description: String {
        var text = "budget="
        text.reserveCapacity(56 + choices.count * 6)
        text += Self.exactSeconds(budget)
        text += " refusal="
        text += refusal.rawValue
        text += " expire="
        text += forcedExpiry.map(Self.exactSeconds) ?? "never"
        text += " choices="
        if choices.isEmpty { text += "-" }
        for (position, choice) in choices.enumerated() {
            if position > 0 { text += "," }
            text += String(choice.index)
            text += ":"
            text += String(choice.choice)
        }
        return text
    }

    static func exactSeconds(_ seconds: Double) -> String {
        let short = formatSeconds(seconds)
        // A whole number of seconds is written as its integer, which reads back exactly: no need
        // to parse it back to check.
        if wholeSeconds(seconds) != nil { return short }
        if Double(short.dropLast()) == seconds { return short }
        return "\(seconds)s"
    }

    /// Reads back `description` (a `seed=` part is accepted and ignored: the choices say it all).
    public init?(parsing text: String) {
        var budget: Double?
        var refusal = Conditions.Refusal.none
        var expiry: Double?
        var choices: [Choice] = []
        for part in text.split(separator: " ") {
            let pair = part.split(separator: "=", maxSplits: 1).map(String.init)
            guard pair.count == 2 else { return nil }
            switch pair[0] {
            case "budget": budget = Double(pair[1].dropLast(pair[1].hasSuffix("s") ? 1 : 0))
            case "refusal":
                guard let r = Conditions.Refusal(rawValue: pair[1]) else { return nil }
                refusal = r
            case "expire":
                if pair[1] != "never" {
                    guard let t = Double(pair[1].dropLast(pair[1].hasSuffix("s") ? 1 : 0)) else { return nil }
                    expiry = t
                }
            case "choices":
                if pair[1] != "-" {
                    for item in pair[1].split(separator: ",") {
                        let numbers = item.split(separator: ":")
                        guard numbers.count == 2, let i = Int32(numbers[0]), let c = UInt8(numbers[1]) else { return nil }
                        choices.append(Choice(index: i, choice: c))
                    }
                }
            case "seed": break
            default: return nil
            }
        }
        guard let budget else { return nil }
        self.init(budget: budget, refusal: refusal, forcedExpiry: expiry, choices: choices)
    }
}

/// A condition a scenario pins (`system budget 5s`, `system grants beginBackgroundTask`,
/// `system expires tasks only when time runs out`) that a schedule says otherwise: the explorer
/// never runs such a schedule, so a replay of it would show a run the scenario rules out.
public struct PinContradiction: Hashable, Sendable, CustomStringConvertible {
    /// The pin as the scenario words it.
    public var pin: String
    /// What the schedule says instead, as it prints it (`budget=30s`).
    public var scheduled: String
    /// The pin's line in the scenario's text (1-based) and the column where it starts; nil when
    /// no line of the text says it.
    public var line: Int?
    public var column: Int?

    public var description: String {
        "the scenario pins `\(pin)`, but the schedule says \(scheduled)"
    }
}

extension Schedule {
    /// Every pin of `scenario` this schedule contradicts, in the order the schedule prints its
    /// parts; empty when the explorer could have chosen it.
    public func contradictions(pinnedBy scenario: Scenario) -> [PinContradiction] {
        let conditions = scenario.conditions
        var found: [PinContradiction] = []
        func pinned(_ prefixes: [String], fallback: String, scheduled: String) {
            for (index, line) in scenario.text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let trimmed = line.drop { $0 == " " || $0 == "\t" }
                guard prefixes.contains(where: { trimmed.hasPrefix($0) }) else { continue }
                let text = trimmed.split(separator: "//", maxSplits: 1).first.map { String($0) } ?? String(trimmed)
                let pin = text.trimmingCharacters(in: " \t")
                found.append(PinContradiction(pin: pin, scheduled: scheduled, line: index + 1, column: line.count - trimmed.count + 1))
                return
            }
            found.append(PinContradiction(pin: fallback, scheduled: scheduled, line: nil, column: nil))
        }
        if let budget = conditions.budget, budget != self.budget {
            pinned(["system budget"], fallback: "system budget \(formatSeconds(budget))", scheduled: "budget=\(Self.exactSeconds(self.budget))")
        }
        if let refusals = conditions.refusal, !refusals.contains(refusal) {
            pinned(["system grants beginBackgroundTask", "system refuses beginBackgroundTask"],
                   fallback: refusals == [.none] ? "system grants beginBackgroundTask" : "system refuses beginBackgroundTask",
                   scheduled: "refusal=\(refusal.rawValue)")
        }
        if conditions.expiryOnlyAtEnd, let forcedExpiry {
            pinned(["system expires tasks only when time runs out"], fallback: "system expires tasks only when time runs out",
                   scheduled: "expire=\(Self.exactSeconds(forcedExpiry))")
        }
        return found
    }
}
