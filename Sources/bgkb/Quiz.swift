import ArgumentParser
import BGKBContent
import BGKBModel
import BGKBQuiz
import Foundation

extension BGKB {
    /// `bgkb quiz`: questions drawn from the knowledge, scheduled by spaced repetition.
    struct Quiz: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "quiz",
            abstract: "Learn the rules: a quiz with spaced repetition.",
            discussion: """
            Answer with a letter or number; ? shows a hint, s skips, q quits. Ctrl-C and end of \
            input stop cleanly; progress is saved after every answer, in \
            $XDG_DATA_HOME/bgkb/progress.json (or ~/.local/share/bgkb/progress.json); \
            BGKB_PROGRESS or --progress choose another file. The knowledge is built into the \
            binary; --content DIR uses a Content directory instead. With piped input, answers \
            are read one per line and --pass-mark sets the exit status.
            """
        )

        @Option(name: .long, help: "How many questions to ask.")
        var count = 10

        @Option(name: .long, help: "Only questions on this topic (see --list-topics).")
        var topic: String?

        @Option(name: .long, help: "Seed for choosing and shuffling: the same seed and progress give the same session.")
        var seed: UInt64?

        @Flag(name: .long, help: "Only questions that are due or were missed last time.")
        var review = false

        @Flag(name: .long, help: "Show what you have learnt, by topic, and exit.")
        var stats = false

        @Flag(name: .long, help: "Start over: move the progress file aside (kept as a backup) and exit.")
        var reset = false

        @Flag(name: .long, help: "List the topics with their number of questions and exit.")
        var listTopics = false

        @Option(name: .long, help: ArgumentHelp("Use this Content directory instead of the built-in knowledge.", valueName: "dir"))
        var content: String?

        @Option(name: .long, help: ArgumentHelp("Exit with status 1 unless at least this percentage of the questions is answered correctly.", valueName: "percent"))
        var passMark: Int?

        @Option(name: .long, help: ArgumentHelp("The progress file (default: $BGKB_PROGRESS, else under $XDG_DATA_HOME).", valueName: "file"))
        var progress: String?

        func validate() throws {
            guard count > 0 else { throw ValidationError("--count must be at least 1") }
            if let passMark, !(0...100).contains(passMark) { throw ValidationError("--pass-mark is a percentage, 0 to 100") }
        }

        func run() throws {
            let environment = ProcessInfo.processInfo.environment
            let (corpus, bank) = try loadBank()
            if !bank.isValid {
                DiagnosticPrinter.standardError.print(bank.diagnostics.sorted)
                DiagnosticPrinter.standardError.print(line: "error: the question bank is invalid (\(bank.diagnostics.errors.count) error(s))")
                throw ExitCode(1)
            }
            if listTopics {
                print(QuizReport.topics(bank: bank, corpus: corpus), terminator: "")
                return
            }
            if let topic, corpus.topic(topic) == nil {
                throw ValidationError("no topic `\(topic)`; topics: " + corpus.topics.map(\.id).joined(separator: ", "))
            }

            let store = ProgressStore(path: try progressPath(environment))
            if reset {
                if let backup = try store.reset() {
                    print("Progress reset; the old file is kept as \(backup).")
                } else {
                    print("No progress to reset (\(store.path)).")
                }
                return
            }
            let loaded = try store.load()
            for notice in loaded.notices { DiagnosticPrinter.standardError.print(line: "warning: \(notice)") }
            var learner = loaded.progress
            let now = Date()
            if stats {
                print(QuizReport.stats(bank: bank, progress: learner, corpus: corpus, now: now, path: store.path), terminator: "")
                return
            }

            let sessionSeed = seed ?? UInt64.random(in: 0...UInt64(UInt32.max))
            let questions = Scheduler.select(from: bank.questions(topic: topic), progress: learner, now: now, count: count,
                                             seed: sessionSeed, mode: review ? .review : .learn)
            guard !questions.isEmpty else {
                print(review ? "Nothing is due for review. Run `bgkb quiz` to learn something new." : "No questions on this topic.")
                return
            }
            let terminalInput = isatty(STDIN_FILENO) == 1
            let terminalOutput = isatty(STDOUT_FILENO) == 1
            let style = TextStyle(
                width: terminalOutput ? StandardTerminal.width() : 80,
                // Piped input means a script is driving: plain output even if stdout is a terminal.
                colour: terminalInput && terminalOutput && environment["NO_COLOR"] == nil && environment["TERM"] != "dumb")
            let titles = Dictionary(corpus.topics.map { ($0.id, $0.title) }, uniquingKeysWith: { first, _ in first })
            let session = QuizSession(
                questions: questions, style: style,
                settings: .init(seed: sessionSeed, passMark: passMark, echoInput: !terminalInput, topicTitles: titles,
                               focusTopic: topic, siteFolder: Self.siteFolder()),
                persist: { progress in
                    do { try store.save(progress); return nil } catch { return "\(error)" }
                })
            var terminal = StandardTerminal()
            StandardTerminal.catchInterrupt()
            let result = session.run(terminal: &terminal, progress: &learner)
            if result.ending == .interrupted { throw ExitCode(130) }
            if result.passed == false { throw ExitCode(1) }
        }

        /// The built-in bank (made at build time), or one made now from `--content DIR`, loaded
        /// like every command loads Content. The corpus returned carries what the session needs
        /// of it (the topics).
        func loadBank() throws -> (Corpus, QuestionBank) {
            if let content {
                let corpus = try ContentOptions.parse(["--content", content]).loadValid().corpus
                return (corpus, QuestionBank(corpus: corpus, outcomes: QuizOutcomes.engine))
            }
            guard let bank = EmbeddedContent.bank() else {
                DiagnosticPrinter.standardError.print(line: "error: the built-in questions do not decode; pass --content DIR")
                throw ExitCode(2)
            }
            if EmbeddedContent.contentErrorCount > 0 {
                // The learner cannot fix built-in Content; say so once and teach what parsed.
                DiagnosticPrinter.standardError.print(line: "warning: built-in Content has \(EmbeddedContent.contentErrorCount) error(s); see `bgkb lint`")
            }
            return (Corpus(topics: EmbeddedContent.topics()), bank)
        }

        /// Where explanations send the learner for a rule's page: "Site/" when the quiz runs from
        /// the repository; from anywhere else, the absolute path of the site in the checkout this
        /// binary was built from, when it is still there (a relative "Site/…" would lead nowhere).
        static func siteFolder() -> String {
            let files = FileManager.default
            if files.fileExists(atPath: "Site/rules") { return "Site/" }
            let checkout = URL(fileURLWithPath: #filePath)
                .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            let site = checkout.appendingPathComponent("Site")
            if files.fileExists(atPath: site.appendingPathComponent("rules").path) { return site.path + "/" }
            return "Site/"
        }

        /// --progress, then BGKB_PROGRESS, then the XDG data directory.
        func progressPath(_ environment: [String: String]) throws -> String {
            if let progress, !progress.isEmpty { return progress }
            if let path = environment["BGKB_PROGRESS"], !path.isEmpty { return path }
            if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") { return data + "/bgkb/progress.json" }
            guard let home = environment["HOME"], !home.isEmpty else {
                throw ValidationError("cannot tell where to keep progress: set HOME, XDG_DATA_HOME or BGKB_PROGRESS, or pass --progress FILE")
            }
            return home + "/.local/share/bgkb/progress.json"
        }
    }
}

