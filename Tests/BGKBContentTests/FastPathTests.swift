@testable import BGKBContent
@testable import BGKBMarkdown
import BGKBModel
import Foundation
import Testing

/// The pipeline's byte-level fast paths must give exactly what the character-level code they
/// replace gives, including where one character spans several scalars.
@Suite struct FastPathTests {
    static let texts: [String] = [
        "plain words, with `UIApplication.shared` and beginBackgroundTask(expirationHandler:)",
        "  leading and trailing  \n\t",
        "Apple’s “quoted” text — with dashes … and 0x8BADF00D.",
        "a space then a combining mark: e \u{301}x and \u{301} at the start",
        "Thai sara am after a space: ก \u{0E33}ำ",
        "an emoji modifier after a space: 👍 \u{1F3FD} and a ZWJ \u{200D}x",
        "a prepend mark before a space: \u{0600} x",
        "carriage returns\r\nand\rlone ones",
        "tabs\tand\nlines\n\nand   runs",
        "",
        " ",
        "**Why it matters.** [a link](#x) ~30 s",
    ]

    /// `SourceLines` splits where splitting the Characters at `\n` does (not inside a `\r\n`), reads
    /// any run of lines as those lines joined by `\n`, and calls blank what trims to nothing.
    @Test(arguments: texts + ["\n\nblank lines\n", "cr lf\r\n\r\r\n", "é\n\u{301}after a break", "a\r\n\r\nb\n\r\n\n", "\n", "\n\n", "x\n", "\r\n", "\r\n\n", "---\ntitle: t\n---\nbody\n", " \t \n \u{301}\n\n"])
    func sourceLinesSplitAsStringLinesDoes(_ text: String) {
        let lines = SourceLines(text)
        let expected = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect((0..<lines.count).map { Array(lines[$0].utf8) } == expected.map { Array($0.utf8) })
        #expect((0..<lines.count).map(lines.isBlank) == expected.map(\.trimmed.isEmpty))
        for start in 0...expected.count {
            for end in start...expected.count {
                #expect(Array(lines.joined(start..<end).utf8) == Array(expected[start..<end].joined(separator: "\n").utf8))
            }
            let offset = expected[..<start].reduce(start) { $0 + $1.utf8.count }
            #expect(lines.offset(ofLine: start) == (start < expected.count ? offset : text.utf8.count))
        }
    }

    /// A fence closes where the trimmed line is a long enough run of its character, as the
    /// String comparison said.
    @Test(arguments: ["```", "````", "~~~", "  ```  ", "\t```", "``", "``` x", "```\r", " \u{301}```", "```\u{301}", "", "   ", "~~~~~"])
    func fenceClosingMatchesTheStringTest(_ line: String) {
        let lines = SourceLines("```swift\ncode\n" + line)
        for fence in ["```", "~~~", "````"] {
            let closing = line.trimmed
            let expected = closing.count >= fence.count && closing.allSatisfy { $0 == fence.first }
            #expect(lines.closesFence(2, fence) == expected, "\(line.debugDescription) \(fence)")
        }
    }

    @Test(arguments: [("Revision History", true), ("Change history:", true), ("  CHANGELOG  ", true), ("Change Log", true),
                      ("Revision history of the notes, with every change dated and explained", false), ("History", false)])
    func historyTitles(_ line: String, _ expected: Bool) {
        #expect(BlockWalker.isHistoryTitle(firstLine: line) == expected)
    }

    /// The Markdown writer's byte paths for ASCII text: the escape (each special at a line's start,
    /// a word's edge and inside words, next to digits, underscores and line breaks) and the
    /// backtick test must give what going through Characters gives.
    @Test(arguments: 0..<8)
    func markdownEscapeByBytesMatchesCharacters(seed: Int) {
        let alphabet: [String] = ["\\", "`", "*", "_", "[", "]", "<", ">", "#", "a", "Z", "0", "9", " ", "\n", "\t", "(", ":", ".", "@", "{"]
        for text in randomMixes(of: alphabet, seed: seed, lengths: 0...30) {
            #expect(MarkdownWriter.escapeASCII(text) == MarkdownWriter.escapeByCharacter(text), "\(text.debugDescription)")
            #expect(MarkdownWriter.containsBacktick(text) == text.contains("`"))
        }
        #expect(MarkdownWriter.escapeASCII("a\r\n#b") == nil)
        #expect(MarkdownWriter.escapeASCII("é_x") == nil)
        #expect(MarkdownWriter.containsBacktick("`\u{301}") == false)
    }

