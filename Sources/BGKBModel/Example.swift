/// A fenced block inside a rule that the engine runs: a scenario and what it should show.
/// The text is kept verbatim so diagnostics and pages can point into it.
public struct Example: Hashable, Sendable, Codable {
    public enum Intent: String, Sendable, Codable, CaseIterable {
        /// The scenario does what the rule says: it must hold under every explored schedule.
        case follows
        /// The scenario breaks the rule: some explored schedule must show the failure.
        case breaks
    }

    /// The rule it belongs to.
    public var rule: String
    /// Optional short name from the fence's info string (`scenario breaks "Apple's listing"`).
    public var name: String?
    public var intent: Intent
    /// The block's content, verbatim.
    public var text: String
    /// Where the first line of `text` is (the line after the opening fence).
    public var location: SourceLocation

    public init(rule: String, name: String?, intent: Intent, text: String, location: SourceLocation) {
        self.rule = rule
        self.name = name
        self.intent = intent
        self.text = text
        self.location = location
    }

    /// `rule-id:line`, unique within the corpus and readable in a test name.
    public var identifier: String { "\(rule):\(location.line)" }
}
