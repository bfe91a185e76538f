/// One problem found in Content. Library code collects these; only the executable prints them.
public struct Diagnostic: Hashable, Sendable, Codable, CustomStringConvertible {
    public enum Severity: String, Sendable, Codable, Comparable {
        case warning, error
        public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs == .warning && rhs == .error }
    }

    public var severity: Severity
    /// Stable, kebab-case name of the check (`unknown-field`, `impossible-date`): users grep for it.
    public var id: String
    public var message: String
    public var location: SourceLocation?
    /// Extra lines printed under the message (`note: ...`), for example the other place of a duplicate.
    public var notes: [String]

    public init(_ severity: Severity, _ id: String, _ message: String, at location: SourceLocation?, notes: [String] = []) {
        self.severity = severity
        self.id = id
        self.message = message
        self.location = location
        self.notes = notes
    }

    /// `path:line:column: error: message [id]`, the format compilers and editors understand.
    public var description: String {
        let place = location.map { "\($0): " } ?? ""
        var text = "\(place)\(severity.rawValue): \(message) [\(id)]"
        for note in notes { text += "\n    note: \(note)" }
        return text
    }
}

/// An ordered bag of diagnostics, appended to as a pass walks its input.
public struct Diagnostics: Sendable, Codable, Hashable {
    public private(set) var all: [Diagnostic] = []

    public init(_ all: [Diagnostic] = []) { self.all = all }

    public var hasErrors: Bool { all.contains { $0.severity == .error } }
    public var errors: [Diagnostic] { all.filter { $0.severity == .error } }
    public var warnings: [Diagnostic] { all.filter { $0.severity == .warning } }
    public var isEmpty: Bool { all.isEmpty }

    public mutating func append(_ diagnostic: Diagnostic) { all.append(diagnostic) }
    public mutating func append(contentsOf other: Diagnostics) { all.append(contentsOf: other.all) }
    public mutating func error(_ id: String, _ message: String, at location: SourceLocation?, notes: [String] = []) {
        all.append(Diagnostic(.error, id, message, at: location, notes: notes))
    }
    public mutating func warning(_ id: String, _ message: String, at location: SourceLocation?, notes: [String] = []) {
        all.append(Diagnostic(.warning, id, message, at: location, notes: notes))
    }

    /// Sorted by place, so output is the same whatever order the passes ran in.
    public var sorted: [Diagnostic] {
        all.sorted { a, b in
            switch (a.location, b.location) {
            case let (l?, r?) where l != r: return l < r
            case (nil, _?): return true
            case (_?, nil): return false
            default: return (a.id, a.message) < (b.id, b.message)
            }
        }
    }
}