    /// `uniqued` compares short lists pairwise: it must keep what the Set keeps, in the same order,
    /// canonically equal spellings (one kept) included, on either side of the pairwise limit.
    @Test(arguments: [[], ["a"], ["a", "a"], ["b", "a", "b", "c", "a"], ["caf\u{E9}", "cafe\u{301}", "cafe"], ["\r\n", "\r", "\n", "\r\n"],
                      (0..<40).map { "api\($0 % 13)" }, (0..<17).map { "n\($0)" } + ["n3"], texts + texts.reversed()])
    func uniquedKeepsWhatASetKeeps(_ list: [String]) {
        #expect(list.uniqued.map { Array($0.utf8) } == list.uniquedByHashing.map { Array($0.utf8) })
    }

    /// `concatenated` must give `joined`'s very bytes, combining marks at the seams included.
    @Test(arguments: [[], [""], ["a"], ["", ""], ["e", "\u{301}x"], ["line one", "", "line three  "], texts, ["\r", "\n"]])
    func concatenatedMatchesJoined(_ pieces: [String]) {
        for separator in ["", "\n", "\n\n", " \u{301}"] {
            #expect(Array(pieces.concatenated(separator: separator).utf8) == Array(pieces.joined(separator: separator).utf8))
            #expect(Array(Array(pieces.dropFirst()).concatenated(separator: separator).utf8)
                    == Array(pieces[...].dropFirst().joined(separator: separator).utf8))
        }
    }

    /// A long statement's title splits off only the words that can fit; it must be the title that
    /// splitting every word gave, single-letter words (the most that can fit) included.
    @Test(arguments: texts + [String(repeating: "a ", count: 100), String(repeating: "ab ", count: 60) + "end.",
                              String(repeating: "word ", count: 13) + "x" + String(repeating: " y", count: 40),
                              String(repeating: "é ", count: 80), "short statement.", String(repeating: "x", count: 200)])
    func titleMatchesSplittingEveryWord(_ statement: String) {
        var text = statement.replacingNewlines
        while let last = text.last, ".:;,".contains(last) { text.removeLast() }
        var expected = text
        if text.count > 72 {
            expected = ""
            for word in text.split(separator: " ") {
                if expected.count + word.count + 1 > 70 { break }
                expected += expected.isEmpty ? String(word) : " " + word
            }
            expected += "…"
        }
        #expect(PlainText.title(from: statement) == expected)
        #expect(PlainText.titleByCharacter(statement) == expected)
    }

    /// The byte path gives the Character path's title wherever it answers, runs of spaces, line
    /// breaks and trailing punctuation included.
    @Test(arguments: texts + ["ends with punctuation.:;,", "a\nb\n", "  lead  and  runs  " + String(repeating: "w ", count: 40),
                              String(repeating: "x", count: 70) + " y " + String(repeating: "z ", count: 10),
                              String(repeating: "x", count: 71) + " y" + String(repeating: " z", count: 10),
                              String(repeating: "word ", count: 14) + ".", String(repeating: "word\n", count: 20) + "end;",
                              String(repeating: "a", count: 72), String(repeating: "a", count: 73) + ".", "..."])
    func titleByBytesMatchesTitleByCharacter(_ statement: String) {
        if let title = PlainText.titleASCII(statement) {
            #expect(title == PlainText.titleByCharacter(statement))
        } else {
            #expect(statement.utf8.contains { $0 >= 0x80 || $0 == UInt8(ascii: "\r") })
        }
    }

    /// A name is dropped when another ends with a dot and then it: by bytes as by Characters.
    @Test(arguments: [[], ["endBackgroundTask(_:)", "UIApplication.endBackgroundTask(_:)"], ["a", ".a", "b.a", "a.b", "b"],
                      ["shared", "UIApplication.shared", "shared.x"], ["", "x.", "y"], ["x", "ax", "a.x.y", "x.y", "y"],
                      ["caf\u{E9}", "a.cafe\u{301}"], ["\u{301}b", "a.\u{301}b"], ["b", "\u{600}.b"], ["\r\n", "a.\r\n"]])
    func bareDuplicatesByBytesMatchCharacters(_ names: [String]) {
        let unique = names.uniqued
        let byCharacter = unique.indices.filter { index in !unique.contains { $0 != unique[index] && $0.hasSuffix("." + unique[index]) } }
            .map { unique[$0] }
        #expect(BlockWalker.withoutBareDuplicates(names) == byCharacter)
        if let byBytes = BlockWalker.withoutBareDuplicatesASCII(unique) { #expect(byBytes == byCharacter) }
    }

    /// Framework names are dropped from a rule's APIs, exactly these and nothing near them.
    @Test(arguments: [("UIKit", true), ("BackgroundTasks", true), ("Foundation", true), ("SwiftUI", true), ("WatchKit", true),
                      ("UserNotifications", true), ("Dispatch", true), ("uikit", false), ("UIKit ", false), ("DispatchQueue", false),
                      ("UIKit.UIApplication", false), ("", false), ("Foundatio", false)])
    func frameworkNamesAreExactlyTheFrameworks(_ name: String, _ isFramework: Bool) {
        #expect(BlockWalker.isFrameworkName(name) == isFramework)
        #expect(BlockWalker.withoutBareDuplicates([name, "UIApplication.shared"]).contains(name) == !isFramework)
    }

    /// The memchr scans must answer as a walk over every byte does.
    @Test(arguments: texts + ["0x8badf00d", "x0", "0", "00x", "\r", "ends with 0", "0x", "a\r\nb"])
    func byteScansMatchAWalk(_ text: String) {
        let bytes = Array(text.utf8)
        for byte in [UInt8(ascii: "\r"), UInt8(ascii: "0"), UInt8(ascii: "x"), 0xCC, UInt8(ascii: "\n")] {
            #expect(text.containsByte(byte) == bytes.contains(byte))
        }
        for (first, second) in [(UInt8(ascii: "0"), UInt8(ascii: "x")), (UInt8(ascii: "\r"), UInt8(ascii: "\n")), (UInt8(ascii: "x"), UInt8(ascii: "0"))] {
            let walked = bytes.indices.dropFirst().contains { bytes[$0 - 1] == first && bytes[$0] == second }
            #expect(text.utf8.containsPair(first, second) == walked)
        }
    }

    /// A revision entry is a correction by the same words whether searched by bytes or by
    /// Foundation.
    @Test(arguments: texts + ["Corrected the budget.", "Fixed an ERROR in the listing", "fixed a typo", "fixed all",
                              "wrong", "wron", "Mistake", "incorrectly dated", "erro", "", "Wrong\u{301} accent", "caf\u{E9} error"])
    func correctionWordsMatchFoundation(_ text: String) {
        let lower = text.lowercased()
        let expected = ["correct", "error", "mistake", "wrong", "fixed a"].contains { lower.range(of: $0) != nil }
        #expect(VersionLinker.isCorrection(text) == expected)
    }

    /// A rule id is checked by bytes; it must accept exactly what the character test accepted.
    @Test(arguments: texts + ["kebab-case-id", "id-2", "Upper-case", "under_score", "caf\u{E9}", "cafe\u{301}", "a\r\nb",
                              "-", "0x8badf00d", "\u{FF41}", "x\u{200D}y", "ａ"])
    func ruleIDCheckMatchesCharacterTest(_ id: String) {
        let characterValid = !id.isEmpty && id.allSatisfy { ($0.isASCII && ($0.isLowercase || $0.isNumber)) || $0 == "-" }
        var diagnostics = Diagnostics()
        RuleAnnotation.checkID(id, at: BGKBModel.SourceLocation(path: "x", line: 1, column: 1), diagnostics: &diagnostics)
        #expect(diagnostics.errors.isEmpty == characterValid)
    }

    /// Sign-offs are judged by the line's first bytes when they are ASCII; the answer must be
    /// the one lower-casing the line and comparing Characters gives.
    @Test(arguments: texts + ["Thanks", "THANKS!", "thanks\u{301} a lot", "Thank you", "Thank\u{301} you", "Best regards, Quinn",
                              "best Regards", "Kind regards\r\n", "Cheers", "Cheerio", "Share and Enjoy", "share and enjoy\u{301}",
                              "Share and enjoyment", "Regards", "  Thanks", "Thanks\r", "ＴＨＡＮＫＳ", "Thanks é", "Thank", "",
                              "kind\u{0301} regards", "Best wishes\u{0301}", "REGARDS\u{0130}"])
    func signOffsMatchCharacterTest(_ line: String) {
        #expect(BlockWalker.isSignOff(firstLine: line) == BlockWalker.isSignOffByCharacter(firstLine: line))
    }

    /// A revision entry's words are split by bytes when the line is ASCII, as the Character split does.
    @Test(arguments: texts + ["2023-06-16  two  spaces ", " 17 Aug 2017 — text", "a\r\nb c", "é 1 2", "x \u{301}y z", "   ", "",
                              "August 17, 2017: entry"])
    func revisionWordsMatchCharacterSplit(_ line: String) {
        #expect(RevisionDate.words(line) == RevisionDate.wordsByCharacter(line))
    }

    @Test(arguments: texts)
    func wordsMatchCharacterSplit(_ text: String) {
        let expected = text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }).map(String.init)
        #expect(PlainText.words(text) == expected)
    }

    @Test(arguments: texts + ["Revision History  \n  ", "  **Revision** History:\n2023-06-16 Entry.", "Share and *Enjoy*  \nQuinn", "# Heading  ",
                              "ab\r\ncd\nef", "é\n\u{301}x after a combining mark", "one `code\nspan` two\nthree", "[a link\nacross](#x) lines\nmore",
                              "hard  \nbreak\nthird", "only one line, long: " + String(repeating: "word ", count: 200), "x\n\u{301}\ny", "> quoted\n> lines\n\nafter",
                              "- item one\n- item two\n  continued", "```swift\nlet a = 1\nlet b = 2\n```", "```\n\n  \nlate first line\nx\u{301} next\n```",
                              "    indented code\n    second line", "```\nonly line\n```", "```\nfirst\n\u{301}é\n```", "```\nspaces after  \nsecond\n```"])
    func firstLineMatchesSplit(_ text: String) {
        for block in CommonMarkConverter.parse(text).children {
            #expect(BlockWalker.firstLine(of: block) == (block.plainText.trimmed.split(separator: "\n").first.map(String.init) ?? ""))
        }
    }

    @Test(arguments: texts + ["  expect suspended", "x\n\texpect\u{301} combined", "“quoted”\n expect running", "cr\r\n expect x"])
    func expectationLinesMatchCharacterSplit(_ text: String) {
        let expected = text.split(separator: "\n").contains { $0.drop { $0 == " " || $0 == "\t" }.hasPrefix("expect") }
        #expect(BlockWalker.hasExpectationLine(text) == expected)
        #expect(text.replacingNewlines == text.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: " "))
    }

    @Test(arguments: texts + ["cafe\u{301} and café", "kelvin \u{212A} sign", "greek\u{037E} question", "expiry handler’s thread"])
    func keywordSearchMatchesFoundation(_ text: String) {
        for keyword in ["e", "cafe", "caf", "handler", "expiry handler", "k", ";", "x", "", "’s", "0x8badf00d", "words, with"] {
            #expect(PlainText.contains(text, keyword) == text.range(of: keyword).map { _ in true } ?? false, "keyword \(keyword)")
        }
    }

    @Test(arguments: texts + ["Why it matters:", " :. Instead. ", ".:", "", "a", ": x :\u{301}", "\r\n: x :\r\n", "\t(quoted)\t", "“curly”",
                              ":é:", "\u{301}:x:", "x\n\n", "   "])
    func trimmingMatchesCharacterTrim(_ text: String) {
        for set in [" \n\t", ".,;:()“”\"’'`", ":. ", ":"] {
            var slice = Substring(text)
            while let first = slice.first, set.contains(first) { slice = slice.dropFirst() }
            while let last = slice.last, set.contains(last) { slice = slice.dropLast() }
            #expect(text.trimmingCharacters(in: set) == String(slice), "set \(set.debugDescription)")
        }
    }

    static let sentences = [
        "", "No stop", "One. Two.", "Ends here.", "e.g. this goes on. Then a new one.", "Call it (i.e. now). Done.",
        "A number follows. 30 s is the budget.", "Quote next. \"Quoted\" text.", "Backtick next. `code` here.",
        "Lower next. then more.", "Para one\n\nPara two. More.", "Line\nbreak. After.", "Why? Because. Yes!",
        "Trailing space.  ", "  Leading. X", "Mark at end!", "vs. other. Then", "approx. 5 s. Then", "A.B. C.",
        "Star next. *Emphasis*. Done.", "Paren next. (aside) done.", "Tab after.\tNot a break. Real. End",
    ]

    /// The byte path is taken for ASCII text; it must agree with the Character path there.
    @Test(arguments: sentences)
    func firstSentenceByBytesMatchesCharacters(_ text: String) {
        #expect(PlainText.firstSentenceASCII(text) == PlainText.firstSentenceByCharacter(text))
    }

    @Test func firstSentenceByBytesMatchesCharactersOnEveryRule() throws {
        let corpus = try ContentCorpusTests.result.get().corpus
        for rule in corpus.rules {
            for text in [rule.details, rule.statement, rule.why ?? "", rule.instead ?? ""] {
                guard let fast = PlainText.firstSentenceASCII(text) else { continue }
                #expect(fast == PlainText.firstSentenceByCharacter(text), "\(rule.id)")
            }
        }
    }

    @Test(arguments: ["é. Then", "Curly “quote”. Next", "cr\r\nline. X"])
    func firstSentenceLeavesOtherTextToCharacters(_ text: String) {
        #expect(PlainText.firstSentenceASCII(text) == nil)
    }

    static let infoStrings = [
        "", "scenario", "scenario follows", "scenario follows \"job0 ends its task once\"", "scenario  breaks   \"two  spaces\"",
        "scenario follows \"\"", "scenario \"unclosed quote", "a\"b\"c", "\"\" \"\"", " lead and trail ", "quote\" mid word",
        "scenario follows “curly quotes”", "cafe\u{301} \"x\"", "tab\there \"q\"",
    ]

    /// The byte path of fence info words must split as the Character path does; text beyond
    /// ASCII takes the Character path.
    @Test(arguments: infoStrings + ["   ", "rule", "  conflict  x", "x\r\n y", " \u{301}a b", "é b"])
    func firstInfoWordMatchesCharacterSplit(_ info: String) {
        #expect(BlockWalker.firstInfoWord(info) == info.split(separator: " ").first.map(String.init))
    }

    @Test(arguments: infoStrings)
    func infoWordsByBytesMatchCharacters(_ info: String) {
        #expect(BlockWalker.infoWords(info) == BlockWalker.infoWordsByCharacter(info))
        if info.utf8.allSatisfy({ $0 < 0x80 }) {
            #expect(BlockWalker.infoWordsASCII(info) != nil, "\(info.debugDescription) is ASCII but took the Character path")
        } else {
            #expect(BlockWalker.infoWordsASCII(info) == nil)
        }
    }

    static let codeSpans = [
        "", "a", "ab", "abc", "Abc", "abC", "ab(", "a b(", "_x()", ".invalid", ".none", "0x8badf00d", "30s", "endBackgroundTask(_:)",
        "UIApplication.shared", "x y", "[a]", "@MainActor", "ab\r\nC", "\u{00C9}cole()", "ÉCOLE", "UIApplication\u{301}", "a\tB",
    ]

    /// The byte path of `looksLikeAPI` must judge every ASCII code span as the Character path does.
    @Test(arguments: codeSpans)
    func codeSpansByBytesMatchCharacters(_ span: String) {
        #expect(BlockWalker.looksLikeAPI(span) == BlockWalker.looksLikeAPIByCharacter(span), "\(span.debugDescription)")
    }

    static let apiWords = [
        "beginBackgroundTask(withName:expirationHandler:)", "`endBackgroundTask(_:)`,", "(UIApplication.shared)", "UIApplication.",
        "UIApplication's", "BGTaskScheduler", "BGTask.setTaskCompleted(success:);", "NSProcessInfo", "ProcessInfo", "ProcessInfo.processInfo",
        "DispatchQueue.main.async", "Dispatch", "UI", "UIa", "UIab", "UIaB", "NSA1", "\"UIKit\"", "'BGAppRefreshTask'", "f(x):)", "f(x))",
        "(a)", "a)", "1(x)", "x(", "UI-thing", "BG_TASK", "UIApplication.shared.beginBackgroundTask(withName:)...", ")", "(", "\"", "",
    ]

    /// The byte path of `apis(in:)` must judge every ASCII word as the Character path does.
    @Test(arguments: apiWords)
    func apiWordsByBytesMatchCharacters(_ word: String) {
        if let fast = PlainText.apiASCII(word[...]) {
            #expect(fast == PlainText.apiByCharacter(word[...]))
        } else {
            Issue.record("\(word.debugDescription) is ASCII but took the Character path")
        }
    }

    @Test func apiWordsByBytesMatchCharactersOnEveryRule() throws {
        let corpus = try ContentCorpusTests.result.get().corpus
        for rule in corpus.rules {
            for word in (rule.statement + " " + rule.details).split(whereSeparator: { $0 == " " || $0 == "\n" }) {
                guard let fast = PlainText.apiASCII(word) else { continue }
                #expect(fast == PlainText.apiByCharacter(word), "\(rule.id): \(word)")
            }
        }
    }

    @Test func apiWordsBeyondASCIIUseCharacters() {
        #expect(PlainText.apiASCII("“UIApplication”"[...]) == nil)
    }

    static let markdownSamples = [
        "", "plain", "**bold** and *em* and `code`", "line one\nline two  \nhard break", "# Heading\n\nPara",
        "- item one\n- item two\n\n  second paragraph of two", "> quote\n> more\n\nafter", "```swift\nlet x = 1\n```\n",
        "<div>html block</div>\n\ntext <span>inline</span> html", "[link](https://x.y \"title\") ![img](a.png)",
        "1. one\n2. two\n   - nested\n", "---\n\n***", "NUL \u{0} here", "ünïcode “quotes” — dash", "    indented code\n",
    ]

    /// Plain text gathered for a run of nodes, and its length in bytes, as the nodes' own texts give.
    @Test(arguments: markdownSamples + ["*a* `b`\n\n- c\n- d\n\n> e\n> f", "x  \ny", "é\u{301} **ß**"])
    func plainTextOfRunsMatchesTheNodes(_ markdown: String) {
        func check(_ node: MarkdownNode) {
            #expect(node.plainTextByteCount == node.plainText.utf8.count, "\(node.kind)")
            #expect(MarkdownNode.plainText(of: node.children[...]) == node.children.map(\.plainText).joined())
            #expect(MarkdownNode.plainText(of: node.children.dropFirst()) == node.children.dropFirst().map(\.plainText).joined())
            node.children.forEach(check)
        }
        check(CommonMarkConverter.parse(markdown))
    }

    /// `BlockWalker.inlines(_:after:in:)` as it was written, by Characters: the reference for its byte path.
    static func inlinesByCharacter(_ inlines: [MarkdownNode], after statement: String, in plain: String) -> [MarkdownNode] {
        let leading = plain.prefix { $0 == " " || $0 == "\n" }.count
        var remaining = leading + statement.count
        var result: [MarkdownNode] = []
        for node in inlines {
            if remaining <= 0 { result.append(node); continue }
            let length = node.plainText.count
            if length <= remaining { remaining -= length; continue }
            if case .text = node.kind {
                var rest = node
                rest.literal = String(node.literal.dropFirst(remaining))
                result.append(rest)
            } else {
                result.append(node)
            }
            remaining = 0
        }
        return result
    }

    /// The inlines after a paragraph's first sentence, for every cut of every sample paragraph.
    @Test(arguments: markdownSamples + ["First sentence. Then *more* text `code` here.", "  Lead with **bold** end. Rest\nof it.",
                                        "Café. Naïve *é*\u{301} tail.", "One.\r\nTwo. Three."])
    func inlinesAfterAStatementMatchTheCharacterCut(_ markdown: String) {
        for block in CommonMarkConverter.parse(markdown).children where !block.children.isEmpty {
            let plain = MarkdownNode.plainText(of: block.children[...])
            for cut in 0...min(plain.count, 40) {
                let statement = String(plain.drop { $0 == " " || $0 == "\n" }.prefix(cut))
                #expect(BlockWalker.inlines(block.children, after: statement, in: plain)
                        == Self.inlinesByCharacter(block.children, after: statement, in: plain), "\(markdown.debugDescription) cut \(cut)")
            }
        }
    }

    /// Code spans are gathered by a walk of their own; it must find what visiting every node does.
    @Test(arguments: markdownSamples + ["`a` and `b` in *`c`* [`d`](x)\n\n- `e`\n  - `f`", "no code", "```\nblock\n```\n`span`"])
    func codeSpanLiteralsMatchAVisitOfEveryNode(_ markdown: String) {
        let tree = CommonMarkConverter.parse(markdown)
        var visited: [String] = []
        tree.forEach { if case .code = $0.kind { visited.append($0.literal) } }
        var gathered: [String] = []
        tree.appendCodeSpanLiterals(to: &gathered)
        #expect(gathered == visited)
    }

    /// A number's `measures` is checked for an opening question word by bytes when ASCII.
    @Test(arguments: texts + ["What is it", "how long", "WHY\tnot", "Whether or not", "whatever", "who", "", " what", "wh\u{301}at",
                              "what\u{301} x", "When\r\nnext", "Which\u{00A0}one", "whether-or-not", "Who’s", "how\nlong", "ẞwhat"])
    func questionWordsMatchCharacterTest(_ measures: String) {
        #expect(RuleAnnotation.isQuestionWord(firstWordOf: measures) == RuleAnnotation.isQuestionWordByCharacter(firstWordOf: measures))
    }

    /// The search index's plain text comes straight from cmark's tree; it must be the plain text
    /// of the Swift tree.
    @Test(arguments: markdownSamples)
    func directPlainTextMatchesTheTree(_ markdown: String) {
        #expect(CommonMarkConverter.plainText(markdown) == CommonMarkConverter.parse(markdown).plainText)
    }

    static let smartPunctuationSamples = markdownSamples + [
        "\"quoted\" and 'single' and don't", "a -- b --- c ---- d ----- e ------ f", "wait... and .... and ..",
        "*\"em quote\"* and **'x'** and `\"code -- ...\"`", "```\n\"block\" -- ...\n```", "[\"link\" -- x](a--b \"t...\") <http://a--b...>",
        "&ldquo;entity&rdquo; &#8220;n&#8221; &amp;", "already “curly” and — dash", "\\\"escaped\\\" \\'quote\\' \\-\\- \\.\\.\\.",
        "\"unclosed and 'open", "it's 'nested \"quotes\" here'", "x\"y\"z 5'6\" -- `a'b`", "- \"item\" --\n- 'two'...\n\n> \"quote\" ---",
    ] + randomMixes(of: ["\"", "'", "-", "--", "---", ".", "...", "*", "_", "`", "a", " ", "\n", "\n\n", "- ", "1. ", "[x](y--z)", "<i>",
                         "&amp;", "&rsquo;", "“", "\\\"", "**", "# ", "    ", "> ", "’", "x'y", "<http://a--b>", "\\", "é"],
                    seed: 11, lengths: 1...40)

    /// The rule pages take the search index's plain text from the parse that renders their HTML
    /// (smart punctuation turned back); both must be what the two separate parses give.
    @Test(arguments: smartPunctuationSamples)
    func pageParseGivesTheHTMLAndThePlainText(_ markdown: String) {
        let (html, plain) = CommonMarkConverter.withRenderedSmartHTMLAndPlainText(markdown) { (Array($0), $1) }
        #expect(html == CommonMarkConverter.withRenderedHTML(markdown, smartPunctuation: true) { Array($0) })
        #expect(plain == CommonMarkConverter.plainText(markdown), "\(markdown.debugDescription)")
    }

    @Test func pageParseGivesThePlainTextOnEveryRule() throws {
        let corpus = try ContentCorpusTests.result.get().corpus
        var undone = 0
        for rule in corpus.rules {
            for text in [rule.details, rule.why ?? "", rule.instead ?? ""] {
                let plain = CommonMarkConverter.withRenderedSmartHTMLAndPlainText(text) { $1 }
                #expect(plain == CommonMarkConverter.plainText(text), "\(rule.id)")
                if CommonMarkConverter.canUndoSmartPunctuation(text) { undone += 1 }
            }
        }
        #expect(undone > corpus.rules.count, "most of Content's prose takes the one-parse path")
    }

    @Test func directPlainTextMatchesTheTreeOnEveryRule() throws {
        let corpus = try ContentCorpusTests.result.get().corpus
        for rule in corpus.rules {
            for text in [rule.details, rule.statement, rule.why ?? "", rule.instead ?? "", rule.wording] {
                #expect(CommonMarkConverter.plainText(text) == CommonMarkConverter.parse(text).plainText, "\(rule.id)")
            }
        }
    }
}

