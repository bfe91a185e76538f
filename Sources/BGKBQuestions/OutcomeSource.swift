import BGKBModel
import Foundation

/// The conditions a scenario is run under for a predict-the-outcome question. `asWritten` is the
/// example as its author wrote it; the others are variations whose outcomes make the distractors.
public struct RunConditions: Hashable, Sendable, CustomStringConvertible {
    /// Background budget in seconds; nil keeps the engine's default (about 30 s).
    public var budget: Double?
    /// The system refuses `beginBackgroundTask` (S1).
    public var beginRefused: Bool
    /// The refusal is the newer documented way: the expiration handler is called at once,
    /// rather than `.invalid` returned.
    public var refusedThroughHandler: Bool
    /// The system calls the app's tasks in early, `earlyExpiryDelay` after the app enters the
    /// background (the sources say expiry may come at any time).
    public var earlyExpiry: Bool

    public static let earlyExpiryDelay = 1.0

    public init(budget: Double? = nil, beginRefused: Bool = false, refusedThroughHandler: Bool = false, earlyExpiry: Bool = false) {
        self.budget = budget
        self.beginRefused = beginRefused || refusedThroughHandler
        self.refusedThroughHandler = refusedThroughHandler
        self.earlyExpiry = earlyExpiry
    }

    public static let asWritten = RunConditions()

    /// Variations asked about and tried for distractors, in order: shorter budgets, then a
    /// refused begin, either way the sources describe.
    public static let variations: [RunConditions] = [
        RunConditions(budget: 0), RunConditions(budget: 1), RunConditions(budget: 5),
        RunConditions(beginRefused: true), RunConditions(refusedThroughHandler: true), RunConditions(earlyExpiry: true),
    ]

    /// Names the conditions in the table of outcomes computed at build time (`budget=0 refused=0`;
    /// `budget=-` keeps the scenario's own). The EmbedContent tool writes the same keys.
    public var tableKey: String {
        "budget=" + (budget.map { String($0) } ?? "-") + " refused=" + (beginRefused ? "1" : "0") + (refusedThroughHandler ? " handler=1" : "") + (earlyExpiry ? " early=1" : "")
    }

    /// Every condition a question may ask about.
    public static let all: [RunConditions] = [asWritten] + variations

    public var description: String {
        var parts: [String] = []
        if let budget { parts.append("a budget of \(budget == budget.rounded() ? String(Int(budget)) : String(budget)) s") }
        if earlyExpiry { parts.append("an early expiry") }
        if refusedThroughHandler {
            parts.append("a beginBackgroundTask refused through its expiration handler")
        } else if beginRefused {
            parts.append("a refused beginBackgroundTask")
        }
        return parts.isEmpty ? "the default conditions" : parts.joined(separator: " and ")
    }
}

/// Runs an example under some conditions and says how it ends, or nil when the engine cannot run
/// it. The quiz never decides an outcome itself: the CLI passes the engine, tests pass the engine
/// or a stand-in, and every outcome answer is whatever this returns.
public typealias OutcomeSource = @Sendable (Example, RunConditions) -> SimulationOutcome?

extension SimulationOutcome {
    /// The outcome as a choice: its kind, code and reason, without the time (two runs that end the
    /// same way at different instants are the same answer to a person).
    public var choiceText: String {
        switch self {
        case .suspended: return "The app is suspended cleanly"
        case .stillRunning: return "The app is still running"
        case let .terminated(code, reason, _): return "Terminated with \(code) (\(withoutNames(reason)))"
        case let .crashed(reason, _): return "Crashes: \(withoutNames(reason))"
        // Never offered (`QuestionGenerator.outcome` drops such runs); named for completeness.
        case .undecided: return "The simulator cannot tell"
        }
    }

