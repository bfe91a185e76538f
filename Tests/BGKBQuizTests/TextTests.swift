@testable import BGKBQuiz
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
