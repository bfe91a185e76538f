import BGKBEngine
import BGKBModel

/// What an example says, in sentences made from the parsed scenario (its system conditions,
/// timeline and expectations) and from the run the engine chose to show: a reader sees
/// "if the system grants the task and only expires it when time runs out, the watchdog kills the
/// app with 0x8badf00d after about 30 s" instead of the scenario's `system` and `expect` lines.
struct ExampleProse: Sendable, Equatable {
    /// The app's code: the scenario without its top-level `system`, `expect`, `at` and
    /// `Info.plist` lines, which the sentences say instead.
    var code: String
    /// "If the system grants the task and only expires it when time runs out" (no full stop).
    var conditions: String
    /// When the app's events happen: the scenario's timeline, which `writeTimeline` says as a sentence.
    var timeline: [TimelineItem]
    /// "the watchdog kills the app with 0x8badf00d after about 30 s" (no capital, no full stop).
    var expectation: String
    /// Whether any expectation is a kill, a crash or a warning: what an app must avoid.
    var expectsHarm: Bool

    /// `scenario`: the example's scenario as the engine parsed it; nil parses it here.
    init(example: Example, scenario: Scenario? = nil) {
        code = Self.code(example.text)
        guard let scenario = scenario ?? ScenarioParser.parse(example.text, at: example.location).0 else {
            conditions = ""
            timeline = []
            expectation = ""
            expectsHarm = false
            return
        }
        conditions = Self.conditions(scenario.conditions, begins: TextScan.contains(code, "beginBackgroundTask"))
        timeline = scenario.timeline
        let expectations = scenario.expectations
        expectation = Self.join(expectations.map(Self.expectation), with: "and")
        expectsHarm = expectations.contains { Self.isHarm($0.kind) }
    }

    /// Top-level lines that are the simulator's, not the app's code: `line[start..<end]` with its
    /// indentation already skipped. The first byte decides most lines: only four can start one.
    static func isDirective(_ line: [UInt8], from start: Int, to end: Int) -> Bool {
        func starts(with prefix: StaticString) -> Bool {
            let count = prefix.utf8CodeUnitCount
            guard end - start >= count else { return false }
            return prefix.withUTF8Buffer { $0.elementsEqual(line[start..<start + count]) }
        }
        guard start < end else { return false }
        switch line[start] {
        case UInt8(ascii: "s"): return starts(with: "system ")
        case UInt8(ascii: "e"): return starts(with: "expect ") || (end - start == 6 && starts(with: "expect"))
        case UInt8(ascii: "I"): return starts(with: "Info.plist")
        case UInt8(ascii: "a"): return starts(with: "at ") && line[start..<end].contains(UInt8(ascii: ":"))
        default: return false
        }
    }

    /// The scenario's code: directive lines at brace depth 0 dropped, runs of blank lines made
    /// one, blank lines at either end removed. Every byte it looks for is ASCII, so it walks the
    /// UTF-8 bytes, each line once (`scanLine`), and copies the lines it keeps whole.
    static func code(_ text: String) -> String {
        let bytes = Array(text.utf8)
        var kept: [UInt8] = []
        kept.reserveCapacity(bytes.count)
        // Where the kept text ends after its last line with something on it: blank lines after it
        // are cut at the end.
        var endOfLastFilledLine = 0
        var lastKeptLineIsBlank = true
        var depth = 0
        var lineStart = 0
        while lineStart <= bytes.count {
            var first = lineStart
            while first < bytes.count, bytes[first] == UInt8(ascii: " ") || bytes[first] == UInt8(ascii: "\t") { first += 1 }
            let (lineEnd, balance) = scanLine(bytes, from: first)
            let blank = first == lineEnd
            let directive = depth == 0 && isDirective(bytes, from: first, to: lineEnd)
            // A blank line right after another kept blank line, or before any kept line, is dropped.
            if !directive && !(blank && lastKeptLineIsBlank) {
                if !kept.isEmpty { kept.append(UInt8(ascii: "\n")) }
                kept.append(contentsOf: bytes[lineStart..<lineEnd])
                lastKeptLineIsBlank = blank
                if !blank { endOfLastFilledLine = kept.count }
            }
            depth += balance
            lineStart = lineEnd + 1
        }
        kept.removeSubrange(endOfLastFilledLine...)
        return String(decoding: kept, as: UTF8.self)
    }

