import BGKBModel
import Foundation

/// The session's connection to a person: the CLI wraps standard input and output, tests script it.
public protocol QuizTerminal {
    mutating func write(_ text: String)
    mutating func readLine() -> InputLine
}

/// One sitting: asks the chosen questions, grades, explains, saves after every answer, and ends
/// with the score and the topics to revisit. It never touches the terminal or the file system
/// itself: both come in as a `QuizTerminal` and a `persist` function.
public struct QuizSession {
    public struct Settings: Sendable {
        public var seed: UInt64
        /// Percentage the score must reach for `passed` to be true; nil: no pass mark.
        public var passMark: Int?
        /// Piped input is not echoed by a terminal; writing each answer back keeps the transcript readable.
        public var echoInput: Bool
        /// Topic id → title, for headers and the revisit list.
        public var topicTitles: [String: String]
        /// The topic the session was asked for (`--topic`), shown in headers instead of a question's first.
        public var focusTopic: String?
        /// Where the explanation points for a rule's page: the site folder as the learner can reach
        /// it from where they are ("Site/" from the repository, an absolute path from elsewhere).
        public var siteFolder: String

        public init(seed: UInt64, passMark: Int? = nil, echoInput: Bool = false, topicTitles: [String: String] = [:],
                    focusTopic: String? = nil, siteFolder: String = "Site/") {
            self.focusTopic = focusTopic
            self.siteFolder = siteFolder.hasSuffix("/") ? siteFolder : siteFolder + "/"
            self.seed = seed
            self.passMark = passMark
            self.echoInput = echoInput
            self.topicTitles = topicTitles
        }
    }

    public enum Ending: String, Sendable {
        case finished, quit, endOfInput = "end of input", interrupted
    }

    public struct Result: Sendable {
        public var planned: Int
        public var asked = 0
        public var correct = 0
        public var skipped = 0
        /// Topic titles of missed and skipped questions, with how many, most first.
        public var revisit: [(topic: String, count: Int)] = []
        public var ending: Ending = .finished
        /// Nil without a pass mark.
        public var passed: Bool?
    }

    public var questions: [Question]
    public var style: TextStyle
    public var settings: Settings
    public var clock: () -> Date
    /// Saves progress; returns an error message to show (once) when it cannot.
    public var persist: (QuizProgress) -> String?

    public init(questions: [Question], style: TextStyle, settings: Settings, clock: @escaping () -> Date = Date.init,
                persist: @escaping (QuizProgress) -> String?) {
        self.questions = questions
        self.style = style
        self.settings = settings
        self.clock = clock
        self.persist = persist
    }