/// Set by the SIGINT handler; read by the input loop.
nonisolated(unsafe) private var interruptRequested: sig_atomic_t = 0

/// Standard input and output for the session. Reads with read(2) so that Ctrl-C interrupts a
/// waiting read (the handler is installed without SA_RESTART) and the session can end cleanly.
struct StandardTerminal: QuizTerminal {
    struct Input: ByteSource {
        mutating func read(maximum: Int) -> ByteRead {
            if interruptRequested != 0 { return .interrupted }
            var buffer = [UInt8](repeating: 0, count: maximum)
            while true {
                let count = buffer.withUnsafeMutableBytes { Glibc.read(STDIN_FILENO, $0.baseAddress, maximum) }
                if count > 0 { return .bytes(Array(buffer[..<count])) }
                if count == 0 { return .end }
                if errno == EINTR {
                    if interruptRequested != 0 { return .interrupted }
                    continue
                }
                return .end
            }
        }
    }

    var reader = LineReader(source: Input())

    mutating func write(_ text: String) {
        // Unbuffered: the prompt must show before the read blocks.
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    mutating func readLine() -> InputLine { reader.next() }

    static func catchInterrupt() {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in interruptRequested = 1 }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        sigaction(SIGINT, &action, nil)
    }

    /// The terminal's width, at most 80.
    static func width() -> Int {
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
        return min(80, Int(size.ws_col))
    }
}
