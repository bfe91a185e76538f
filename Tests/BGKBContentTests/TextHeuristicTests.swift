@testable import BGKBContent
@testable import BGKBMarkdown
import BGKBModel
import Foundation
import Testing

/// The pipeline's text heuristics, each held to a plain statement of what it does, including
/// where one character spans several scalars.
@Suite struct TextHeuristicTests {
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

    /// The Markdown writer escapes what would start markup and nothing more: `_` only at a word's
    /// edge, `#` and `>` only at a line's start.
    @Test(arguments: [("plain text", "plain text"), ("a_b _c d_ snake_case_9", "a_b \\_c d\\_ snake_case_9"), ("*x* [y] <z> `q` \\", "\\*x\\* \\[y\\] \\<z> \\`q\\` \\\\"),
                      ("# h\n> q\na # b > c", "\\# h\n\\> q\na # b > c"), ("é_x 1_é", "é_x 1_é"), ("a_\u{301}", "a\\_\u{301}")])
    func markdownEscape(_ text: String, _ escaped: String) {
        #expect(MarkdownWriter.escape(text) == escaped)
    }

    @Test(arguments: [("`", true), ("a`b", true), ("`\u{301}", true), ("none", false), ("", false)])
    func backticksInCodeSpans(_ text: String, _ expected: Bool) {
        #expect(MarkdownWriter.containsBacktick(text) == expected)
    }

    /// `uniqued` keeps the first of each run of equal elements, in order, canonically equal
    /// spellings (one kept) included.
    @Test(arguments: [[], ["a"], ["a", "a"], ["b", "a", "b", "c", "a"], ["caf\u{E9}", "cafe\u{301}", "cafe"], ["\r\n", "\r", "\n", "\r\n"],
                      (0..<40).map { "api\($0 % 13)" }, (0..<17).map { "n\($0)" } + ["n3"], texts + texts.reversed()])
    func uniquedKeepsWhatASetKeeps(_ list: [String]) {
        #expect(list.uniqued.map { Array($0.utf8) } == list.reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }.map { Array($0.utf8) })
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
    }

    /// A name is dropped when another ends with a dot and then it.
    @Test(arguments: [[], ["endBackgroundTask(_:)", "UIApplication.endBackgroundTask(_:)"], ["a", ".a", "b.a", "a.b", "b"],
                      ["shared", "UIApplication.shared", "shared.x"], ["", "x.", "y"], ["x", "ax", "a.x.y", "x.y", "y"],
                      ["caf\u{E9}", "a.cafe\u{301}"], ["\u{301}b", "a.\u{301}b"], ["b", "\u{600}.b"], ["\r\n", "a.\r\n"]])
    func bareDuplicatesAreDropped(_ names: [String]) {
        let unique = names.uniqued
        let byCharacter = unique.indices.filter { index in !unique.contains { $0 != unique[index] && $0.hasSuffix("." + unique[index]) } }
            .map { unique[$0] }
        #expect(BlockWalker.withoutBareDuplicates(names) == byCharacter)
    }

    /// Framework names are dropped from a rule's APIs, exactly these and nothing near them.
    @Test(arguments: [("UIKit", true), ("BackgroundTasks", true), ("Foundation", true), ("SwiftUI", true), ("WatchKit", true),
                      ("UserNotifications", true), ("Dispatch", true), ("uikit", false), ("UIKit ", false), ("DispatchQueue", false),
                      ("UIKit.UIApplication", false), ("", false), ("Foundatio", false)])
    func frameworkNamesAreExactlyTheFrameworks(_ name: String, _ isFramework: Bool) {
        #expect(BlockWalker.isFrameworkName(name) == isFramework)
        #expect(BlockWalker.withoutBareDuplicates([name, "UIApplication.shared"]).contains(name) == !isFramework)
    }

