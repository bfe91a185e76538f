import BGKBScan
import Foundation

/// The repository's root, found from this file.
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

/// A finding as the corpus marks it: file (relative to Tests/Fixtures), line and family.
struct Mark: Hashable, Comparable, CustomStringConvertible {
    var path: String
    var line: Int
    var family: String

    var description: String { "\(path):\(line) \(family)" }
    static func < (lhs: Mark, rhs: Mark) -> Bool { (lhs.path, lhs.line, lhs.family) < (rhs.path, rhs.line, rhs.family) }
}

enum Corpus {
    /// The Swift files under Tests/Fixtures/`folder`, read, with paths relative to Tests/Fixtures.
    static func sources(_ folder: String) throws -> [SwiftSource] {
        let fixtures = repositoryRoot + "/Tests/Fixtures"
        return try SourceFinder.find([fixtures + "/" + folder], excluding: []).map { path in
            SwiftSource(path: String(path.dropFirst(fixtures.count + 1)), text: try String(contentsOfFile: path, encoding: .utf8))
        }
    }

    /// Every `// expect-finding: family` mark (several families may be separated by commas).
    static func marks(in sources: [SwiftSource]) -> Set<Mark> {
        var marks: Set<Mark> = []
        for source in sources {
            for (index, line) in source.text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                guard let range = line.range(of: "expect-finding:") else { continue }
                for family in line[range.upperBound...].split(separator: ",") {
                    let name = family.trimmingCharacters(in: .whitespaces).prefix { $0.isLetter || $0 == "-" }
                    if !name.isEmpty { marks.insert(Mark(path: source.path, line: index + 1, family: String(name))) }
                }
            }
        }
        return marks
    }

    static func marks(of findings: [Finding]) -> Set<Mark> {
        Set(findings.map { Mark(path: $0.path, line: $0.place.line, family: $0.family.rawValue) })
    }
}
