import BGKBModel

/// Turns scenario text into a `Scenario`, or into diagnostics that point at the line and column
/// of the problem. It reads a small, Swift-shaped language: see the "Scenarios" section of
/// Content/README.md.
public struct ScenarioParser {
    struct Problem: Sendable, Hashable {
        var id: String
        var message: String
        var place: Scenario.Place
    }

    /// The scenario's UTF-8 bytes, which the tokens point into.
    let source: [UInt8]
    var tokens: [ScenarioToken]
    var position = 0
    var scenario = Scenario()
    var problems: [Problem] = []
    /// The name of each of `scenario.queues` (a queue keeps its label).
    var queueNames: [String] = []
    /// The locals in scope in the function or closure being compiled, innermost last: a block's
    /// locals are appended as they are declared and removed when it closes. They are few, so a
    /// name is looked for from the end rather than hashed.
    var locals: [(name: String, slot: Int32, type: ValueType)] = []
    var localCount: Int32 = 0
    /// Token positions of top-level declarations already parsed by the first pass.
    var declared: Set<Int> = []
    /// Whether the code being read runs on the main actor (a UIKit delegate method, a block on
    /// main, a `Task` started there), so a `Task { }` it starts does too.
    var onMainActor = true
    /// Where each of `scenario.expectations` starts, for diagnostics found after parsing.
    var expectationPlaces: [Scenario.Place] = []

    /// Parses `text`. `origin` is where its first line sits in its Content file, so diagnostics
    /// read `path:line:column` there.
    public static func parse(_ text: String, at origin: SourceLocation) -> (Scenario?, Diagnostics) {
        let lexed = ScenarioLexer.tokenize(text)
        var parser = ScenarioParser(source: lexed.source, tokens: lexed.tokens)
        parser.scenario.text = text
        parser.scenario.lineStarts = lexed.lineStarts
        for problem in lexed.problems {
            parser.problems.append(Problem(id: "scenario-syntax", message: problem.message,
                                           place: .init(line: problem.line, column: problem.column)))
        }
        parser.parseFile()
        var diagnostics = Diagnostics()
        for problem in parser.problems.prefix(20) {
            let location = SourceLocation(path: origin.path, line: origin.line + Int(problem.place.line) - 1,
                                          column: Int(problem.place.column) + origin.column - 1)
            diagnostics.error(problem.id, problem.message, at: location)
        }
        return (diagnostics.hasErrors ? nil : parser.scenario, diagnostics)
    }

    init(source: [UInt8], tokens: [ScenarioToken]) {
        self.source = source
        self.tokens = tokens
    }

    // MARK: Tokens

    var current: ScenarioToken { tokens[min(position, tokens.count - 1)] }
    var place: Scenario.Place { .init(line: current.line, column: current.column) }
    mutating func advance() { if position < tokens.count - 1 { position += 1 } }

    // These helpers test with `guard` rather than `&&` and `||`: the right side of those is a
    // closure, and a closure that reads `self` is handed a copy of the whole parser.

    func isSymbol(_ symbol: ScenarioSymbol) -> Bool {
        if case let .symbol(s) = current.kind { return s == symbol }
        return false
    }

    /// Whether the current token is `first` or `second`.
    func isSymbol(_ first: ScenarioSymbol, or second: ScenarioSymbol) -> Bool {
        if case let .symbol(s) = current.kind { return s == first || s == second }
        return false
    }

    /// Whether the current token is the identifier `keyword`.
    func isWord(_ keyword: StaticString) -> Bool {
        isWord(keyword, at: position)
    }

    /// Whether the current token is the identifier `first` or `second`.
    func isWord(_ first: StaticString, or second: StaticString) -> Bool {
        if isWord(first, at: position) { return true }
        return isWord(second, at: position)
    }

    /// Whether the token after the current one is the identifier `keyword`.
    func nextIsWord(_ keyword: StaticString) -> Bool {
        isWord(keyword, at: position + 1)
    }