    public func run<Terminal: QuizTerminal>(terminal: inout Terminal, progress: inout QuizProgress) -> Result {
        var result = Result(planned: questions.count)
        var missedTopics: [String: Int] = [:]
        var saveWarned = false
        func save() {
            if let message = persist(progress), !saveWarned {
                saveWarned = true
                terminal.write(style.paint("warning: progress not saved: \(message)", .yellow) + "\n")
            }
        }

        questionLoop: for (number, original) in questions.enumerated() {
            let question = original.shuffled(seed: settings.seed)
            terminal.write(render(question, number: number + 1, withListing: true))
            var hinted = false
            while true {
                terminal.write(promptLine(question))
                let input = terminal.readLine()
                if settings.echoInput, case let .line(bytes) = input {
                    terminal.write(AnswerParser.shown(String(decoding: bytes.prefix(60), as: UTF8.self)).dropFirst().dropLast() + "\n")
                }
                let command: Command
                switch input {
                case let .line(bytes):
                    command = AnswerParser.parse(bytes, choiceCount: question.choices.count, trueFalse: question.kind == .trueFalse)
                case .tooLong:
                    command = .invalid("That line is too long.")
                case .end:
                    if !settings.echoInput { terminal.write("\n") }
                    result.ending = .endOfInput
                    break questionLoop
                case .interrupted:
                    terminal.write("\n")
                    result.ending = .interrupted
                    break questionLoop
                }
                switch command {
                case let .invalid(message):
                    terminal.write(lines(style.wrap(message), tone: .yellow) + "\n")
                    terminal.write(render(question, number: number + 1, withListing: false))
                    continue
                case .hint:
                    hinted = true
                    terminal.write(lines(style.wrap("Hint: " + question.hint, indent: "  ", hanging: "  "), tone: .cyan))
                    continue
                case .quit:
                    result.ending = .quit
                    break questionLoop
                case .skip:
                    result.asked += 1
                    result.skipped += 1
                    progress.record(.skipped, for: original, at: clock())
                    for topic in topicNames(question) { missedTopics[topic, default: 0] += 1 }
                    terminal.write(lines(style.wrap("Skipped. " + answerText(question), hanging: "  "))
                        .replacingOccurrences(of: "Skipped.", with: style.paint("Skipped.", .yellow)))
                case let .choose(index):
                    result.asked += 1
                    let right = index == question.correct
                    if right {
                        result.correct += 1
                        terminal.write(style.paint("Correct.", .green) + (hinted ? " (with the hint)" : "") + "\n")
                    } else {
                        for topic in topicNames(question) { missedTopics[topic, default: 0] += 1 }
                        terminal.write(lines(style.wrap("Wrong. " + answerText(question), hanging: "  "))
                            .replacingOccurrences(of: "Wrong.", with: style.paint("Wrong.", .red)))
                    }
                    progress.record(right ? (hinted ? .hinted : .correct) : .wrong, for: original, at: clock())
                }
                terminal.write(explanation(question))
                save()
                continue questionLoop
            }
        }

        result.revisit = missedTopics.map { (topic: $0.key, count: $0.value) }
            .sorted { ($0.count, $1.topic) > ($1.count, $0.topic) }
        if let mark = settings.passMark {
            result.passed = result.correct * 100 >= mark * max(result.planned, 1)
        }
        progress.sessions.append(SessionRecord(at: clock(), asked: result.asked, correct: result.correct, seed: settings.seed))
        save()
        terminal.write(summary(result))
        return result
    }

    // MARK: - Rendering

    func render(_ question: Question, number: Int, withListing: Bool) -> String {
        let shownTopic = settings.focusTopic.flatMap { question.topics.contains($0) ? $0 : nil } ?? question.topics.first
        let topic = shownTopic.map { settings.topicTitles[$0] ?? $0 }
        var header = "\(number)/\(questions.count)  \(question.kind.title)"
        if let topic { header += " · \(topic)" }
        var text = style.paint(header, .bold) + "\n"
        text += lines(style.wrap(question.prompt))
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

    func explanation(_ question: Question) -> String {
        var text = lines(style.wrap(question.explanation, indent: "  ", hanging: "  "), tone: .dim)
        text += lines(style.wrap("See \(settings.siteFolder)\(question.pageInSite)", indent: "  ", hanging: "  "), tone: .dim)
        return text + "\n"
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
        }
        var score = "Score: \(result.correct)/\(base) (\(percent)%)"
        if result.skipped > 0 { score += ", \(result.skipped) skipped" }
        if base < result.planned { score += "; \(result.planned - base) not asked" }
        text += style.paint(score + ".", .bold) + "\n"
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

extension Question {
    /// The same question with its choices in a seeded order (true/false stays True, False).
    public func shuffled(seed: UInt64) -> Question {
        guard kind != .trueFalse, choices.count > 1 else { return self }
        var generator = SeededGenerator(seed: seed ^ StableHash.of(id).value)
        var order = Array(choices.indices)
        order.shuffle(using: &generator)
        var copy = self
        copy.choices = order.map { choices[$0] }
        copy.correct = order.firstIndex(of: correct) ?? correct
        return copy
    }
}
