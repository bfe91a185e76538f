@testable import BGKBQuestions
import BGKBModel
import Testing

@Suite struct TextTests {
    @Test(arguments: [
        ("**Bold** and `code`", "Bold and code"),
        ("line one\n  line two", "line one line two"),
        ("a * b and snake_case", "a * b and snake_case"),
        ("__under__ x", "under x"),
        ("trailing *", "trailing *"),
        ("", ""),
    ])
    func plainTextDropsMarksAndJoinsLines(input: String, expected: String) {
        #expect(plain(input) == expected)
    }

    @Test(arguments: [
        (1.0, "1 s"), (1.25, "1.3 s"), (45.0, "45 s"), (119.0, "119 s"),
        (150.0, "2 min 30 s"), (3600.0, "1 h 0 min 0 s"), (10850.0, "3 h 0 min 50 s"),
    ])
    func secondsReadAsPeopleSayThem(seconds: Double, expected: String) {
        #expect(formatSeconds(seconds) == expected)
    }

    /// One week is a week: the quiz offered "at least 1 weeks" (the site already said "1 week").
    @Test(arguments: [
        (StatedNumber(value: 1, unit: .weeks, firmness: .atLeast, measures: "m"), "at least 1 week, not guaranteed", "at least 1 week, not guaranteed"),
        (StatedNumber(value: 2, unit: .weeks, firmness: .exact, measures: "m"), "exactly 2 weeks, not guaranteed", "2 weeks, not guaranteed"),
        (StatedNumber(value: 1, unit: .seconds, firmness: .about, measures: "m"), "about 1 s, not guaranteed", "about 1 s, not guaranteed"),
        (StatedNumber(value: 5, unit: .count, firmness: .atMost, measures: "m"), "at most 5, not guaranteed", "at most 5, not guaranteed"),
    ])
    func numbersNameTheirUnitInTheRightNumber(number: StatedNumber, choice: String, description: String) {
        #expect(numberText(number) == choice)
        #expect(number.description == description)
    }

    @Test func caseInsensitiveSearchFindsTheOriginalRange() throws {
        let text = "Crashes with 0x8BADF00D often."
        let range = try #require(caseInsensitiveRange(of: "0x8badf00d", in: text))
        #expect(text[range] == "0x8BADF00D")
        #expect(blank(["0x8badf00d"], in: text) == "Crashes with ____ often.")
    }
}

@Suite struct APINameTests {
    @Test(arguments: [
        ("UIApplication.beginBackgroundTask(withName:expirationHandler:)", "beginBackgroundTask"),
        ("UIBackgroundTaskIdentifier.invalid", "UIBackgroundTaskIdentifier.invalid"),
        ("BGTaskScheduler", "BGTaskScheduler"),
        ("endBackgroundTask(_:)", "endBackgroundTask"),
        ("BGTask.setTaskCompleted(success:)", "setTaskCompleted"),
        ("a.", "a."),
    ])
    func shortNames(api: String, expected: String) {
        #expect(apiShortName(api) == expected)
    }
}

@Suite struct OutcomeTextTests {
    @Test(arguments: [
        ("task 1 \"Save\" was still outstanding", "a task was still outstanding"),
        ("the expiration handler of task 12 \"Upload\" ran longer than 1s", "the expiration handler of a task ran longer than 1s"),
        ("more than 1000 background task assertions outstanding", "more than 1000 background task assertions outstanding"),
        ("expiration handlers did not finish within 5s", "expiration handlers did not finish within 5s"),
    ])
    func reasonsLoseTaskNamesAndNumbers(reason: String, expected: String) {
        #expect(SimulationOutcome.terminated(code: "0x8badf00d", reason: reason, at: 0).choiceText
            == "Terminated with 0x8badf00d (\(expected))")
    }
}

@Suite struct ChoiceNormalisationTests {
    @Test(arguments: [
        ("About  30 s", "about 30 s"),
        ("  Ünïcode\tÉTÉ \n", "ünïcode été"),
        ("", ""),
        ("0xBADA5E47", "0xbada5e47"),
    ])
    func choicesCompareWithoutCaseOrSpacing(text: String, expected: String) {
        #expect(normalizedChoice(text) == expected)
    }
}

