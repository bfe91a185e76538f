import Foundation
import Testing

/// The limits the style guide sets for the shipping code (everything under Sources/): rooms of
/// human size, and byte-level code in one home. A merge that breaks one fails here, with the
/// place, rather than in a review.
@Suite struct SourceLimitsTests {
    static let sourcesDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources")

    /// Every Swift file under Sources/, by its path from there, with its lines.
    static let files: [(path: String, lines: [Substring])] = {
        let root = sourcesDirectory.standardizedFileURL.path
        guard let walker = FileManager.default.enumerator(atPath: root) else { return [] }
        var files: [(String, [Substring])] = []
        for case let path as String in walker where path.hasSuffix(".swift") {
            guard let text = try? String(contentsOfFile: root + "/" + path, encoding: .utf8) else { continue }
            files.append((path, text.split(separator: "\n", omittingEmptySubsequences: false)))
        }
        return files.sorted { $0.0 < $1.0 }
    }()

    /// The only files that may use unsafe pointers, `withUnsafe…`, `loadUnaligned`, `memchr` or
    /// `memcpy`: the byte utilities, the cmark converter, and the two that make system calls.
    static let unsafeHomes: Set<String> = [
        "BGKBModel/Bytes.swift", "BGKBMarkdown/CommonMarkConverter.swift", "BGKBSite/SiteWriter.swift", "BGKBQuiz/SystemCalls.swift",
    ]

    @Test func theSourcesAreThere() {
        #expect(Self.files.count > 100)
    }

    @Test func noFileIsOver800Lines() {
        for file in Self.files {
            #expect(file.lines.count <= 800, "Sources/\(file.path) has \(file.lines.count) lines")
        }
    }

    @Test func noFunctionIsOver150Lines() {
        for file in Self.files {
            for function in Self.functions(in: file.lines) where function.length > 150 {
                Issue.record("Sources/\(file.path):\(function.line): a function of \(function.length) lines")
            }
        }
    }

    @Test func unsafeCodeLivesInFourFiles() {
        let words = ["UnsafePointer", "UnsafeMutablePointer", "UnsafeRawPointer", "UnsafeBufferPointer", "UnsafeMutableBufferPointer",
                     "UnsafeMutableRawPointer", "UnsafeRawBufferPointer", "withUnsafe", "loadUnaligned", "memchr(", "memcpy("]
        for file in Self.files where !Self.unsafeHomes.contains(file.path) {
            for (index, line) in file.lines.enumerated() {
                let code = line.prefix { $0 != "/" }
                for word in words where code.contains(word) {
                    Issue.record("Sources/\(file.path):\(index + 1): \(word) outside the byte utilities")
                }
            }
        }
    }

    /// The counter below finds long functions and passes short ones.
    @Test func theFunctionCounterCounts() {
        let long = ["struct S {", "    private static func f(_ x: Int) -> Int {"] + Array(repeating: "        x += \"{\" // }", count: 151)
            + ["    }", "    init() {", "    }", "}"]
        let found = Self.functions(in: long.map { Substring($0) })
        #expect(found.map(\.line) == [2, 155])
        #expect(found.map(\.length) == [153, 2])
    }

    static let modifiers: Set<Substring> = [
        "public", "private", "fileprivate", "internal", "package", "static", "class", "final", "mutating", "nonmutating",
        "override", "convenience", "required", "nonisolated", "dynamic", "@inlinable", "@usableFromInline", "@discardableResult",
        "@inline(__always)", "@MainActor", "@Sendable", "@objc", "@testable",
    ]

    /// Each `func`, `init` and `subscript` with a body: the line it starts on (1-based) and how many
    /// lines it spans, through its closing brace. Braces in string literals and after `//` are not
    /// counted.
    static func functions(in lines: [Substring]) -> [(line: Int, length: Int)] {
        var found: [(line: Int, length: Int)] = []
        for (start, line) in lines.enumerated() where declaresFunction(line) {
            var depth = 0
            var opened = false
            var end = start
            while end < lines.count {
                depth += braceBalance(lines[end])
                if lines[end].contains("{") { opened = true }
                if opened && depth <= 0 { break }
                // A declaration without a body (a protocol requirement) ends within a few lines.
                if !opened && end > start + 8 { break }
                end += 1
            }
            if opened && end < lines.count { found.append((start + 1, end - start + 1)) }
        }
        return found
    }

    static func declaresFunction(_ line: Substring) -> Bool {
        var words = line.split(separator: " ")[...]
        while let first = words.first, modifiers.contains(first) || first.hasPrefix("private(") || first.hasPrefix("public(") {
            words = words.dropFirst()
        }
        guard let word = words.first else { return false }
        return word == "func" || word == "init" || word.hasPrefix("init(") || word.hasPrefix("init?(") || word.hasPrefix("init<")
            || word.hasPrefix("subscript(") || word.hasPrefix("subscript<")
    }

    static func braceBalance(_ line: Substring) -> Int {
        var balance = 0
        var inString = false
        var escaped = false
        var previous: Character = " "
        for character in line {
            if inString {
                if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "\"" { inString = false }
            } else if character == "\"" {
                inString = true
            } else if character == "/" && previous == "/" {
                break
            } else if character == "{" {
                balance += 1
            } else if character == "}" {
                balance -= 1
            }
            previous = character
        }
        return balance
    }
}
