import BGKBModel
import Foundation

/// What the session writes: questions, answers, explanations with their link, the summary.
extension QuizSession {
    func header(_ question: Question, number: Int, total: Int, tryNumber: Int) -> String {
        let shownTopic = settings.focusTopic.flatMap { question.topics.contains($0) ? $0 : nil } ?? question.topics.first
        let topic = shownTopic.map { settings.topicTitles[$0] ?? $0 }
        var header = "\(number)/\(total)  \(question.kind.title)"
        if let topic { header += " · \(topic)" }
        if tryNumber > 1 { header += " · again (missed earlier)" }
        return style.paint(header, .bold) + "\n"
    }

    func render(_ question: Question, withListing: Bool) -> String {
        var text = lines(style.wrap(question.prompt))
        if withListing, let listing = question.listing {
            text += "\n" + lines(style.listing(listing), tone: .dim) + "\n"
        }
        for (index, choice) in question.choices.enumerated() {
            let label = "  \(AnswerParser.letter(index))) "
            let wrapped = style.wrap(choice, indent: label, hanging: String(repeating: " ", count: label.count))
            text += lines(wrapped)
        }
        return text
    }

    func promptLine(_ question: Question) -> String {
        let last = AnswerParser.letter(question.choices.count - 1)
        return "Answer (a-\(last), ? hint, s skip, q quit): "
    }

    func answerText(_ question: Question) -> String {
        "The answer is \(AnswerParser.letter(question.correct))) \(question.correctChoice ?? "")"
    }

    /// The explanation, then the rule's page as one whole URL on its own line (never wrapped, so
    /// it can be copied or clicked even when longer than the terminal is wide).
    func explanation(_ question: Question) -> String {
        var text = lines(style.wrap(question.explanation, indent: "  ", hanging: "  "), tone: .dim)
        if let url = link(question) {
            text += style.paint("  See " + url, .dim) + "\n"
        } else {
            text += lines(style.wrap("See the rule \(question.rule) on the site (set BGKB_SITE_URL or --site-url to link it).",
                                     indent: "  ", hanging: "  "), tone: .dim)
        }
        return text + "\n"
    }

    public func link(_ question: Question) -> String? {
        settings.siteURL.map { $0 + question.pageInSite }
    }

    func summary(_ result: Result) -> String {
        // A session stopped early is scored on the questions it asked: 1 right of 1 asked is not
        // 10 %. The pass mark still counts the questions not asked as missed, and says so.
        let base = result.ending == .finished ? result.planned : result.asked
        let percent = base > 0 ? result.correct * 100 / base : 0
        var text = "\n"
        switch result.ending {
        case .finished: break
        case .quit: text += "Stopped after \(result.asked) of \(result.planned) questions.\n"
        case .endOfInput: text += "End of input after \(result.asked) of \(result.planned) questions.\n"
        case .interrupted: text += "Interrupted after \(result.asked) of \(result.planned) questions.\n"
        case .saveFailed: text += "Stopped after \(result.asked) of \(result.planned) questions: progress could not be saved.\n"
        }
        var score = "Score: \(result.correct)/\(base) (\(percent)%)"
        if result.skipped > 0 { score += ", \(result.skipped) skipped" }
        if base < result.planned { score += "; \(result.planned - base) not asked" }
        text += style.paint(score + ".", .bold) + "\n"
        if result.retried > 0 {
            text += "Missed questions asked again: \(result.retriedRight) of \(result.retried) right the next time.\n"
        }
        if let mark = settings.passMark, let passed = result.passed {
            let unasked = base < result.planned ? " (questions not asked count as missed)" : ""
            text += "Pass mark \(mark)%\(unasked): " + (passed ? style.paint("reached.", .green) : style.paint("not reached.", .red)) + "\n"
        }
        if !result.revisit.isEmpty {
            let list = result.revisit.map { "\($0.topic) (\($0.count))" }.joined(separator: ", ")
            text += lines(style.wrap("Topics to revisit: " + list + ".", hanging: "  "))
        } else if result.asked > 0 && result.correct == result.asked {
            text += "Nothing to revisit.\n"
        }
        return text
    }

    func topicNames(_ question: Question) -> [String] {
        question.topics.isEmpty ? ["rule \(question.rule)"] : question.topics.map { settings.topicTitles[$0] ?? $0 }
    }

    func lines(_ lines: [String], tone: TextStyle.Tone? = nil) -> String {
        lines.map { line in tone.map { style.paint(line, $0) } ?? line }.joined(separator: "\n") + "\n"
    }
}
