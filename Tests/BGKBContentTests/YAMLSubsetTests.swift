@testable import BGKBContent
import BGKBModel
import Foundation
import Testing
import Yams

/// `YAMLSubset` reads blocks without libyaml; whatever it reads must be exactly what Yams reads
/// (marks included), and it must never accept what Yams rejects.
@Suite struct YAMLSubsetTests {
    /// Every piece of YAML-shaped text in Content: front matter, the body of every fenced block
    /// (the subset must also turn down Swift and scenario code), sources.yml and topics.yml.
    static let contentTexts: [String] = {
        var texts: [String] = []
        let root = repositoryRoot + "/Content"
        let files = FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String } ?? []
        for file in files.sorted() where file.hasSuffix(".md") || file.hasSuffix(".yml") {
            guard let text = try? String(contentsOfFile: root + "/" + file, encoding: .utf8) else { continue }
            if file.hasSuffix(".yml") { texts.append(text); continue }
            let lines = text.components(separatedBy: "\n")
            if lines.first == "---", let end = lines.dropFirst().firstIndex(of: "---") {
                texts.append(lines[1..<end].joined(separator: "\n"))
            }
            var fence: [String]?
            for line in lines {
                if line.hasPrefix("```") {
                    if let body = fence { texts.append(body.joined(separator: "\n")); fence = nil } else { fence = [] }
                } else {
                    fence?.append(line)
                }
            }
        }
        return texts
    }()

    static let edgeCases = [
        "id: a\nkind: must", "topics: [a, b, \"c d\"]", "topics: []", "apis: ['x', \"y\"]", "numbers:\n  - {value: 5, unit: s}",
        "numbers:\n- {value: 5, unit: s}\nid: x", "sources:\n  - a\n  - \"b\"", "title: a: b", "title: a:b", "title: ends:",
        "title: \"quo\\\"te\"", "title: 'it''s'", "title: # comment", "title: x # comment", "title: - x", "title: [a, b",
        "title: {a: b", "title: {a: b}", "title: {a:b}", "k: [a:b]", "k: v\n  continued", "k:\n", "k:", "k:   ", "", "  ",
        "k: v\n\nl: w", "k: v\r\nl: w", "k:\tv", "k: &anchor v", "k: *alias", "k: !tag v", "k: |\n  block", "k: >\n  folded",
        "- a\n- b", "k: v\nk: w", "k: ünïcode “curly” — dash", "k: [é, nowhere]", "k: {a: 'x', b: \"y z\"}",
        "k:\n  - {a: b}\n  - {a: c}\n  l: x", "k:\n  - a\n   - b", "k: v,", "k: a, b", "k: [a, ]", "k: {a: b, }",
        "k: \"unclosed", "k: 'unclosed", "k: \u{FEFF}x", "k: x\u{85}y", "k: -1", "k: .invalid", "k: 0x8badf00d", "k: ~",
        "k: [a, [b]]", "k: [{a: b}]", "k: @x", "k: `x`", "k: %x", "k: ?x", "k: x?", "k: 10:30", "k: \"\"", "k: ''", "K-1_b: v",
        "a:\n  b: c\n  d:\n    - x\ne: f", "a:\n  b: c\n e: f", "a:\n\n  b: c", "a:\n  - x\n  b: y", "a:\n  b:\n  - x\n  c: y",
        "a:\n  b: c\n    d: e", "a:\n    b: c\n  d: e", "a:\n  b: {c: d}\nz: [1]", "a:\n- x\n- y\nb: z", "a:\n  b:\n    c:\n      - d",
        "a:\n  - x\n - y", "a:\n  b: c\n\n  d: e\n", "a: b\n\n\n", "a:\n  -x", "a:\n  - ", "a:\n  b: c\nb", "a:\n  b",
        // Top-level lists, as sources.yml and topics.yml are written, and lists of mappings under a key.
        "- id: a\n  title: b\n- id: c\n  title: d", "- id: a\n  keywords: [x, \"y z\"]\n  summary: s", "\n\n- id: a\n\n  title: b\n\n- id: c\n",
        "- id: a\n   title: b", "- id: a\n title: b", "- id: a\n  title: b\n    more", "-   id: a\n    title: b", "- id:\n  title: b",
        "- id: a\n  keywords:\n    - x\n    - y\n- id: b", "- id: a\n  keywords:\n  - x\n  - y\n- id: b", "- id: a\n  nested:\n    k: v\n  t: u",
        "- a\n- id: b\n  t: c", "- id: a\nid: b", "id: a\n- id: b", " - id: a", "- id: a\n  -x", "- id: a\n  - x", "- id: a: b",
        "- id: a\n  id: b", "- {id: a}\n- id: b", "- id: a\n- ", "-id: a", "- id: a\n  title: “curly” ü\n  url: https://x.org/a?b=c",
        "k:\n  - a: b\n    c: d\n  - a: e", "k:\n  - a: b\n     c: d", "k:\n- a: b\n  c: d\nl: m", "- id: a\n\ttitle: b",
    ]

    @Test(arguments: contentTexts.indices)
    func contentReadsAsYamsReadsIt(index: Int) throws {
        Self.check(Self.contentTexts[index])
    }

    @Test(arguments: edgeCases)
    func edgeCasesReadAsYamsReadsThem(_ text: String) throws {
        Self.check(text)
    }

    /// The subset is worth having only if it reads the common blocks.
    @Test func theSubsetReadsMostOfContentsRuleBlocks() {
        let blocks = Self.contentTexts.filter { $0.hasPrefix("id:") }
        let read = blocks.filter { YAMLSubset.parse($0) != nil }
        #expect(blocks.count > 50)
        #expect(read.count * 10 >= blocks.count * 8, "\(read.count) of \(blocks.count) rule blocks")
    }

    /// `topics.yml` and `sources.yml` as Content and the benchmark's generator write them are read
    /// without Yams, whose first read in a process compiles its regular expressions.
    @Test(arguments: [
        "- id: a\n  title: b\n- id: c\n  title: d",
        "- id: what-is-a-background-task\n  title: What a background task is\n  keywords: [assertion, \"does not start\"]\n",
        "- id: gen-source-00\n  title: Generated source 0\n  url: https://example.com/sources/0\n  summary: When it calls `x`, it starts.\n",
        "- id: a\n  keywords:\n    - x\n    - y\n- id: b", "\n\n- id: a\n\n  title: b\n\n- id: c\n",
    ])
    func theSubsetReadsTopLevelLists(_ text: String) {
        #expect(YAMLSubset.parse(text) != nil)
        Self.check(text)
    }

    @Test func theSubsetReadsContentsTopicsFile() throws {
        let text = try String(contentsOfFile: repositoryRoot + "/Content/topics.yml", encoding: .utf8)
        #expect(YAMLSubset.parse(text) != nil)
    }

    /// Seeded YAML of the shapes the subset reads (mappings nested under keys, block lists,
    /// lists of mappings, flow lists and mappings, quoted and plain scalars), and each one
    /// mutated at random (a byte deleted, an indicator, space or line break inserted, a line
    /// repeated): whatever the subset reads must be what Yams reads, and it must turn down the
    /// rest, every line and column included.
    @Test(arguments: 0..<6)
    func generatedBlocksReadAsYamsReadsThem(seed: Int) {
        var generator = SeededGenerator(seed: UInt64(seed))
        var read = 0, mutationsRead = 0
        for _ in 0..<120 {
            let text = Self.generatedMapping(indent: 0, depth: 0, using: &generator)
            Self.check(text)
            if YAMLSubset.parse(text) != nil { read += 1 }
            for _ in 0..<3 {
                let mutation = Self.mutated(text, using: &generator)
                Self.check(mutation)
                if YAMLSubset.parse(mutation) != nil { mutationsRead += 1 }
            }
        }
        // Most of the unmutated blocks are in the subset, and so is a good share of the mutations:
        // both paths are taken.
        #expect(read >= 80, "\(read) of 120 generated blocks read")
        #expect(mutationsRead >= 60, "\(mutationsRead) of 360 mutations read")
    }

    static let scalars = ["a", "b c", "\"q r\"", "'s t'", "é", "x-1", "5", "“c”", "ü x", "0x8badf00d", "a.b(c:)", "''", "\"\""]

    static func generatedFlow(depth: Int, using generator: inout SeededGenerator) -> String {
        switch depth < 2 ? Int.random(in: 0..<4, using: &generator) : 0 {
        case 1:
            return "[" + (0..<Int.random(in: 0...3, using: &generator)).map { _ in generatedFlow(depth: depth + 1, using: &generator) }
                .joined(separator: ", ") + "]"
        case 2:
            return "{" + (0..<Int.random(in: 1...3, using: &generator)).map { index in
                "k\(index): " + generatedFlow(depth: depth + 1, using: &generator)
            }.joined(separator: ", ") + "}"
        default:
            return scalars.randomElement(using: &generator)!
        }
    }

    static func generatedMapping(indent: Int, depth: Int, using generator: inout SeededGenerator) -> String {
        let pad = String(repeating: " ", count: indent)
        var lines: [String] = []
        for index in 0..<Int.random(in: 1...4, using: &generator) {
            let key = pad + ["id", "title", "topics", "k-\(index)", "a_b"][Int.random(in: 0..<5, using: &generator)] + "\(index)"
            switch depth < 2 ? Int.random(in: 0..<5, using: &generator) : 0 {
            case 1:
                lines.append(key + ":")
                lines.append(generatedMapping(indent: indent + 2, depth: depth + 1, using: &generator))
            case 2:
                lines.append(key + ":")
                let dash = pad + (Bool.random(using: &generator) ? "  - " : "- ")
                for _ in 0..<Int.random(in: 1...3, using: &generator) { lines.append(dash + generatedFlow(depth: 1, using: &generator)) }
            case 3:
                lines.append(key + ":")
                for _ in 0..<Int.random(in: 1...2, using: &generator) {
                    lines.append(pad + "  - m: " + generatedFlow(depth: 1, using: &generator))
                    lines.append(pad + "    n: " + scalars.randomElement(using: &generator)!)
                }
            default:
                lines.append(key + ": " + generatedFlow(depth: 0, using: &generator))
            }
        }
        return lines.joined(separator: "\n")
    }

    static func mutated(_ text: String, using generator: inout SeededGenerator) -> String {
        var characters = Array(text)
        guard !characters.isEmpty else { return text }
        let at = Int.random(in: 0..<characters.count, using: &generator)
        switch Int.random(in: 0..<3, using: &generator) {
        case 0:
            characters.remove(at: at)
        case 1:
            let inserted: [Character] = [" ", "\n", ":", "-", "[", "]", "{", "}", ",", "'", "\"", "#", "é", "\t", "&"]
            characters.insert(inserted.randomElement(using: &generator)!, at: at)
        default:
            var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            let line = Int.random(in: 0..<lines.count, using: &generator)
            lines.insert(lines[line], at: line)
            return lines.joined(separator: "\n")
        }
        return String(characters)
    }

    static func check(_ text: String) {
        guard let problem = YAMLSubsetCheck.mismatch(text) else { return }
        let fast = YAMLSubset.parse(text).map(describe) ?? "-"
        let slow = ((try? Yams.compose(yaml: text)) ?? nil).map { describe(YAMLNode($0)) } ?? "-"
        Issue.record("\(problem): \(text.debugDescription)\nsubset: \(fast)\nYams:   \(slow)")
    }

    static func describe(_ node: YAMLNode) -> String {
        let mark = node.mark.map { "@\($0)" } ?? ""
        switch node.content {
        case let .scalar(text): return "\(text.debugDescription)\(mark)"
        case let .sequence(items): return "[\(items.map(describe).joined(separator: ", "))]\(mark)"
        case let .mapping(pairs): return "{\(pairs.map { describe($0.key) + ": " + describe($0.value) }.joined(separator: ", "))}\(mark)"
        }
    }
}