/// The byte scan for API words must find exactly the words the general split keeps, in order,
/// or leave the text to it (a carriage return, a space that joins a neighbour).
@Suite struct APICandidateTests {
    static let texts: [String] = FastPathTests.texts + FastPathTests.apiWords + [
        "UIApplication.shared.beginBackgroundTask(withName:) then endBackgroundTask(_:)\tand\nBGTaskScheduler",
        "Use DispatchQueue.main and ProcessInfo.processInfo, not NSProcessInfo; P Q U B N D ( ) UI BG NS",
        "  leading (paren\n\ntrailing UI  ", "no candidates at all here", "(", "U", "a(b c)d UIx",
        "Apple’s “UIApplication.shared” and ‘BGTask(x)’ — é UIé", "UI\u{301} BG \u{301}NS (\u{301}x)",
        "BGTask(x)\u{0600} UIKit.y prepend", "UIKit(a) \u{301}BGTask(b) mark",
        String(repeating: "word BGTask(x) ", count: 50),
    ]

    @Test(arguments: texts)
    func byteScanKeepsTheWordsTheSplitKeeps(_ text: String) {
        guard let fast = PlainText.apiCandidatesByBytes(text) else {
            // Left to the general path only for what `wordSlices` leaves to Characters.
            #expect(text.utf8.contains(0x0D) || text.unicodeScalars.contains { $0.value >= 0x80 }, "\(text.debugDescription)")
            return
        }
        #expect(fast == PlainText.apiCandidates(text), "\(text.debugDescription)")
    }