    /// Whether the token at `index` is the identifier `keyword`.
    func isWord(_ keyword: StaticString, at index: Int) -> Bool {
        guard index < tokens.count else { return false }
        let token = tokens[index]
        guard token.kind == .identifier else { return false }
        return token.word(in: source) == keyword
    }

    /// The current token's name, if it is an identifier.
    var currentName: String? {
        current.kind == .identifier ? current.name(in: source) : nil
    }

    /// A token as a diagnostic shows it.
    func text(_ token: ScenarioToken) -> String { token.text(in: source) }

    /// `at 10s:` rather than a variable named `at`.
    var isTimelineLine: Bool {
        guard position + 1 < tokens.count else { return false }
        return tokens[position + 1].kind == .number
    }

    /// Whether the current token starts a line that only the top level holds (`expect`, `on`,
    /// `func`, `system`, `at 10s:`): inside a block, a sign that a `}` is missing.
    var startsTopLevelLine: Bool {
        guard current.kind == .identifier else { return false }
        switch current.word(in: source) {
        case "expect", "on", "func", "system": return true
        case "at": return isTimelineLine
        default: return false
        }
    }

    var atLineEnd: Bool {
        switch current.kind {
        case .newline, .end: return true
        case .symbol(";"): return true
        default: return false
        }
    }

    mutating func fail(_ message: String, at where: Scenario.Place? = nil, id: String = "scenario-syntax") {
        problems.append(Problem(id: id, message: message, place: `where` ?? place))
    }

    /// How deep parentheses, `!`, `&&`/`||` chains, blocks and `else if`s may nest. Parsing recurses
    /// once a level (so do lowering and freeing the syntax tree), and examples are parsed on worker
    /// threads with small stacks, which thousands of opening parentheses would overflow.
    /// Content's scenarios nest a few levels.
    static let maxNesting = 100
    var nesting = 0
    var reportedNesting = false

    /// Enters one more level, or reports (once) that the scenario nests too deeply and says no.
    mutating func enterLevel() -> Bool {
        guard nesting < Self.maxNesting else {
            if !reportedNesting {
                reportedNesting = true
                fail("this nests too deeply: parentheses, operators, blocks and else-ifs may nest at most \(Self.maxNesting) levels")
            }
            return false
        }
        nesting += 1
        return true
    }

    @discardableResult
    mutating func expect(_ symbol: ScenarioSymbol, _ context: String) -> Bool {
        if isSymbol(symbol) { advance(); return true }
        fail("expected '\(symbol.text)' \(context), found \(text(current))")
        return false
    }

    mutating func identifier(_ context: String) -> String? {
        if let name = currentName { advance(); return name }
        fail("expected \(context), found \(text(current))")
        return nil
    }

    mutating func skipToLineEnd() {
        var depth = 0
        while true {
            switch current.kind {
            case .end: return
            case .newline where depth <= 0: return
            case .symbol("{"): depth += 1
            case .symbol("}"):
                if depth == 0 { return }
                depth -= 1
            default: break
            }
            advance()
        }
    }

    mutating func skipSeparators() {
        while true {
            switch current.kind {
            case .newline, .symbol(";"): advance()
            default: return
            }
        }
    }

    mutating func endStatement() {
        if atLineEnd { return }
        if isSymbol("}") { return }
        fail("unexpected \(text(current)) after the end of the statement")
        skipToLineEnd()
    }

    // MARK: File