/// The question text helpers.
@Suite struct QuestionTextTests {
    static let pieces = ["a", "B", "z", "0", " ", "  ", "\t", "\n", "\n\n", "*", "**", "_", "__", "`", ".", ". ", "(", ")", ":",
                         "expect", "expect ", " expect", "\texpect suspended", "Upload", "UIApplication.", "e", "\r", "\r\n",
                         "é", "\u{301}", "👍", "ﬁ"]

    /// `count` texts of up to `length` pieces; every third is ASCII only.
    static func texts(seed: UInt64, count: Int = 400, length: Int = 40) -> [String] {
        var generator = SeededGenerator(seed: seed)
        let ascii = pieces.filter { $0.utf8.allSatisfy { $0 < 0x80 && $0 != 0x0D } }
        return (0..<count).map { index in
            let from = index % 3 == 0 ? ascii : pieces
            return (0..<Int(generator.next() % UInt64(length + 1))).map { _ in from[Int(generator.next() % UInt64(from.count))] }.joined()
        }
    }

    @Test(arguments: [("**bold** and `code`\n next", "bold and code next"), ("__under__ *one* _x_", "under *one* _x_"), ("", "")])
    func plainTextDropsMarksAndJoinsLines(_ markdown: String, _ expected: String) {
        #expect(plain(markdown) == expected)
    }

    /// The pipeline's heuristic (`Sentence.first(in:)`) on the Markdown made plain: a dot inside
    /// a word or after an abbreviation, or before a lowercase word, does not end the sentence.
    @Test(arguments: [("Do this. Then that.", "Do this."), ("**Why:** it matters. More", "Why: it matters."), ("No stop", "No stop"),
                      ("x. " + String(repeating: "A", count: 600), "x."), ("Call `UIApplication.shared.end` e.g. here. Next", "Call UIApplication.shared.end e.g. here."),
                      ("It ends. then goes on. Here", "It ends. then goes on.")])
    func firstSentenceOfMarkdownIsPlainText(_ text: String, _ expected: String) {
        #expect(firstSentence(text) == expected)
    }

    @Test(arguments: [("  \nexpect x\nstep a\n\n", "step a"), ("a\n\texpect y\nb", "a\nb"), ("", "")])
    func listingsDropExpectationsAndOuterBlankLines(_ text: String, _ expected: String) {
        #expect(shownListing(text) == expected)
    }

    @Test(arguments: [("UIApplication.beginBackgroundTask(withName:expirationHandler:)", "beginBackgroundTask"),
                      ("UIBackgroundTaskIdentifier.invalid", "UIBackgroundTaskIdentifier.invalid"), ("BGTaskScheduler", "BGTaskScheduler"),
                      ("BGTask.setTaskCompleted(success:)", "setTaskCompleted")])
    func shortAPINames(_ api: String, _ expected: String) {
        #expect(apiShortName(api) == expected)
    }

