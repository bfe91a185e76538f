/// Scenario text being generated, line by line. Every statement that comes from the app's code
/// ends with a marker comment naming its line and column in the Swift file (`// @12:9`), so a
/// step of a trace (whose text is the scenario line) leads back to the app's code.
import Foundation

struct ScenarioWriter {
    var lines: [String] = []
    var depth = 0
    /// Where the code being written runs, added to each marker: `h` in an expiration handler,
    /// `d` in a `defer` body (the classifier reads it back from a trace's steps).
    var context = ""

    mutating func line(_ text: String, at place: SourcePlace? = nil) {
        let indent = String(repeating: "  ", count: depth)
        lines.append(indent + text + (place.map { "   " + $0.marker + (context.isEmpty ? "" : " " + context) } ?? ""))
    }

    /// Opens `text {`, runs `body` one level deeper, and closes the block.
    mutating func block(_ text: String, at place: SourcePlace? = nil, _ body: (inout ScenarioWriter) -> Void) {
        line(text + " {", at: place)
        depth += 1
        body(&self)
        depth -= 1
        line("}")
    }

    /// The last line written, without indentation.
    var last: String? { lines.last?.trimmingLeadingSpaces }

    mutating func append(_ other: ScenarioWriter) {
        let indent = String(repeating: "  ", count: depth)
        lines.append(contentsOf: other.lines.map { indent + $0 })
    }

    var text: String { lines.joined(separator: "\n") + "\n" }
}

/// A line and column in a scanned Swift file (1-based; columns in UTF-8 bytes, as swift-syntax
/// and Xcode count them).
public struct SourcePlace: Hashable, Sendable, Comparable, Codable {
    public var line: Int
    public var column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    var marker: String { "// @\(line):\(column)" }

    /// The context letters after a marker (`h`, `d`, `hd`), empty when none.
    static func context(ofMarked text: String) -> String {
        guard let range = text.range(of: "// @", options: .backwards) else { return "" }
        let rest = text[range.upperBound...].drop { $0.isNumber || $0 == ":" }
        return String(rest.prefix { $0 != "(" }).trimmingCharacters(in: .whitespaces)
    }

    /// The place a scenario line's marker names, if it has one.
    init?(marker text: String) {
        guard let range = text.range(of: "// @", options: .backwards) else { return nil }
        let parts = text[range.upperBound...].split(separator: ":")
        guard parts.count == 2, let line = Int(parts[0]), let column = Int(parts[1].prefix { $0.isNumber }) else { return nil }
        self.init(line: line, column: column)
    }

    public static func < (lhs: SourcePlace, rhs: SourcePlace) -> Bool { (lhs.line, lhs.column) < (rhs.line, rhs.column) }
}

extension String {
    var trimmingLeadingSpaces: String { String(drop { $0 == " " }) }

    /// The text without a scan marker comment at its end.
    var withoutMarker: String {
        guard let range = range(of: "   // @", options: .backwards) else { return self }
        return String(self[..<range.lowerBound])
    }
}