    /// A revision entry is a correction when it holds one of the correction words.
    @Test(arguments: texts + ["Corrected the budget.", "Fixed an ERROR in the listing", "fixed a typo", "fixed all",
                              "wrong", "wron", "Mistake", "incorrectly dated", "erro", "", "Wrong\u{301} accent", "caf\u{E9} error"])
    func correctionWordsMatchFoundation(_ text: String) {
        let lower = text.lowercased()
        let bytes = Array(lower.utf8)
        let expected = ["correct", "error", "mistake", "wrong", "fixed a"].contains { word in
            let needle = Array(word.utf8)
            return needle.count <= bytes.count && (0...(bytes.count - needle.count)).contains { Array(bytes[$0..<($0 + needle.count)]) == needle }
        }
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

    /// A sign-off is a line that, lower-cased, opens with one of the openings.
    @Test(arguments: texts + ["Thanks", "THANKS!", "thanks\u{301} a lot", "Thank you", "Thank\u{301} you", "Best regards, Quinn",
                              "best Regards", "Kind regards\r\n", "Cheers", "Cheerio", "Share and Enjoy", "share and enjoy\u{301}",
                              "Share and enjoyment", "Regards", "  Thanks", "Thanks\r", "ＴＨＡＮＫＳ", "Thanks é", "Thank", "",
                              "kind\u{0301} regards", "Best wishes\u{0301}", "REGARDS\u{0130}"])
    func signOffsMatchCharacterTest(_ line: String) {
        #expect(BlockWalker.isSignOff(firstLine: line) == DocumentParser.signOffOpenings.contains { line.lowercased().hasPrefix($0) })
    }

    @Test(arguments: texts)
    func wordsAreSplitAtSpaceScalars(_ text: String) {
        let expected = text.unicodeScalars.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }).map { String(String.UnicodeScalarView($0)) }
        #expect(PlainText.words(text) == expected)
    }

    @Test(arguments: texts + ["Revision History  \n  ", "  **Revision** History:\n2023-06-16 Entry.", "Share and *Enjoy*  \nQuinn", "# Heading  ",
                              "ab\r\ncd\nef", "é\n\u{301}x after a combining mark", "one `code\nspan` two\nthree", "[a link\nacross](#x) lines\nmore",
                              "hard  \nbreak\nthird", "only one line, long: " + String(repeating: "word ", count: 200), "x\n\u{301}\ny", "> quoted\n> lines\n\nafter",
                              "- item one\n- item two\n  continued", "```swift\nlet a = 1\nlet b = 2\n```", "```\n\n  \nlate first line\nx\u{301} next\n```",
                              "    indented code\n    second line", "```\nonly line\n```", "```\nfirst\n\u{301}é\n```", "```\nspaces after  \nsecond\n```"])
    func firstLineMatchesSplit(_ text: String) {
        for block in CommonMarkConverter.parse(text).children {
            let lines = block.plainText.trimmed.unicodeScalars.split(separator: "\n")
            #expect(BlockWalker.firstLine(of: block) == (lines.first.map { String(String.UnicodeScalarView($0)) } ?? ""))
        }
    }

    @Test(arguments: texts + ["  expect suspended", "x\n\texpect\u{301} combined", "“quoted”\n expect running", "cr\r\n expect x",
                              "expec", "x\nexpect", "\n\n   \t", "exp\nect", "a\n  \n\texpec\nt expect"])
    func expectationLinesMatchCharacterSplit(_ text: String) {
        let expected = text.unicodeScalars.split(separator: "\n").contains { line in
            String(String.UnicodeScalarView(line.drop { $0 == " " || $0 == "\t" })).unicodeScalars.starts(with: "expect".unicodeScalars)
        }
        #expect(BlockWalker.hasExpectationLine(text) == expected)
        #expect(text.replacingNewlines == String(String.UnicodeScalarView(text.unicodeScalars.map { $0 == "\n" ? " " : $0 })))
    }

    @Test(arguments: texts + ["cafe\u{301} and café", "kelvin \u{212A} sign", "greek\u{037E} question", "expiry handler’s thread"])
    func keywordSearchComparesUTF8(_ text: String) {
        let bytes = Array(text.utf8)
        for keyword in ["e", "cafe", "caf", "handler", "expiry handler", "k", ";", "x", "", "’s", "0x8badf00d", "words, with"] {
            let needle = Array(keyword.utf8)
            let expected = !needle.isEmpty && needle.count <= bytes.count
                && (0...(bytes.count - needle.count)).contains { Array(bytes[$0..<($0 + needle.count)]) == needle }
            #expect(PlainText.contains(text, keyword) == expected, "keyword \(keyword)")
        }
    }

    /// The two named sets callers trim: `whitespace` is exactly the scalars Unicode calls white
    /// space, and `spacesAndTabs` is those without the line breaks, with U+200B (as Foundation's
    /// `.whitespaces` on Linux).
    @Test(arguments: [(String.whitespace, false), (String.spacesAndTabs, true)])
    func namedTrimSetsHoldTheirScalars(set: String, withoutLineBreaks: Bool) {
        let lineBreaks: Set<UInt32> = [0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029]
        var expected: [Unicode.Scalar] = []
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let white = scalar.properties.isWhitespace && !(withoutLineBreaks && lineBreaks.contains(value))
            if white || (withoutLineBreaks && value == 0x200B) { expected.append(scalar) }
        }
        #expect(Array(set.unicodeScalars) == expected)
        #expect(" \u{3000}a\u{301} \u{A0}".trimmingCharacters(in: set) == "a\u{301}")
        #expect("\r\nb\u{2029}".trimmingCharacters(in: set) == (withoutLineBreaks ? "\r\nb\u{2029}" : "b"))
    }

    @Test(arguments: texts + ["Why it matters:", " :. Instead. ", ".:", "", "a", ": x :\u{301}", "\r\n: x :\r\n", "\t(quoted)\t", "“curly”",
                              ":é:", "\u{301}:x:", "x\n\n", "   "])
    func trimmingDropsTheSetsScalarsAtBothEnds(_ text: String) {
        for set in [" \n\t", ".,;:()“”\"’'`", ":. ", ":"] {
            var slice = Substring(text).unicodeScalars
            while let first = slice.first, set.unicodeScalars.contains(first) { slice = slice.dropFirst() }
            while let last = slice.last, set.unicodeScalars.contains(last) { slice = slice.dropLast() }
            #expect(text.trimmingCharacters(in: set) == String(slice), "set \(set.debugDescription)")
        }
    }

    @Test(arguments: [
        ("", ""), ("No stop", "No stop"), ("One. Two.", "One."), ("Ends here.", "Ends here."),
        ("e.g. this goes on. Then a new one.", "e.g. this goes on."), ("Call it (i.e. now). Done.", "Call it (i.e. now)."),
        ("A number follows. 30 s is the budget.", "A number follows."), ("Quote next. \"Quoted\" text.", "Quote next."),
        ("Backtick next. `code` here.", "Backtick next."), ("Lower next. then more.", "Lower next. then more."),
        ("Para one\n\nPara two. More.", "Para one"), ("Line\nbreak. After.", "Line\nbreak."), ("Why? Because. Yes!", "Why?"),
        ("Trailing space.  ", "Trailing space."), ("  Leading. X", "Leading."), ("Mark at end!", "Mark at end!"),
        ("approx. 5 s. Then", "approx. 5 s."), ("A.B. C.", "A.B."), ("Star next. *Emphasis*. Done.", "Star next."),
        ("Paren next. (aside) done.", "Paren next."), ("Tab after.\tNot a break. Real. End", "Tab after.\tNot a break."),
        ("é. Then", "é."), ("Curly “quote”. Next", "Curly “quote”."), ("Accented next. Ünïcode", "Accented next."),
        ("Lower accent. été", "Lower accent. été"), ("Mark after the stop.\u{301} Next", "Mark after the stop.\u{301} Next"),
    ])
    func firstSentence(_ text: String, _ expected: String) {
        #expect(Sentence.first(in: text) == expected)
    }

    static let infoStrings = [
        "", "scenario", "scenario follows", "scenario follows \"job0 ends its task once\"", "scenario  breaks   \"two  spaces\"",
        "scenario follows \"\"", "scenario \"unclosed quote", "a\"b\"c", "\"\" \"\"", " lead and trail ", "quote\" mid word",
        "scenario follows “curly quotes”", "cafe\u{301} \"x\"", "tab\there \"q\"",
    ]

    /// The first word of a fence's info string: up to the first space scalar.
    @Test(arguments: infoStrings + ["   ", "rule", "  conflict  x", "x\r\n y", " \u{301}a b", "é b"])
    func firstInfoWordMatchesCharacterSplit(_ info: String) {
        let words = info.unicodeScalars.split(separator: " ")
        #expect(BlockWalker.firstInfoWord(info) == words.first.map { String(String.UnicodeScalarView($0)) })
    }

    @Test(arguments: [("scenario follows \"job0 ends its task once\"", ["scenario", "follows", "job0 ends its task once"]),
                      ("scenario  breaks   \"two  spaces\"", ["scenario", "breaks", "two  spaces"]), ("scenario follows \"\"", ["scenario", "follows", ""]),
                      ("scenario \"unclosed quote", ["scenario", "unclosed quote"]), ("a\"b\"c", ["a", "b", "c"]), ("", []),
                      ("scenario follows “curly quotes”", ["scenario", "follows", "curly quotes"])])
    func infoWordsKeepQuotedNamesWhole(_ info: String, _ words: [String]) {
        #expect(BlockWalker.infoWords(info) == words)
    }

    static let codeSpans = [
        "", "a", "ab", "abc", "Abc", "abC", "ab(", "a b(", "_x()", ".invalid", ".none", "0x8badf00d", "30s", "endBackgroundTask(_:)",
        "UIApplication.shared", "x y", "[a]", "@MainActor", "ab\r\nC", "\u{00C9}cole()", "ÉCOLE", "UIApplication\u{301}", "a\tB",
    ]

    /// A code span names an API when it has no space, starts with a letter, `_` or `.`, is longer
    /// than two characters and holds a capital or `(`.
    @Test(arguments: codeSpans)
    func codeSpansThatLookLikeAPIs(_ span: String) {
        let expected = ["abC", "ab(", "_x()", "endBackgroundTask(_:)", "UIApplication.shared", "ÉCOLE", "\u{00C9}cole()",
                        "UIApplication\u{301}", "a\tB", "ab\r\nC", "Abc"].contains(span)
        #expect(BlockWalker.looksLikeAPI(span) == expected, "\(span.debugDescription)")
    }

    @Test(arguments: [
        ("Call beginBackgroundTask(withName:expirationHandler:) then `endBackgroundTask(_:)`, on (UIApplication.shared).",
         ["beginBackgroundTask(withName:expirationHandler:)", "UIApplication.shared"]),
        ("BGTaskScheduler and BGTask.setTaskCompleted(success:); ProcessInfo, NSProcessInfo and DispatchQueue.main.async",
         ["BGTaskScheduler", "BGTask.setTaskCompleted(success:)", "NSProcessInfo", "DispatchQueue.main.async"]),
        ("UI UIa UIab \"UIKit\" 'BGAppRefreshTask' f(x):) 1(x) UI-thing BG_TASK Dispatch", ["UIKit", "BGAppRefreshTask", "f(x):)"]),
        ("Apple’s “UIApplication.shared” and ‘BGTask(x)’ twice: BGTaskScheduler BGTaskScheduler", ["UIApplication.shared", "BGTaskScheduler"]),
        ("no candidates at all here", []),
    ])
    func apisInText(_ text: String, _ apis: [String]) {
        #expect(PlainText.apis(in: text) == apis)
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

    /// `BlockWalker.inlines(_:after:in:)` by Characters: where no Character spans two nodes, the
    /// byte cut must give the same nodes.
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
                                        "Café. Naïve *é* tail.", "One.\r\nTwo. Three."])
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

    @Test(arguments: [("What is it", true), ("how long", true), ("WHY\tnot", true), ("Whether or not", true), ("whatever", false),
                      ("who", true), ("", false), (" what", false), ("wh\u{301}at", false), ("When\r\nnext", true), ("Which\u{00A0}one", true),
                      ("whether-or-not", false), ("Who’s", false), ("how\nlong", true)])
    func questionWordsOpenAMeasure(_ measures: String, _ expected: Bool) {
        #expect(RuleAnnotation.isQuestionWord(firstWordOf: measures) == expected)
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