    /// Reasons name the scenario's tasks (`task 1 "Upload"`); a distractor from another scenario
    /// would give itself away by a name the listing does not have, and "task 1" and "task 2"
    /// would read as two answers when they are one: names go, and numbered tasks become "a task".
    func withoutNames(_ reason: String) -> String {
        var result = ""
        var quoted = false
        for character in reason {
            if character == "\"" {
                quoted.toggle()
                if quoted, result.last == " " { result.removeLast() }
                continue
            }
            if quoted { continue }
            if character.isNumber, result.hasSuffix("task ") || (result.last?.isNumber == true && result.hasSuffix("a task")) {
                if !result.hasSuffix("a task") {
                    result.removeLast("task ".count)
                    if result.hasSuffix("the ") || result.hasSuffix("The ") { result.removeLast(4) }
                    result += "a task"
                }
                continue
            }
            if character.isNumber, result.hasSuffix("a task") { continue }
            result.append(character)
        }
        return result
    }
}

/// Remembers what an outcome source said for each example and conditions. The engine is a pure
/// function of those, so asking twice is wasted time at start-up.
final class OutcomeCache: @unchecked Sendable {
    private struct Key: Hashable {
        var example: ExampleKey
        var conditions: RunConditions
    }

    // The lock makes the cache safe to share, as `OutcomeSource` is `@Sendable`.
    private let lock = NSLock()
    private var results: [Key: SimulationOutcome?] = [:]
    private let source: OutcomeSource

    private init(source: @escaping OutcomeSource) { self.source = source }

    static func memoizing(_ source: @escaping OutcomeSource) -> OutcomeSource {
        let cache = OutcomeCache(source: source)
        return { example, conditions in cache.outcome(example, conditions) }
    }

    func outcome(_ example: Example, _ conditions: RunConditions) -> SimulationOutcome? {
        let key = Key(example: ExampleKey(example), conditions: conditions)
        lock.lock()
        if let known = results[key] {
            lock.unlock()
            return known
        }
        lock.unlock()
        let result = source(example, conditions)
        lock.lock()
        results[key] = result
        lock.unlock()
        return result
    }
}

/// An example as a dictionary key that hashes only where it is (and how long its text is), not
/// its whole text: start-up looks every example up several times, and hashing each scenario's
/// text every time was a seventh of it on a large corpus. Equality still compares the whole
/// example, so two examples that hash alike are never confused.
struct ExampleKey: Hashable, Sendable {
    let example: Example

    init(_ example: Example) { self.example = example }

    func hash(into hasher: inout Hasher) {
        hasher.combine(example.location.path)
        hasher.combine(example.location.line)
        hasher.combine(example.location.column)
        hasher.combine(example.text.utf8.count)
    }

    static func == (a: ExampleKey, b: ExampleKey) -> Bool { a.example == b.example }
}

/// Every example's outcome under every condition (`RunConditions.all`), run on all cores at once
/// and found by where the example is: no lock, and no example copied into a key and hashed.
final class OutcomeTable: Sendable {
    private let examples: [Example]
    private let rows: [[SimulationOutcome?]]
    private let rowByLocation: [SourceLocation: Int]

    init(examples: [Example], source: OutcomeSource) {
        self.examples = examples
        rows = ParallelMap.map(examples) { example in RunConditions.all.map { source(example, $0) } }
        var rowByLocation: [SourceLocation: Int] = [:]
        rowByLocation.reserveCapacity(examples.count)
        for (row, example) in examples.enumerated() where rowByLocation[example.location] == nil {
            rowByLocation[example.location] = row
        }
        self.rowByLocation = rowByLocation
    }

    /// `.some(outcome)` for an example the table holds (the one at its place, equal to it), nil
    /// for any other.
    func outcome(_ example: Example, _ conditions: RunConditions) -> SimulationOutcome?? {
        guard let row = rowByLocation[example.location], examples[row] == example,
              let column = RunConditions.all.firstIndex(of: conditions) else { return nil }
        return .some(rows[row][column])
    }
}

/// Holds the table once it is made: the generator is a value shared by every core, and the table
/// is made before the questions and only read while they are.
final class OutcomeTableBox: @unchecked Sendable {
    var table: OutcomeTable?
}
