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
