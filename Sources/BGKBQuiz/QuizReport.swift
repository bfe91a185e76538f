import BGKBModel
import Foundation

/// The non-interactive outputs: `--stats` and `--list-topics`, as text that fits 80 columns.
public enum QuizReport {
    /// An interval this long (days) counts as learnt.
    public static let masteredInterval = 21.0

    public static func topics(bank: QuestionBank, corpus: Corpus) -> String {
        let counts = Dictionary(grouping: bank.questions.flatMap(\.topics), by: { $0 }).mapValues(\.count)
        let width = corpus.topics.map(\.id.count).max() ?? 0
        var text = ""
        for topic in corpus.topics {
            let id = topic.id.padding(toLength: width, withPad: " ", startingAt: 0)
            let count = counts[topic.id] ?? 0
            let line = "\(id)  \(String(count).leftPadded(to: 3)) questions  \(topic.title)"
            text += String(line.prefix(80)) + "\n"
        }
        return text
    }

    public static func stats(bank: QuestionBank, progress: QuizProgress, corpus: Corpus, now: Date, path: String) -> String {
        var text = "Progress file: \(path)\n"
        let style = TextStyle(width: 80)
        func paragraph(_ line: String) -> String { style.wrap(line, hanging: "  ").joined(separator: "\n") + "\n" }
        let cards = bank.questions.map { ($0, progress.card(for: $0)) }
        let seen = cards.filter { !$0.1.isNew }
        let due = seen.filter { ($0.1.due ?? .distantFuture) <= now }
        let missed = seen.filter { $0.1.isMissed }
        let mastered = seen.filter { $0.1.interval >= masteredInterval }
        text += paragraph("Questions: \(bank.questions.count) in the bank, \(seen.count) seen, \(bank.questions.count - seen.count) new, "
            + "\(due.count) due now, \(missed.count) missed last time, \(mastered.count) learnt.")
        let answers = progress.cards.values.flatMap(\.history).filter { $0.grade != .skipped }
        if !answers.isEmpty {
            let right = answers.filter(\.grade.isCorrect).count
            text += paragraph("Answers: \(answers.count), \(right * 100 / answers.count)% correct, over \(progress.sessions.count) session(s).")
        }
        if let last = progress.sessions.last {
            let day = ISO8601DateFormatter.string(from: last.at, timeZone: TimeZone(identifier: "UTC") ?? .current,
                                                  formatOptions: [.withFullDate])
            text += "Last session: \(day), \(last.correct)/\(last.asked) correct (seed \(last.seed)).\n"
        }
        text += "\nTopic                                   seen   due  missed  learnt\n"
        for topic in corpus.topics {
            let inTopic = cards.filter { $0.0.topics.contains(topic.id) }
            guard !inTopic.isEmpty else { continue }
            let seenHere = inTopic.filter { !$0.1.isNew }
            let title = String(topic.title.prefix(36)).padding(toLength: 36, withPad: " ", startingAt: 0)
            let seenText = "\(seenHere.count)/\(inTopic.count)".leftPadded(to: 8)
            let dueText = String(seenHere.filter { ($0.1.due ?? .distantFuture) <= now }.count).leftPadded(to: 6)
            let missedText = String(seenHere.filter { $0.1.isMissed }.count).leftPadded(to: 8)
            let learntText = String(seenHere.filter { $0.1.interval >= masteredInterval }.count).leftPadded(to: 8)
            text += "\(title)\(seenText)\(dueText)\(missedText)\(learntText)\n"
        }
        return text
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
