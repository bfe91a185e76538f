import BGKBModel
import Foundation

/// The non-interactive outputs: `--stats` and `--list-topics`, as text that fits 80 columns.
public enum QuizReport {
    /// A card whose FSRS stability is at least this many days counts as learnt.
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

    /// `--stats`: counts, accuracy, FSRS's estimate of what is retained now, a 7-day forecast of
    /// due questions (calendar days in `timeZone`) and the same per topic.
    public static func stats(bank: QuestionBank, progress: QuizProgress, corpus: Corpus, now: Date, path: String,
                             timeZone: TimeZone = .current) -> String {
        var text = "Progress file: \(path)\n"
        let style = TextStyle(width: 80)
        func paragraph(_ line: String) -> String { style.wrap(line, hanging: "  ").joined(separator: "\n") + "\n" }
        let cards = bank.questions.map { ($0, progress.card(for: $0)) }
        let seen = cards.filter { !$0.1.isNew }
        let due = seen.filter { ($0.1.due ?? .distantFuture) <= now }
        let missed = seen.filter { $0.1.isMissed }
        let mastered = seen.filter { ($0.1.memory?.stability ?? 0) >= masteredInterval }
        text += paragraph("Questions: \(bank.questions.count) in the bank, \(seen.count) seen, \(bank.questions.count - seen.count) new, "
            + "\(due.count) due now, \(missed.count) missed last time, \(mastered.count) learnt (remembered for 3 weeks or more).")
        text += "Target retention: \(percent(progress.targetRetention)) (--retention changes it).\n"
        let answers = cards.flatMap { $0.1.history }.filter { $0.grade != .skipped }
        if !answers.isEmpty {
            let right = answers.filter(\.grade.isCorrect).count
            text += paragraph("Answers: \(answers.count), \(percent(Double(right) / Double(answers.count))) correct, "
                + "over \(progress.sessions.count) session(s).")
        }
        if let retention = averageRetrievability(seen.map(\.1), now: now) {
            text += paragraph("Estimated retention now: \(percent(retention)), the average chance (by FSRS) of recalling a seen question today.")
        }
        if let last = progress.sessions.last {
            let day = ISO8601DateFormatter.string(from: last.at, timeZone: TimeZone(identifier: "UTC") ?? .current,
                                                  formatOptions: [.withFullDate])
            text += "Last session: \(day), \(last.correct)/\(last.asked) correct (seed \(last.seed)).\n"
        }
        text += "\n" + forecast(seen.map(\.1), now: now, timeZone: timeZone)
        text += "\nTopic                               seen   due  accuracy  retention\n"
        for topic in corpus.topics {
            let inTopic = cards.filter { $0.0.topics.contains(topic.id) }
            guard !inTopic.isEmpty else { continue }
            let seenHere = inTopic.filter { !$0.1.isNew }
            let graded = inTopic.flatMap { $0.1.history }.filter { $0.grade != .skipped }
            let title = String(topic.title.prefix(32)).padding(toLength: 32, withPad: " ", startingAt: 0)
            let seenText = "\(seenHere.count)/\(inTopic.count)".leftPadded(to: 9)
            let dueText = String(seenHere.filter { ($0.1.due ?? .distantFuture) <= now }.count).leftPadded(to: 6)
            let accuracy = graded.isEmpty ? "-" : percent(Double(graded.filter(\.grade.isCorrect).count) / Double(graded.count))
            let retention = averageRetrievability(seenHere.map(\.1), now: now).map(percent) ?? "-"
            text += "\(title)\(seenText)\(dueText)\(accuracy.leftPadded(to: 10))\(retention.leftPadded(to: 11))\n"
        }
        return text
    }

    /// The mean FSRS retrievability at `now` of the cards that have a memory; nil if none has.
    static func averageRetrievability(_ cards: [Card], now: Date) -> Double? {
        let values = cards.compactMap { $0.retrievability(at: now) }
        return values.isEmpty ? nil : values.reduce(0, +) / Double(values.count)
    }

    /// Questions due on each of the next seven calendar days; today's count includes the overdue.
    static func forecast(_ cards: [Card], now: Date, timeZone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let today = calendar.startOfDay(for: now)
        let days = (0...7).compactMap { calendar.date(byAdding: .day, value: $0, to: today) }
        guard days.count == 8 else { return "" }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        formatter.dateFormat = "EEE d"
        var labels = "Due      "
        var counts = "         "
        for day in 0..<7 {
            let count = cards.filter { card in
                guard let due = card.due else { return false }
                return due < days[day + 1] && (day == 0 || due >= days[day])
            }.count
            let label = day == 0 ? "today" : formatter.string(from: days[day])
            labels += label.leftPadded(to: 9)
            counts += String(count).leftPadded(to: 9)
        }
        return "Forecast of questions due (today includes the overdue):\n\(labels)\n\(counts)\n"
    }

    static func percent(_ value: Double) -> String {
        "\(Int((value * 100).rounded()))%"
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
