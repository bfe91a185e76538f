import BGKBModel
import BGKBQuiz
import Foundation
import Testing

/// Listings wrap between tokens only, with a continuation mark; nothing is lost.
@Suite struct ListingWrapTests {
    static let lines = [
        #"    BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.refresh", using: nil) { task in"#,
        #"let request = BGAppRefreshTaskRequest(identifier: "com.example.app.refresh.with.a.long.identifier.that.goes.on")"#,
        "taskID = UIApplication.shared.beginBackgroundTask(withName: \"Upload\", expirationHandler: handleExpiryOfTheUploadTask)",
        "print(\"" + String(repeating: "y", count: 150) + "\")",
    ]

    /// Every identifier of the line, and of every output line.
    func identifiers(_ text: Substring) -> [Substring] {
        text.split { !($0.isLetter || $0.isNumber || $0 == "_") }
    }

    @Test(arguments: [40, 52, 63, 80])
    func longLinesBreakBetweenTokensOnly(width: Int) {
        let style = TextStyle(width: width)
        for code in Self.lines {
            let lines = style.listing(code)
            #expect(lines.count > 1)
            for line in lines { #expect(line.count <= width, "\(line)") }
            for line in lines.dropFirst() { #expect(line.hasPrefix("    ↳ "), "\(line)") }
            // Rejoined without the marks (a break may drop spaces), the code is whole.
            let rejoined = lines.enumerated().map { $0.offset == 0 ? String($0.element.dropFirst(4)) : String($0.element.dropFirst(6)) }
            #expect(rejoined.joined().filter { $0 != " " } == code.filter { $0 != " " })
            // No identifier is split, except one longer than a whole line.
            let whole = identifiers(Substring(code))
            let longerThanALine = whole.filter { $0.count > width - 6 }
            for line in lines {
                for word in identifiers(Substring(line)) where !whole.contains(word) && !longerThanALine.contains(where: { $0.contains(word) }) {
                    Issue.record("\(word) is part of a split identifier at width \(width): \(lines)")
                }
            }
        }
    }

    @Test func aLongStringBreaksAfterItsDotsNotInsideAWord() {
        let lines = TextStyle(width: 40).listing(Self.lines[1])
        let pieces = lines.dropFirst().map { $0.dropFirst(6) }
        #expect(pieces.contains { $0.hasPrefix("\"com.example.") }, "\(lines)")
        #expect(!lines.contains { $0.hasSuffix("refr") })
    }

    /// A full stop or closing bracket never starts a continuation line alone, at any width.
    @Test func aClosingMarkTakesItsWordAlong() {
        let code = "    // Written as if the handler ran elsewhere, like UIApplication's on main. (see below)"
        for width in 40...80 {
            let lines = TextStyle(width: width).listing(code)
            for line in lines.dropFirst() {
                let content = line.dropFirst(6)
                #expect(!(content.count == 1 && ".,;:)]}".contains(content)), "width \(width): \(lines)")
                #expect(!content.hasPrefix("."), "width \(width): \(lines)")
            }
            #expect(lines.joined().filter { !" ↳".contains($0) } == code.filter { $0 != " " })
        }
    }

    @Test func aShortLineIsLeftAlone() {
        #expect(TextStyle(width: 80).listing("let x = 1\n\tend") == ["    let x = 1", "        end"])
    }
}
