import BGKBModel
import Foundation

/// The session's connection to a person: the CLI wraps standard input and output, tests script it.
public protocol QuizTerminal {
    mutating func write(_ text: String)
    mutating func readLine() -> InputLine
}

/// One sitting: asks the chosen questions, grades, explains, saves after every answer, brings a
/// missed question back after a few others, and ends with the score and the topics to revisit.
/// It never touches the terminal or the file system itself: both come in as a `QuizTerminal`
/// and a `persist` function.
public struct QuizSession {
    public struct Settings: Sendable {
        public var seed: UInt64
        /// Percentage the score must reach for `passed` to be true; nil: no pass mark.
        public var passMark: Int?
        /// Piped input is not echoed by a terminal; writing each answer back keeps the transcript readable.
        public var echoInput: Bool
        /// After a right answer without the hint, ask whether the learner knew it or hesitated
        /// (on a terminal; piped answers count as known).
        public var askConfidence: Bool
        /// Topic id → title, for headers and the revisit list.
        public var topicTitles: [String: String]
        /// The topic the session was asked for (`--topic`), shown in headers instead of a question's first.
        public var focusTopic: String?
        /// The URL of the site's root, ending in "/" (an http(s) base URL or a `file://` URL);
        /// nil when there is no site to point to.
        public var siteURL: String?
        /// The first line of the session ("12 due, 8 new ...").
        public var startLine: String?
        /// The terminal's height in rows: a question taller than this is shown a page at a time.
        /// Nil (piped output): no paging.
        public var pageHeight: Int?
        /// Tells this session's answers from another terminal's when the two files merge.
        public var sessionID: String

        public init(seed: UInt64, passMark: Int? = nil, echoInput: Bool = false, askConfidence: Bool = false,
                    topicTitles: [String: String] = [:], focusTopic: String? = nil, siteURL: String? = nil,
                    startLine: String? = nil, pageHeight: Int? = nil,
                    sessionID: String = String(UInt64.random(in: 0...UInt64.max), radix: 36)) {
        self.sessionID = sessionID
            self.seed = seed
            self.passMark = passMark
            self.echoInput = echoInput
            self.askConfidence = askConfidence
            self.topicTitles = topicTitles
            self.focusTopic = focusTopic
            self.siteURL = siteURL.map { $0.hasSuffix("/") ? $0 : $0 + "/" }
            self.startLine = startLine
            self.pageHeight = pageHeight.map { max($0, 8) }
        }
    }

    /// How many other questions come between a miss and its second try.
    public static let missGap = 3
    /// A question is asked at most this many times in one session.
    public static let maximumTries = 3

    public enum Ending: String, Sendable {
        case finished, quit, endOfInput = "end of input", interrupted
        /// Progress could not be saved: the session stopped so that no more answers are lost.
        case saveFailed = "save failed"
    }

    public struct Result: Sendable {
        /// Distinct questions planned; the score counts first tries only.
        public var planned: Int
        public var asked = 0
        public var correct = 0
        public var skipped = 0
        /// Second (and third) tries of missed questions, and how many of those were right.
        public var retried = 0
        public var retriedRight = 0
        /// Topic titles of missed and skipped questions, with how many, most first.
        public var revisit: [(topic: String, count: Int)] = []
        public var ending: Ending = .finished
        /// Nil without a pass mark.
        public var passed: Bool?
        /// Why progress could not be saved, when it could not.
        public var saveError: String?
    }

    /// One question's place in the session.
    struct Entry {
        var question: Question
        var tryNumber: Int
    }

    public var questions: [Question]
    public var style: TextStyle
    public var settings: Settings
    public var clock: () -> Date
    /// Saves progress and returns what was saved (merged with another terminal's answers);
    /// throws when it cannot, which ends the session.
    public var persist: (QuizProgress) throws -> QuizProgress

    public init(questions: [Question], style: TextStyle, settings: Settings, clock: @escaping () -> Date = Date.init,
                persist: @escaping (QuizProgress) throws -> QuizProgress) {
        self.questions = questions
        self.style = style
        self.settings = settings
        self.clock = clock
        self.persist = persist
    }

    /// What happened to one question.
    enum Step {
        case answered(Grade)
        case stopped(Ending)
        /// Answered right, then the session stopped at the "knew it?" question.
        case answeredThenStopped(Grade, Ending)
    }