    /// Random mixes of the bytes the ASCII scan jumps to, separators and word bytes, at every
    /// offset from its eight-byte words.
    @Test(arguments: 0..<8)
    func byteScanKeepsTheWordsTheSplitKeepsOnRandomMixes(seed: Int) {
        let alphabet = ["U", "I", "B", "G", "N", "S", "D", "ispatch", "P", "rocessInfo", "(", ")", " ", "\n", "\t", "a", ".", "x1",
                        "UI", "BG", "NS", "Dispatch", "ProcessInfo", "  "]
        for text in randomMixes(of: alphabet, seed: seed, lengths: 0...30) {
            #expect(PlainText.apiCandidatesByBytes(text) == PlainText.apiCandidates(text), "\(text.debugDescription)")
        }
    }

    @Test func byteScanKeepsTheWordsTheSplitKeepsOnEveryRule() throws {
        let corpus = try ContentCorpusTests.result.get().corpus
        var scanned = 0
        for rule in corpus.rules {
            let text = rule.statement + " " + rule.details
            guard let fast = PlainText.apiCandidatesByBytes(text) else { continue }
            scanned += 1
            #expect(fast == PlainText.apiCandidates(text), "\(rule.id)")
        }
        #expect(scanned > corpus.rules.count / 2)
    }
}

/// The word-at-a-time ASCII test must agree with a byte loop wherever the odd byte sits.
@Suite struct ASCIIScanTests {
    @Test(arguments: [0x0D, 0x80, 0xE2, 0xFF, 0x0C, 0x0E, 0x7F] as [UInt8])
    func agreesWithAByteLoopAtEveryOffset(_ odd: UInt8) {
        for length in 0...19 {
            for position in -1..<length {
                var bytes = (0..<length).map { UInt8(ascii: "a") + UInt8($0 % 26) }
                if position >= 0 { bytes[position] = odd }
                let expected = bytes.allSatisfy { $0 < 0x80 && $0 != 0x0D }
                bytes.withUnsafeBufferPointer { #expect($0.isASCIIWithoutCarriageReturn == expected, "\(length) \(position)") }
            }
        }
    }
}
