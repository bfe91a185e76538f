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
            Answer with a letter or number; ? shows a hint, s skips, q quits. After a right \
            answer, Enter says you knew it and h that you hesitated. Scheduling is FSRS-5: a \
            missed question comes back after three others, a skipped one is due, and a \
            question falls due when your chance of recalling it drops to the target retention. \
            Ctrl-C and end of input stop cleanly; progress is saved after every answer, in \
            $XDG_DATA_HOME/bgkb/progress.json (or ~/.local/share/bgkb/progress.json); \
            BGKB_PROGRESS or --progress choose another file. Two terminals on one file merge \
            their answers; a file that is not usable progress is reported and left alone. The \
            knowledge is built into the binary; --content DIR uses a Content directory instead. \
            With piped input, answers are read one per line and --pass-mark sets the exit status.
            """
        )

        @Option(name: .long, help: "How many questions to ask.")
        var count = 10

        @Option(name: .long, help: "Only questions on this topic (see --list-topics).")
        var topic: String?

        @Option(name: .long, help: "Seed for choosing and shuffling: the same seed and progress give the same session.")
        var seed: UInt64?

        @Flag(name: .long, help: "Only questions that are due (skipped ones included) or were missed last time.")
        var review = false

        @Flag(name: .long, help: "Show accuracy, estimated retention and the questions due in the next 7 days, by topic, and exit (changes no file).")
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

        @Option(name: .long, help: ArgumentHelp("Target retention: the chance of recall at which a question falls due, 0.70 to 0.99 (or 70 to 99); remembered in the progress file. Default 0.90.", valueName: "r"))
        var retention: Double?

        @Option(name: .long, help: ArgumentHelp("The site's root URL, for the links after each answer (default: $BGKB_SITE_URL, else a file:// URL of Site/).", valueName: "url"))
        var siteURL: String?

        @Option(name: .long, help: ArgumentHelp("Write the question bank as JSON (the shape the README documents) and exit.", valueName: "file.json"))
        var export: String?

        @Option(name: .customLong("export-anki"), help: ArgumentHelp("Write the question bank as a file Anki imports (tab-separated: front, back, tags) and exit.", valueName: "file.txt"))
        var exportAnki: String?

        func validate() throws {
            guard count > 0 else { throw ValidationError("--count must be at least 1") }
            if let passMark, !(0...100).contains(passMark) { throw ValidationError("--pass-mark is a percentage, 0 to 100") }
            if let retention, targetRetention(retention) == nil {
                throw ValidationError("--retention is a chance of recall, 0.70 to 0.99 (or 70 to 99); got \(retention)")
            }
        }

        /// A fraction, or the same as a percentage (0.9 or 90); nil outside the range FSRS is used with.
        func targetRetention(_ value: Double) -> Double? {
            let fraction = value > 1 ? value / 100 : value
            return QuizProgress.retentionRange.contains(fraction) ? fraction : nil
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

            let siteURL = Self.siteURL(option: siteURL, environment: environment)
            if export != nil || exportAnki != nil {
                try writeExports(bank: bank, corpus: corpus, siteURL: siteURL)
                return
            }

            let store = ProgressStore(path: try progressPath(environment))
            if reset {
                let backup: String?
                do { backup = try store.reset() } catch { throw fail("\(error)") }
                if let backup {
                    print("Progress reset; the old file is kept as \(backup).")
                } else {
                    print("No progress to reset (\(store.path)).")
                }
                return
            }
            let loaded: ProgressStore.Loaded
            do { loaded = try store.load() } catch { throw fail("\(error)") }
            for notice in loaded.notices { DiagnosticPrinter.standardError.print(line: "note: \(notice)") }
            var learner = loaded.progress
            if let retention, let target = targetRetention(retention), target != learner.targetRetention {
                learner.targetRetention = target
                learner = learner.rebuilt()
            }
            let now = Date()
            if stats {
                print(QuizReport.stats(bank: bank, progress: learner, corpus: corpus, now: now, path: store.path), terminator: "")
                return
            }

            let sessionSeed = seed ?? UInt64.random(in: 0...UInt64(UInt32.max))
            let pool = bank.questions(topic: topic)
            let questions = Scheduler.select(from: pool, progress: learner, now: now, count: count,
                                             seed: sessionSeed, mode: review ? .review : .learn)
            guard !questions.isEmpty else {
                print(review ? "Nothing is due for review. Run `bgkb quiz` to learn something new." : "No questions on this topic.")
                return
            }
            // Before the first question: a save must be possible, or the answers would be lost.
            do { try store.checkWritable() } catch { throw fail("\(error)") }
            let terminalInput = TerminalSize.inputIsTerminal
            let terminalOutput = TerminalSize.outputIsTerminal
            let size = terminalOutput ? TerminalSize.ofStandardOutput() : nil
            // no-color.org: NO_COLOR present and not empty disables colour.
            let noColour = !(environment["NO_COLOR"] ?? "").isEmpty
            let style = TextStyle(
                width: min(80, size?.columns ?? 80),
                // Piped input means a script is driving: plain output even if stdout is a terminal.
                colour: terminalInput && terminalOutput && !noColour && environment["TERM"] != "dumb")
            let titles = Dictionary(corpus.topics.map { ($0.id, $0.title) }, uniquingKeysWith: { first, _ in first })
            let counts = Scheduler.counts(pool, progress: learner, now: now)
            var startLine = "\(counts.due) due, \(counts.new) new"
            if let topic { startLine += " in \(titles[topic] ?? topic)" }
            startLine += "; this session: \(questions.count) question\(questions.count == 1 ? "" : "s")."
            let session = QuizSession(
                questions: questions, style: style,
                settings: .init(seed: sessionSeed, passMark: passMark, echoInput: !terminalInput, askConfidence: terminalInput,
                                topicTitles: titles, focusTopic: topic, siteURL: siteURL, startLine: startLine,
                                pageHeight: terminalInput ? size?.rows : nil),
                persist: { try store.save($0) })
            var terminal = StandardTerminal()
            StandardInput.catchInterrupt()
            let result = session.run(terminal: &terminal, progress: &learner)
            if result.ending == .interrupted { throw ExitCode(130) }
            if result.ending == .saveFailed || result.passed == false { throw ExitCode(1) }
        }

        /// An error for the learner, printed once; exit status 1.
        func fail(_ message: String) -> ExitCode {
            DiagnosticPrinter.standardError.print(line: "error: \(message)")
            return ExitCode(1)
        }

        func writeExports(bank: QuestionBank, corpus: Corpus, siteURL: String?) throws {
            if let export {
                let data = try BankExport.json(bank: bank, topics: corpus.topics, siteURL: siteURL)
                try write(data, to: export)
                print("Wrote \(bank.questions.count) questions to \(export).")
            }
            if let exportAnki {
                try write(Data(BankExport.anki(bank: bank, siteURL: siteURL).utf8), to: exportAnki)
                print("Wrote \(bank.questions.count) notes for Anki to \(exportAnki) (File > Import; the header lines set the rest).")
            }
        }

        func write(_ data: Data, to path: String) throws {
            do { try data.write(to: URL(fileURLWithPath: path), options: .atomic) } catch {
                throw fail("cannot write \(path): \((error as NSError).localizedDescription)")
            }
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

        /// Where explanations link a rule's page: --site-url, else $BGKB_SITE_URL, else the
        /// `file://` URL of the site next to the learner (`Site/` of the repository they are in),
        /// else of the site in the checkout this binary was built from, when it is still there.
        static func siteURL(option: String?, environment: [String: String]) -> String? {
            if let option, !option.isEmpty { return option }
            if let url = environment["BGKB_SITE_URL"], !url.isEmpty { return url }
            let files = FileManager.default
            let here = URL(fileURLWithPath: files.currentDirectoryPath).appendingPathComponent("Site")
            if files.fileExists(atPath: here.appendingPathComponent("rules").path) { return here.absoluteString }
            let checkout = URL(fileURLWithPath: #filePath)
                .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            let site = checkout.appendingPathComponent("Site")
            if files.fileExists(atPath: site.appendingPathComponent("rules").path) { return site.absoluteString }
            return nil
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

/// Standard input and output for the session (the system calls are in BGKBQuiz's SystemCalls.swift).
struct StandardTerminal: QuizTerminal {
    var reader = LineReader(source: StandardInput())

    mutating func write(_ text: String) {
        // Unbuffered: the prompt must show before the read blocks.
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    mutating func readLine() -> InputLine { reader.next() }
}