    public func run<Terminal: QuizTerminal>(terminal: inout Terminal, progress: inout QuizProgress) -> Result {
        var result = Result(planned: questions.count)
        var missedTopics: [String: Int] = [:]
        var queue = questions.map { Entry(question: $0, tryNumber: 1) }
        // The start line is paged with the first question, so a tall first question does not push it off the screen.
        var preface = settings.startLine.map { lines(style.wrap($0), tone: .bold) + "\n" } ?? ""

        func save() -> Bool {
            do {
                progress = try persist(progress)
                return true
            } catch {
                result.saveError = "\(error)"
                result.ending = .saveFailed
                terminal.write(style.paint("error: progress not saved: \(error)", .red) + "\n"
                    + "The session stops here so that no more answers are lost.\n")
                return false
            }
        }

        var index = 0
        var answers = 0
        sessionLoop: while index < queue.count {
            let entry = queue[index]
            index += 1
            let step = ask(entry, number: index, total: queue.count, preface: preface, terminal: &terminal)
            preface = ""
            let grade: Grade
            var stopAfter: Ending?
            switch step {
            case let .stopped(ending):
                result.ending = ending
                break sessionLoop
            case let .answered(answer): grade = answer
            case let .answeredThenStopped(answer, ending):
                grade = answer
                stopAfter = ending
            }
            if entry.tryNumber == 1 {
                result.asked += 1
                if grade.isCorrect { result.correct += 1 }
                if grade == .skipped { result.skipped += 1 }
                if !grade.isCorrect { for topic in topicNames(entry.question) { missedTopics[topic, default: 0] += 1 } }
            } else {
                result.retried += 1
                if grade.isCorrect { result.retriedRight += 1 }
            }
            if grade == .wrong && entry.tryNumber < Self.maximumTries {
                let position = min(index + Self.missGap, queue.count)
                queue.insert(Entry(question: entry.question, tryNumber: entry.tryNumber + 1), at: position)
                let later = position == index ? "next" : "again after \(position - index) other question\(position - index == 1 ? "" : "s")"
                terminal.write(lines(style.wrap("This one comes back \(later).", indent: "  ", hanging: "  "), tone: .dim))
            }
            answers += 1
            progress.record(grade, for: entry.question, at: clock(), id: "\(settings.sessionID)-\(answers)")
            terminal.write(explanation(entry.question))
            guard save() else { break sessionLoop }
            if let stopAfter {
                result.ending = stopAfter
                break sessionLoop
            }
        }

        result.revisit = missedTopics.map { (topic: $0.key, count: $0.value) }
            .sorted { ($0.count, $1.topic) > ($1.count, $0.topic) }
        if let mark = settings.passMark {
            result.passed = result.ending != .saveFailed && result.correct * 100 >= mark * max(result.planned, 1)
        }
        if result.ending != .saveFailed {
            progress.sessions.append(SessionRecord(at: clock(), asked: result.asked, correct: result.correct, seed: settings.seed,
                                                   id: settings.sessionID))
            _ = save()
        }
        terminal.write(summary(result))
        return result
    }

    /// Shows one question and reads until it is answered, skipped, or the session stops.
    func ask<Terminal: QuizTerminal>(_ entry: Entry, number: Int, total: Int, preface: String = "", terminal: inout Terminal) -> Step {
        let question = entry.question.shuffled(seed: settings.seed)
        let header = self.header(question, number: number, total: total, tryNumber: entry.tryNumber)
        if let stop = page(preface + header + render(question, withListing: true), terminal: &terminal) { return .stopped(stop) }
        var hinted = false
        while true {
            terminal.write(promptLine(question))
            let command: Command
            switch read(&terminal) {
            case let .line(bytes):
                command = AnswerParser.parse(bytes, choiceCount: question.choices.count, trueFalse: question.kind == .trueFalse)
            case .tooLong:
                command = .invalid("That line is too long.")
            case let .stop(ending):
                return .stopped(ending)
            }
            switch command {
            case let .invalid(message):
                terminal.write(lines(style.wrap(message), tone: .yellow) + "\n")
                terminal.write(header + render(question, withListing: false))
            case .hint:
                hinted = true
                terminal.write(lines(style.wrap("Hint: " + question.hint, indent: "  ", hanging: "  "), tone: .cyan))
            case .quit:
                return .stopped(.quit)
            case .skip:
                terminal.write(lines(style.wrap("Skipped. " + answerText(question), hanging: "  "))
                    .replacingOccurrences(of: "Skipped.", with: style.paint("Skipped.", .yellow)))
                return .answered(.skipped)
            case let .choose(index) where index == question.correct:
                terminal.write(style.paint("Correct.", .green) + (hinted ? " (with the hint)" : "") + "\n")
                if hinted { return .answered(.hinted) }
                return settings.askConfidence ? confidence(terminal: &terminal) : .answered(.correct)
            case .choose:
                terminal.write(lines(style.wrap("Wrong. " + answerText(question), hanging: "  "))
                    .replacingOccurrences(of: "Wrong.", with: style.paint("Wrong.", .red)))
                return .answered(.wrong)
            }
        }
    }

