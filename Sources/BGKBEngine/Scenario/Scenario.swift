import BGKBModel

/// A parsed, name-resolved scenario: what the app's code does, under which system conditions,
/// on which timeline, and what it expects. Blocks and statements live in flat arrays indexed by
/// small integers so the simulator's hot path never touches a string or a dictionary.
public struct Scenario: Sendable, Hashable {
    /// The scenario's source, verbatim (for timelines: a step is shown as its line of code).
    public internal(set) var text = ""
    /// Where each line starts in `text`'s UTF-8 (found by `ScenarioLexer.tokenize`): a line is cut
    /// out when a timeline shows it, instead of every line being made a String at parse time.
    var lineStarts: [Int32] = [0]

    /// The source lines: the text cut at each line feed (a carriage return before one stays in
    /// its line).
    public var lines: [String] { (1...lineStarts.count).map { String(line($0) ?? "") } }

    /// Line `number` (1-based) of the source, `lines[number - 1]` without splitting the text.
    func line(_ number: Int) -> Substring? {
        guard number >= 1, number <= lineStarts.count else { return nil }
        let utf8 = text.utf8
        let start = utf8.index(utf8.startIndex, offsetBy: Int(lineStarts[number - 1]))
        let end = number < lineStarts.count ? utf8.index(utf8.startIndex, offsetBy: Int(lineStarts[number]) - 1) : utf8.endIndex
        return text[start..<end]
    }
    /// Interned strings: task names, identifiers, printed text.
    var strings: [String] = []
    var globals: [Global] = []
    var queues: [Queue] = []
    var locks: [String] = []
    var blocks: [Block] = []
    var statements: [Statement] = []
    var functions: [Function] = []
    /// Block run for each app event the scenario handles.
    var handlers: [AppEvent: Int32] = [:]
    public internal(set) var timeline: [TimelineItem] = []
    public internal(set) var conditions = Conditions()
    public internal(set) var expectations: [Expectation] = []
    /// Identifiers listed in Info.plist's BGTaskSchedulerPermittedIdentifiers (nil: not stated, all allowed).
    var permittedIdentifiers: [Int32]?

    /// The app events a scenario can handle with `on ... { }`.
    public enum AppEvent: String, Sendable, Hashable, CaseIterable {
        case didFinishLaunching, didEnterBackground, willEnterForeground, didReceiveRemoteNotification
        case handleEventsForBackgroundURLSession, urlSessionDidFinishEvents
    }
    /// Globals that hold an object made when the process launches (`let sem = DispatchSemaphore(value: 0)`).
    var objectGlobals: [ObjectGlobal] = []

    struct Global: Sendable, Hashable {
        var name: String
        var type: ValueType
        var initial: Value
        /// `@AppStorage`: survives the process (a relaunch keeps its value).
        var persistent = false
    }

    struct Queue: Sendable, Hashable {
        var label: String
        var concurrent: Bool
    }

    struct Function: Sendable, Hashable {
        var name: String
        var block: Int32
    }

    struct Block: Sendable, Hashable {
        var statements: [Int32] = []
        /// Locals visible when the block starts (captured ones plus closure parameters).
        var localsAtEntry: Int32 = 0
        /// For a closure: how many of those are captured from the enclosing scope.
        var captured: Int32 = 0
        /// For a closure: names of its parameters (`task`, `expired`), bound when it is invoked.
        var parameters: Int32 = 0
    }

    /// A point in the block text: 1-based line and column.
    struct Place: Sendable, Hashable {
        var line: Int32
        var column: Int32
    }

    struct Statement: Sendable, Hashable {
        var kind: StatementKind
        var place: Place
    }
}

/// The static type of a variable, enough to catch the mistakes Swift's compiler would.
enum ValueType: Sendable, Hashable {
    case optionalIdentifier, identifier, bool, int, request, task, push, unknown
    case semaphore, group, session, completion
}