    /// Offered one at a time, candidates are picked as `pickDistractors` picks from the list.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func offeringOneByOnePicksAsPickingFromTheList(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        let words = ["About 30 s", "about  30 s", "", " ", "Suspended", "suspended", "Crashes", "0xBAD", "0xbad", "x"]
        for _ in 0..<300 {
            let answer = words[Int(generator.next() % UInt64(words.count))]
            let candidates = (0..<Int(generator.next() % 9)).map { _ in words[Int(generator.next() % UInt64(words.count))] }
            var picker = DistractorPicker(answer: answer)
            var incremental: [String] = []
            for candidate in candidates {
                picker.offer(candidate)
                // What the outcome questions did before: pick again from those kept plus the new one.
                incremental = pickDistractorsByList(answer: answer, candidates: incremental + [candidate])
                #expect(picker.picked == incremental)
            }
            #expect(pickDistractors(answer: answer, candidates: candidates) == pickDistractorsByList(answer: answer, candidates: candidates))
        }
    }

    /// `pickDistractors` as it was written before the picker.
    func pickDistractorsByList(answer: String, candidates: [String], limit: Int = 3) -> [String] {
        var seen: Set<String> = [normalizedChoice(answer)]
        var picked: [String] = []
        for candidate in candidates where picked.count < limit {
            let key = normalizedChoice(candidate)
            guard !key.isEmpty, seen.insert(key).inserted else { continue }
            picked.append(candidate)
        }
        return picked
    }

    /// Normalizing writes into the String's storage: the same as the array-built version it replaced.
    @Test(arguments: [1, 2] as [UInt64])
    func normalizedChoicesAsTheArrayBuiltVersion(seed: UInt64) {
        for text in Self.texts(seed: seed) + ["", " ", "\u{301}", "A\rB"] {
            #expect(normalizedChoice(text) == normalizedChoiceByArray(text), "\(text.debugDescription)")
        }
    }

    func normalizedChoiceByArray(_ text: String) -> String {
        var bytes: [UInt8] = []
        var space = false
        var ascii = true
        for byte in text.utf8 {
            if byte >= 0x80 { ascii = false }
            if byte == 0x20 || byte == 0x0a || byte == 0x09 || byte == 0x0d {
                space = !bytes.isEmpty
                continue
            }
            if space {
                bytes.append(0x20)
                space = false
            }
            bytes.append((0x41...0x5a).contains(byte) ? byte + 0x20 : byte)
        }
        let result = String(decoding: bytes, as: UTF8.self)
        return ascii ? result : result.lowercased()
    }

    /// FNV-1a over the bytes in place gives the values the byte iterator gave: question ids and
    /// versions in learners' progress files must not change.
    @Test(arguments: [1, 2] as [UInt64])
    func stableHashesAsByTheIterator(seed: UInt64) {
        func byIterator(_ parts: [String]) -> UInt64 {
            var state: UInt64 = 0xcbf2_9ce4_8422_2325
            for part in parts {
                for byte in Array(part.utf8) + [0x1f] { state = (state ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
            }
            return state
        }
        let texts = Self.texts(seed: seed)
        for index in texts.indices.dropFirst() {
            var hash = StableHash()
            hash.combine(texts[index - 1])
            hash.combine(texts[index])
            #expect(hash.value == byIterator([texts[index - 1], texts[index]]))
        }
        // A bridged or substring-backed text is hashed through the iterator: the same value.
        #expect(StableHash.of("rule", "outcome").hex == "\(String(repeating: "0", count: 16 - String(byIterator(["rule", "outcome"]), radix: 16).count))\(String(byIterator(["rule", "outcome"]), radix: 16))")
    }

    @Test(arguments: [
        ("task 1 \"Upload\" was still outstanding", "a task was still outstanding"),
        ("The task 12 \"Save\" ended twice", "a task ended twice"),
        ("tasks 1 and task 2 leaked", "tasks 1 and a task leaked"),
        ("no task here", "no task here"),
        ("task ١ \"é\"", "a task"),
    ])
    func reasonsLoseTaskNamesAndNumbers(_ reason: String, _ expected: String) {
        #expect(SimulationOutcome.suspended(at: 0).withoutNames(reason) == expected)
    }

    /// Outcomes are worded once whatever their time, with their key made from those words.
    @Test func outcomeChoicesIgnoreTheTime() {
        let texts = OutcomeTexts()
        let outcomes: [SimulationOutcome] = [.suspended(at: 3), .stillRunning(at: 1.5), .crashed(reason: "Fatal  error", at: 9),
                                             .terminated(code: "0x8BADF00D", reason: "task 2 \"Save\" was still outstanding", at: 31)]
        for outcome in outcomes {
            let choice = texts.choice(outcome)
            #expect(choice.text == outcome.choiceText)
            #expect(choice.key == normalizedChoice(outcome.choiceText))
            #expect(texts.choice(outcome.atZero).text == choice.text)
            #expect(outcome.atZero.time == 0)
        }
    }
}