    /// Where the line that goes on at `start` ends (its line feed, or the end of the bytes), and
    /// its `{` minus `}` from `start` on, outside string literals and after-`//` comments.
    static func scanLine(_ bytes: [UInt8], from start: Int) -> (end: Int, braceBalance: Int) {
        var balance = 0
        var index = start
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\n"):
                return (index, balance)
            case UInt8(ascii: "{"):
                balance += 1
            case UInt8(ascii: "}"):
                balance -= 1
            case UInt8(ascii: "\""):
                index = endOfStringLiteral(bytes, from: index + 1)
                // A literal cut short by the end of its line ends the line's scan too.
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return (index, balance) }
            case UInt8(ascii: "/") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "/"):
                return (bytes[index...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count, balance)
            default:
                break
            }
            index += 1
        }
        return (index, balance)
    }

    /// Where the string literal whose text starts at `start` ends: its closing quote, or the line
    /// feed (or the end of the bytes) that cuts it short. A backslash escapes the byte after it
    /// (`\"`), unless that byte ends the line.
    static func endOfStringLiteral(_ bytes: [UInt8], from start: Int) -> Int {
        var index = start
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\n") { return index }
            if byte == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] != UInt8(ascii: "\n") { index += 1 }
            index += 1
        }
        return index
    }

    /// The conditions as the opening clause of a sentence: "If the system grants the task and
    /// only expires it when time runs out" or "Whether the system grants the task or refuses it,
    /// and whenever it expires it". `begins`: whether the code begins a background task at all
    /// (when it does not, granting and refusing say nothing and are left out).
    static func conditions(_ conditions: Conditions, begins: Bool = true) -> String {
        var lead: String
        let explored = conditions.refusal == nil || (conditions.refusal?.contains(.none) == true && (conditions.refusal?.count ?? 0) > 1)
        if !begins {
            lead = conditions.expiryOnlyAtEnd ? "If the system expires tasks only when their time runs out" : "Whenever the system expires tasks"
        } else if explored {
            lead = "Whether the system grants the task or refuses it"
            lead += conditions.expiryOnlyAtEnd ? " (expiring it only when time runs out)" : ", and whenever it expires it"
        } else {
            switch conditions.refusal ?? [] {
            case [.none]: lead = "If the system grants the task"
            case [.returnsInvalid]: lead = "If the system refuses the task by returning .invalid"
            case [.callsExpirationHandler]: lead = "If the system refuses the task by calling its expiration handler at once"
            default: lead = "If the system refuses the task (either way it can)"
            }
            lead += conditions.expiryOnlyAtEnd ? " and only expires it when time runs out" : " and expires it at any moment"
        }
        var extras: [String] = []
        if let budget = conditions.budget { extras.append("with a background time budget of \(Format.duration(budget))") }
        if !conditions.network { extras.append("with no network") }
        if conditions.externalPower { extras.append("on external power") }
        if !conditions.backgroundAppRefresh { extras.append("with Background App Refresh off") }
        if let now = conditions.continuedRunsNow {
            extras.append(now ? "with room to start a continued processing task at once" : "with no room to start a continued processing task at once")
        }
        return extras.isEmpty ? lead : lead + ", " + join(extras, with: "and")
    }

    /// "At 0 s the app launches, then at 1 s the app goes to the background.": every clause
    /// starts with its time, so the sentence's capital is the first clause's `At`. Written where
    /// the page has it, not made a String first.
    static func writeTimeline(_ items: [TimelineItem], into w: inout HTMLWriter) {
        guard !items.isEmpty else { return w.markup("The app launches at 0\u{00A0}s and goes to the background at 1\u{00A0}s.") }
        for (index, item) in items.enumerated() {
            if index > 0 { w.markup(index == items.count - 1 ? ", then at " : ", at ") } else { w.markup("At ") }
            w.duration(item.time)
            switch item.event {
            case .launch: w.markup(" the app launches")
            case .enterBackground: w.markup(" the app goes to the background")
            case .enterForeground: w.markup(" the app comes back to the foreground")
            case .push: w.markup(" a background push arrives")
            case .reclaim: w.markup(" the system terminates the suspended app")
            case let .systemLaunches(identifier): w.markup(" the system launches the task \u{201C}"); w.text(identifier); w.markup("\u{201D}")
            case let .call(function): w.markup(" the app calls "); w.text(function); w.markup("()")
            case let .urlSessionFinishes(identifier):
                w.markup(" the background URLSession \u{201C}"); w.text(identifier); w.markup("\u{201D} finishes its transfers")
            case .forceQuit: w.markup(" the user force quits the app")
            }
        }
        w.markup(".")
    }

    static func expectation(_ expectation: Expectation) -> String {
        var text: String
        switch expectation.kind {
        case .suspended: text = "the app ends suspended with every task ended"
        case .running: text = "the app is still running at the end"
        case let .terminated(code?) where code.lowercased() == "0x8badf00d": text = "the watchdog kills the app with 0x8badf00d"
        case let .terminated(code?): text = "the system kills the app with \(code)"
        case .terminated(nil): text = "the system kills the app"
        case let .crash(message?): text = "the app crashes (\u{201C}\(message)\u{201D})"
        case .crash(nil): text = "the app crashes"
        case let .warning(message): text = "iOS logs a warning containing \u{201C}\(message)\u{201D}"
        case let .log(message): text = "the run mentions \u{201C}\(message)\u{201D}"
        case let .printed(message): text = "the code prints \u{201C}\(message)\u{201D}"
        case .taskCompleted: text = "every task the system launched is completed"
        case .completionHandlerCalled: text = "the app calls the background session's completion handler on the main thread"
        case let .state(condition): text = "the condition \(condition) holds when the run ends"
        }
        if let around = expectation.around { text += " after about \(Format.duration(around))" }
        return text
    }

    static func isHarm(_ kind: Expectation.Kind) -> Bool {
        switch kind {
        case .terminated, .crash, .warning: return true
        default: return false
        }
    }

    /// `a`, `a and b`, `a, b and c` (with `then` or `and`).
    static func join(_ parts: [String], with word: String) -> String {
        switch parts.count {
        case 0: return ""
        case 1: return parts[0]
        default: return parts.dropLast().joined(separator: ", ") + " \(word) " + parts[parts.count - 1]
        }
    }
}