    /// "Knew it, or hesitated?" after a right answer: Enter (or k) for knew it, h for hesitated.
    func confidence<Terminal: QuizTerminal>(terminal: inout Terminal) -> Step {
        while true {
            terminal.write("Knew it? Enter = knew it, h = hesitated: ")
            switch read(&terminal) {
            case let .line(bytes):
                switch String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: String.whitespace).lowercased() {
                case "", "k", "y", "yes", "knew", "knew it": return .answered(.correct)
                case "h", "n", "no", "hesitated": return .answered(.hesitated)
                case "q", "quit": return .answeredThenStopped(.correct, .quit)
                default: terminal.write(style.paint("Press Enter if you knew it, or type h if you hesitated.", .yellow) + "\n")
                }
            case .tooLong:
                terminal.write(style.paint("Press Enter if you knew it, or type h if you hesitated.", .yellow) + "\n")
            case let .stop(ending):
                return .answeredThenStopped(.correct, ending)
            }
        }
    }

    enum Read {
        case line([UInt8])
        case tooLong
        case stop(Ending)
    }

    /// One line of input, echoed when piped; end of input and Ctrl-C become a stop. Text typed
    /// without Enter before the end of input is not an answer, and the learner is told so.
    func read<Terminal: QuizTerminal>(_ terminal: inout Terminal) -> Read {
        let input = terminal.readLine()
        switch input {
        case let .line(bytes):
            if settings.echoInput {
                terminal.write(AnswerParser.shown(String(decoding: bytes.prefix(60), as: UTF8.self)).dropFirst().dropLast() + "\n")
            }
            return .line(bytes)
        case .tooLong:
            return .tooLong
        case let .unfinished(bytes):
            terminal.write("\n" + lines(style.wrap("Input ended before Enter: "
                + AnswerParser.shown(String(decoding: bytes.prefix(60), as: UTF8.self)) + " was not taken as an answer."), tone: .yellow))
            return .stop(.endOfInput)
        case .end:
            if !settings.echoInput { terminal.write("\n") }
            return .stop(.endOfInput)
        case .interrupted:
            terminal.write("\n")
            return .stop(.interrupted)
        }
    }

    /// Writes `text`, a screenful at a time when it is taller than the terminal: the learner
    /// presses Enter for the next part. Returns the ending when the learner stops there.
    func page<Terminal: QuizTerminal>(_ text: String, terminal: inout Terminal) -> Ending? {
        var rows = text.split(separator: "\n", omittingEmptySubsequences: false)
        if rows.last == "" { rows.removeLast() }
        guard let height = settings.pageHeight, rows.count > height - 1 else {
            terminal.write(text)
            return nil
        }
        let pageSize = height - 2
        var start = 0
        while rows.count - start > height - 1 {
            terminal.write(rows[start..<start + pageSize].joined(separator: "\n") + "\n")
            start += pageSize
            terminal.write(style.paint("-- more (\(rows.count - start) more lines): Enter to go on, q to quit --", .bold))
            switch read(&terminal) {
            case let .line(bytes) where ["q", "quit"].contains(String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: String.whitespace).lowercased()):
                return .quit
            case let .stop(ending): return ending
            default: continue
            }
        }
        terminal.write(rows[start...].joined(separator: "\n") + "\n")
        return nil
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
