import BGKBModel
import BGKBQuiz
import Foundation
import Testing

@Suite struct StatsTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)   // 2027-01-15 08:00 UTC
    let bank = QuestionBank(corpus: Fixtures.corpus, outcomes: Fixtures.standInEngine)
    let utc = TimeZone(identifier: "UTC") ?? .current

    @Test func statsShowAccuracyRetentionAndAForecast() throws {
        var progress = QuizProgress()
        let qs = bank.questions
        progress.record(.correct, for: qs[0], at: start)                           // due in 3 days
        progress.record(.wrong, for: qs[1], at: start)                             // due in 10 minutes
        progress.record(.hesitated, for: qs[2], at: start)                         // S = 1.18: due tomorrow
        progress.record(.skipped, for: qs[3], at: start)                           // due now
        progress.sessions.append(SessionRecord(at: start, asked: 4, correct: 2, seed: 3))
        let now = start.addingTimeInterval(3600)
        let text = QuizReport.stats(bank: bank, progress: progress, corpus: Fixtures.corpus, now: now, path: "/p.json", timeZone: utc)
        #expect(text.contains("4 seen"))
        #expect(text.contains("2 due now"))
        #expect(text.contains("Answers: 3, 67% correct"))
        #expect(text.contains("Target retention: 90%"))
        // The retention estimate is FSRS's: the mean chance of recall an hour after three answers.
        let expected = [3.173, 0.40255, 1.18385].map { FSRS.retrievability(days: 1.0 / 24, stability: $0) }.reduce(0, +) / 3
        #expect(text.contains("Estimated retention now: \(Int((expected * 100).rounded()))%"), "\(text)")
        let lines = text.components(separatedBy: "\n")
        let header = try #require(lines.firstIndex { $0.hasPrefix("Due ") })
        #expect(lines[header].contains("today") && lines[header].contains("Sat 16") && lines[header].contains("Thu 21"))
        let counts = lines[header + 1].split(separator: " ").compactMap { Int($0) }
        #expect(counts == [2, 1, 0, 1, 0, 0, 0], "\(lines[header + 1])")
        #expect(text.contains("accuracy  retention"))
        for line in lines { #expect(line.count <= 80, "\(line)") }
    }

    @Test func aTopicRowShowsItsOwnAccuracy() throws {
        var progress = QuizProgress()
        let topic = try #require(Fixtures.corpus.topics.first { topic in bank.questions.contains { $0.topics.contains(topic.id) } })
        let inTopic = bank.questions.filter { $0.topics.contains(topic.id) }
        progress.record(.correct, for: inTopic[0], at: start)
        if inTopic.count > 1 { progress.record(.wrong, for: inTopic[1], at: start) }
        let text = QuizReport.stats(bank: bank, progress: progress, corpus: Fixtures.corpus, now: start, path: "/p", timeZone: utc)
        let row = try #require(text.components(separatedBy: "\n").first { $0.hasPrefix(String(topic.title.prefix(32))) })
        #expect(row.contains(inTopic.count > 1 ? "50%" : "100%"), "\(row)")
    }
}
