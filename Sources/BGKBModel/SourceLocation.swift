/// A place in a Content file. Lines and columns are 1-based; columns count Unicode characters
/// (not UTF-8 bytes), so a caret under a line with accents or emoji still lands where an editor says.
public struct SourceLocation: Hashable, Sendable, Codable, Comparable, CustomStringConvertible {
    public var path: String
    public var line: Int
    public var column: Int

    public init(path: String, line: Int, column: Int) {
        self.path = path
        self.line = line
        self.column = column
    }

    public var description: String { "\(path):\(line):\(column)" }

    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        (lhs.path, lhs.line, lhs.column) < (rhs.path, rhs.line, rhs.column)
    }
}