/// What an example shows a reader, from its intent and the outcome the engine found: correct
/// code to copy, buggy code to recognise, or what the system does (a `follows` example whose
/// expected outcome is a kill shows what happens, not code to copy).
enum ExampleLabel: String, Sendable, CaseIterable {
    case correctCode = "correct"
    case buggyCode = "buggy"
    case whatHappens = "happens"

    init(intent: Example.Intent, expectsHarm: Bool, outcome: OutcomeTone) {
        switch intent {
        case _ where outcome == .undecided: self = .whatHappens
        case .follows: self = expectsHarm || outcome != .good ? .whatHappens : .correctCode
        case .breaks: self = outcome == .good ? .whatHappens : .buggyCode
        }
    }

    var title: String {
        switch self {
        case .correctCode: return "Correct code"
        case .buggyCode: return "Buggy code"
        case .whatHappens: return "What happens"
        }
    }
}

/// What a run's outcome means for the app: the verdict box's colour.
enum OutcomeTone: String, Sendable, CaseIterable {
    /// Suspended or still running, nothing logged.
    case good
    /// It survived, but iOS logged a warning.
    case warning
    /// Killed by the system or crashed.
    case bad
    /// The simulator stopped the run at its own limit: nothing is known about how it ends.
    case undecided

    init(_ trace: SimulationTrace) {
        switch trace.outcome {
        case .terminated, .crashed: self = .bad
        case .suspended, .stillRunning: self = trace.events.indices.contains { trace.events[$0].kind == .log } ? .warning : .good
        case .undecided: self = .undecided
        }
    }

    /// The run's end as a sentence, from the engine's outcome, written as HTML once: the verdict
    /// box and the timeline's description both copy it.
    static func sentenceHTML(_ trace: SimulationTrace) -> [UInt8] {
        var w = HTMLWriter(capacity: 160)
        let time = trace.outcome.time
        switch trace.outcome {
        case .suspended:
            w.markup("The app is suspended at "); w.duration(time); w.markup(" with every task ended.")
        case .stillRunning:
            w.markup("The app is still running at "); w.duration(time); w.markup(".")
        case let .terminated(code, reason, _):
            w.markup(code.lowercased() == "0x8badf00d" ? "The watchdog" : "The system")
            // After a colon, not in parentheses: the engine's reasons hold parentheses of their own.
            w.markup(" kills the app with "); w.text(code); w.markup(" at "); w.duration(time); w.markup(": "); w.text(reason); w.markup(".")
        case let .crashed(reason, _):
            w.markup("The app crashes at "); w.duration(time); w.markup(": "); w.text(reason); w.markup(".")
        case let .undecided(limit, _):
            w.markup("The simulator stops the run at "); w.duration(time); w.markup(", undecided: "); w.text("\(limit)"); w.markup(".")
        }
        // Counted by index: the events are read in place, not copied.
        var warningCount = 0
        var firstWarning: Int?
        for index in trace.events.indices where trace.events[index].kind == .log {
            warningCount += 1
            if firstWarning == nil { firstWarning = index }
        }
        if let firstWarning {
            if warningCount == 1 {
                w.markup(" iOS logs a warning: \u{201C}")
            } else {
                w.markup(" iOS logs "); w.number(warningCount); w.markup(" warnings, the first: \u{201C}")
            }
            w.text(trace.events[firstWarning].detail)
            w.markup("\u{201D}.")
        }
        return w.bytes.array
    }
}