/// A value at run time. Trivial payloads only: copying one costs nothing.
enum Value: Sendable, Hashable {
    case none
    /// A UIBackgroundTaskIdentifier; 0 is `.invalid`.
    case identifier(Int32)
    case bool(Bool)
    case int(Int)
    /// A BGTask handed to a launch handler.
    case task(Int32)
    /// A BGTaskRequest under construction (index into the run's requests).
    case request(Int32)
    /// A push's fetch completion handler.
    case push(Int32)
    /// A DispatchSemaphore, a DispatchGroup, a URLSession (indices into the run's objects).
    case semaphore(Int32)
    case group(Int32)
    case session(Int32)
    /// The completion handler `handleEventsForBackgroundURLSession` receives.
    case completion(Int32)
}

enum VariableRef: Sendable, Hashable {
    case global(Int32)
    case local(Int32)
}

enum QueueRef: Sendable, Hashable {
    case main
    case global
    case named(Int32)
}

enum Expression: Sendable, Hashable {
    case literal(Value)
    case read(VariableRef)
    /// `x!`: crashes when x is nil.
    case unwrap(VariableRef)
    case backgroundTimeRemaining
    case begin(name: Int32?, handler: Int32?)
    case refreshRequest(identifier: Int32)
    case processingRequest(identifier: Int32)
    /// `Date(timeIntervalSinceNow:)`, seconds.
    case dateFromNow(Double)
    /// Dispatch objects, URLSession and continued processing (Scenario+Concurrency.swift).
    case object(ObjectExpression)
}

enum Condition: Sendable, Hashable {
    case compare(Expression, Comparison, Expression)
    case truthy(Expression)
    indirect case not(Condition)
    indirect case and(Condition, Condition)
    indirect case or(Condition, Condition)
}

enum Comparison: String, Sendable, Hashable {
    case equal = "==", notEqual = "!=", less = "<", greater = ">", lessOrEqual = "<=", greaterOrEqual = ">="
}

enum RequestProperty: String, Sendable, Hashable {
    case earliestBeginDate, requiresExternalPower, requiresNetworkConnectivity
}

enum StatementKind: Sendable, Hashable {
    /// A local `let`/`var`: allocates a fresh variable (closures capture it by reference).
    case declare(slot: Int32, initial: Expression?)
    case assign(VariableRef, Expression)
    case add(VariableRef, Int)
    case evaluate(Expression)
    case end(Expression)
    case work(Double)
    case print(Int32)
    case dispatch(QueueRef, block: Int32, sync: Bool)
    case withLock(Int32, block: Int32)
    case call(function: Int32)
    case branch(Condition, then: Int32, else: Int32?)
    case loop(count: Int, block: Int32)
    case returnFromBlock
    case register(identifier: Int32, queue: QueueRef?, block: Int32)
    case submit(Expression)
    case setRequest(VariableRef, RequestProperty, Expression)
    case setTaskCompleted(Expression, success: Bool)
    case setExpirationHandler(Expression, block: Int32?)
    case completePush(Expression)
    case performExpiringActivity(reason: Int32, block: Int32)
    /// Dispatch, Swift concurrency, URLSession and continued processing (Scenario+Concurrency.swift).
    case concurrency(ConcurrencyStatement)
}

/// An outside event at a virtual time.
public struct TimelineItem: Sendable, Hashable {
    public enum Event: Sendable, Hashable {
        case launch, enterBackground, enterForeground, push
        /// The system reclaims a suspended (or background) app: the next launch is a new process.
        case reclaim
        case systemLaunches(String)
        case call(String)
        /// `background URLSession "id" finishes`: the transfers of that session are done.
        case urlSessionFinishes(String)
        /// `user force quits app`: removed in the app switcher.
        case forceQuit
    }
    public var time: Double
    public var event: Event
    var function: Int32 = -1
    var line: Int32 = 0
}

