import Foundation
import Testing
@testable import BGKBScan

@Test func dumpDev() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures").path
    let which = ProcessInfo.processInfo.environment["SCAN_DIR"] ?? "scan-dev"
    let files = try SourceFinder.find([root + "/" + which], excluding: [])
    let sources = try files.map { SwiftSource(path: String($0.dropFirst(root.count + 1)), text: try String(contentsOfFile: $0, encoding: .utf8)) }
    let result = Scanner.scan(sources)
    for problem in result.problems { print("PROBLEM", problem) }
    for finding in result.findings {
        print("\(finding.path):\(finding.place.line):\(finding.place.column): \(finding.family.rawValue) \(finding.message)")
        if ProcessInfo.processInfo.environment["SCAN_TRACE"] != nil { print(finding.timeline.joined(separator: "\n")) }
    }
}