    mutating func parseFile() {
        declareTopLevelNames()
        while true {
            skipSeparators()
            if case .end = current.kind { break }
            if declared.contains(position) { skipToLineEnd(); continue }
            let before = position
            parseTopLevel()
            if position == before { advance() }
        }
        checkExpectationsCanHold()
        if scenario.expectations.isEmpty {
            fail("an example needs at least one `expect` line (for example `expect suspended`)",
                 at: .init(line: 1, column: 1), id: "scenario-no-expectation")
        }
        // Without a timeline the user opens the app at 0 s and leaves it a second later. With
        // one, the user opens the app at 0 s unless the timeline starts with something that
        // launches it, and nothing else is added.
        let hadTimeline = !scenario.timeline.isEmpty
        scenario.timeline.sort { $0.time < $1.time }
        let startsWithLaunch: Bool
        switch scenario.timeline.first?.event {
        case .launch?, .push?, .systemLaunches?: startsWithLaunch = true
        default: startsWithLaunch = false
        }
        if !startsWithLaunch {
            scenario.timeline.insert(TimelineItem(time: 0, event: .launch), at: 0)
        }
        if !hadTimeline {
            scenario.timeline.append(TimelineItem(time: 1, event: .enterBackground))
        }
        scenario.timeline.sort { $0.time < $1.time }
    }

    /// First pass: functions, queues, locks and global variables, so code may use a name that is
    /// declared further down, as Swift allows at type level.
    mutating func declareTopLevelNames() {
        var depth = 0
        var index = 0
        var lineStart = true
        while index < tokens.count {
            let token = tokens[index]
            switch token.kind {
            case .symbol("{"): depth += 1
            case .symbol("}"): depth -= 1
            case .identifier where depth == 0 && lineStart:
                // `nonisolated func name`: the name comes one token later.
                let word = token.word(in: source)
                let nameIndex = word == "nonisolated" ? index + 2 : index + 1
                let isFunction = word == "nonisolated" ? isWord("func", at: index + 1) : word == "func"
                if isFunction, nameIndex < tokens.count, tokens[nameIndex].kind == .identifier {
                    let name = tokens[nameIndex].name(in: source)
                    if function(named: name) == nil {
                        scenario.functions.append(.init(name: name, block: -1))
                    }
                } else if word == "var" || word == "let" {
                    position = index
                    parseGlobalDeclaration()
                    declared.insert(index)
                }
            case .symbol("@") where depth == 0 && lineStart:
                position = index
                parseGlobalDeclaration()
                declared.insert(index)
            default: break
            }
            if case .newline = token.kind { lineStart = true } else if case .symbol(";") = token.kind { lineStart = true } else { lineStart = false }
            index += 1
        }
        position = 0
    }

    // MARK: Names
    // A scenario declares a few of each, so a name is looked for in order rather than hashed.

    /// The global variable named `name`.
    func global(named name: String) -> Int32? {
        scenario.globals.firstIndex { $0.name == name }.map(Int32.init)
    }

    /// The function named `name` (the first declared, if twice).
    func function(named name: String) -> Int32? {
        scenario.functions.firstIndex { $0.name == name }.map(Int32.init)
    }

    /// The queue named `name` (the last declared, if twice).
    func queue(named name: String) -> Int32? {
        queueNames.lastIndex(of: name).map(Int32.init)
    }

    /// The lock named `name` (the last declared, if twice).
    func lock(named name: String) -> Int32? {
        scenario.locks.lastIndex(of: name).map(Int32.init)
    }

    mutating func parseTopLevel() {
        guard current.kind == .identifier else {
            fail("expected a declaration (var, let, func), a handler (on ...), a timeline line (at ...), a system condition (system ...) or an expectation (expect ...), found \(text(current))")
            skipToLineEnd()
            return
        }
        switch current.word(in: source) {
        case "func": parseFunction()
        case "nonisolated" where nextIsWord("func"):
            advance()
            parseFunction(onMainActor: false)
        case "on": parseHandler()
        case "at": parseTimelineItem()
        case "system": parseCondition()
        case "expect": parseExpectation()
        case "Info": parseInfoPlist()
        default:
            fail("expected a declaration (var, let, func), a handler (on ...), a timeline line (at ...), a system condition (system ...) or an expectation (expect ...), found \(text(current))")
            skipToLineEnd()
        }
    }
}