/// System conditions the scenario states. What it does not pin, the explorer varies.
public struct Conditions: Sendable, Hashable {
    public enum Refusal: String, Sendable, Hashable, CaseIterable {
        /// beginBackgroundTask grants the task.
        case none
        /// It returns `.invalid` (the older documented behaviour).
        case returnsInvalid = "returns-invalid"
        /// It calls the expiration handler at once (the newer documented behaviour).
        case callsExpirationHandler = "calls-expiration-handler"
    }
    /// `system budget 30s`: the background-task budget, pinned.
    public var budget: Double?
    /// `system refuses/grants beginBackgroundTask`: nil means explored.
    public var refusal: [Refusal]?
    /// `system expires tasks only when time runs out`: no forced early expiry.
    public var expiryOnlyAtEnd = false
    public var network = true
    public var externalPower = false
    public var backgroundAppRefresh = true
    /// `system runs continued processing now` / `... cannot run ...`: nil means explored.
    public var continuedRunsNow: Bool?
}

/// An `expect` line.
public struct Expectation: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        case suspended
        case running
        case terminated(code: String?)
        case crash(containing: String?)
        case warning(containing: String)
        /// Any event of the run (a system decision, a warning, a step) mentions the text.
        case log(containing: String)
        case printed(String)
        case taskCompleted
        /// Every completion handler `handleEventsForBackgroundURLSession` received was called, on main.
        case completionHandlerCalled
        /// `expect finished && !cancelled`: a condition on the app's variables when the run ends.
        case state(String)
    }
    public var kind: Kind
    /// `around 30s`: the outcome's time, within max(1 s, 10 %).
    public var around: Double?
    var line: Int32
    /// For `.state`: the condition to test.
    var condition: Condition?

    public var text: String {
        var base: String
        switch kind {
        case .suspended: base = "suspended"
        case .running: base = "running"
        case let .terminated(code): base = "terminated" + (code.map { " \($0)" } ?? "")
        case let .crash(text): base = "crash" + (text.map { " \"\($0)\"" } ?? "")
        case let .warning(text): base = "warning \"\(text)\""
        case let .log(text): base = "log \"\(text)\""
        case let .printed(text): base = "printed \"\(text)\""
        case .taskCompleted: base = "task completed"
        case .completionHandlerCalled: base = "completion handler called"
        case let .state(text): base = text
        }
        if let around { base += " around \(formatSeconds(around))" }
        return base
    }
}

/// `30s`, `1.5s`, `0.001s`: short and exact enough for a timeline.
func formatSeconds(_ seconds: Double) -> String {
    if let whole = wholeSeconds(seconds) { return "\(whole)s" }
    var text = String(format3(seconds))
    while text.hasSuffix("0") { text.removeLast() }
    if text.hasSuffix(".") { text.removeLast() }
    return text + "s"
}

/// The time as a whole number of seconds, when it is one (and below 1e15, so the Int is exact):
/// `formatSeconds` writes it as that integer.
func wholeSeconds(_ seconds: Double) -> Int? {
    seconds == seconds.rounded() && abs(seconds) < 1e15 ? Int(seconds) : nil
}

/// A whole number from scenario text or the clock, clamped so no input can trap the conversion.
func clampedInt(_ value: Double) -> Int {
    guard value.isFinite else { return value > 0 ? 1_000_000_000_000_000 : (value < 0 ? -1_000_000_000_000_000 : 0) }
    return Int(max(-1e15, min(1e15, value)))
}

/// Three decimals without Foundation's String(format:).
func format3(_ value: Double) -> String {
    guard value.isFinite, abs(value) < 1e12 else { return String(value) }
    let negative = value < 0
    let scaled = Int((abs(value) * 1000).rounded())
    let whole = scaled / 1000
    let fraction = scaled % 1000
    var digits = String(fraction)
    while digits.count < 3 { digits = "0" + digits }
    return (negative ? "-" : "") + "\(whole).\(digits)"
}
