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

    private var tokens: [ScenarioToken]
    private var position = 0
    private var scenario = Scenario()
    private var problems: [Problem] = []
    private var globalsByName: [String: Int32] = [:]
    private var functionsByName: [String: Int32] = [:]
    private var queuesByName: [String: Int32] = [:]
    private var locksByName: [String: Int32] = [:]
    /// Lexical scopes of locals in the function or closure being compiled.
    private var scopes: [[String: (slot: Int32, type: ValueType)]] = []
    private var localCount: Int32 = 0
    /// Token positions of top-level declarations already parsed by the first pass.
    private var declared: Set<Int> = []

    /// Parses `text`. `origin` is where its first line sits in its Content file, so diagnostics
    /// read `path:line:column` there.
    public static func parse(_ text: String, at origin: SourceLocation) -> (Scenario?, Diagnostics) {
        let (tokens, lexProblems) = ScenarioLexer.tokenize(text)
        var parser = ScenarioParser(tokens: tokens)
        parser.scenario.text = text
        parser.scenario.lineStarts = ScenarioLexer.lineStarts(text)
        for problem in lexProblems {
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

    private init(tokens: [ScenarioToken]) { self.tokens = tokens }

    // MARK: Tokens

    private var current: ScenarioToken { tokens[min(position, tokens.count - 1)] }
    private var place: Scenario.Place { .init(line: current.line, column: current.column) }
    private mutating func advance() { if position < tokens.count - 1 { position += 1 } }

    private func isSymbol(_ symbol: ScenarioSymbol) -> Bool {
        if case let .symbol(s) = current.kind { return s == symbol }
        return false
    }

    private func isWord(_ word: String) -> Bool {
        if case let .identifier(s) = current.kind { return s == word }
        return false
    }

    /// `at 10s:` rather than a variable named `at`.
    private var isTimelineLine: Bool {
        guard position + 1 < tokens.count, case .number = tokens[position + 1].kind else { return false }
        return true
    }

    private var atLineEnd: Bool {
        switch current.kind {
        case .newline, .end: return true
        case .symbol(";"): return true
        default: return false
        }
    }

    private mutating func fail(_ message: String, at where: Scenario.Place? = nil, id: String = "scenario-syntax") {
        problems.append(Problem(id: id, message: message, place: `where` ?? place))
    }

    /// How deep parentheses, `!`, `&&`/`||` chains, blocks and `else if`s may nest. Parsing recurses
    /// once a level (so do lowering and freeing the syntax tree), and examples are parsed on worker
    /// threads with small stacks: 10,000 opening parentheses overflowed the stack (found by
    /// FuzzScenario). Content's scenarios nest a few levels.
    static let maxNesting = 100
    private var nesting = 0
    private var reportedNesting = false

    /// Enters one more level, or reports (once) that the scenario nests too deeply and says no.
    private mutating func enterLevel() -> Bool {
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
    private mutating func expect(_ symbol: ScenarioSymbol, _ context: String) -> Bool {
        if isSymbol(symbol) { advance(); return true }
        fail("expected '\(symbol.text)' \(context), found \(current.text)")
        return false
    }

    private mutating func identifier(_ context: String) -> String? {
        if case let .identifier(name) = current.kind { advance(); return name }
        fail("expected \(context), found \(current.text)")
        return nil
    }

    private mutating func skipToLineEnd() {
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

    private mutating func skipSeparators() {
        while true {
            switch current.kind {
            case .newline, .symbol(";"): advance()
            default: return
            }
        }
    }

    private mutating func endStatement() {
        if atLineEnd || isSymbol("}") { return }
        fail("unexpected \(current.text) after the end of the statement")
        skipToLineEnd()
    }

    // MARK: File

    private mutating func parseFile() {
        declareTopLevelNames()
        while true {
            skipSeparators()
            if case .end = current.kind { break }
            if declared.contains(position) { skipToLineEnd(); continue }
            let before = position
            parseTopLevel()
            if position == before { advance() }
        }
        if scenario.expectations.isEmpty {
            fail("an example needs at least one `expect` line (for example `expect suspended`)",
                 at: .init(line: 1, column: 1), id: "scenario-no-expectation")
        }
        // The user opens the app at 0 s unless the timeline starts with something that launches it.
        scenario.timeline.sort { $0.time < $1.time }
        let startsWithLaunch: Bool
        switch scenario.timeline.first?.event {
        case .launch?, .push?, .systemLaunches?: startsWithLaunch = true
        default: startsWithLaunch = false
        }
        if !startsWithLaunch {
            scenario.timeline.insert(TimelineItem(time: 0, event: .launch), at: 0)
        }
        let statesTransition = scenario.timeline.contains { $0.event == .enterBackground || $0.event == .enterForeground }
        let launchedBySystem = scenario.timeline.contains {
            if case .systemLaunches = $0.event { return true }
            return $0.event == .push
        }
        if !statesTransition && !launchedBySystem {
            // Without a timeline the user opens the app and leaves it a second later.
            scenario.timeline.append(TimelineItem(time: 1, event: .enterBackground))
        }
        scenario.timeline.sort { $0.time < $1.time }
    }

    /// First pass: functions, queues, locks and global variables, so code may use a name that is
    /// declared further down, as Swift allows at type level.
    private mutating func declareTopLevelNames() {
        var depth = 0
        var index = 0
        var lineStart = true
        while index < tokens.count {
            let token = tokens[index]
            switch token.kind {
            case .symbol("{"): depth += 1
            case .symbol("}"): depth -= 1
            case let .identifier(word) where depth == 0 && lineStart:
                if word == "func", index + 1 < tokens.count, case let .identifier(name) = tokens[index + 1].kind {
                    if functionsByName[name] == nil {
                        functionsByName[name] = Int32(scenario.functions.count)
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

    private mutating func parseTopLevel() {
        guard case let .identifier(word) = current.kind else {
            fail("expected a declaration (var, let, func), a handler (on ...), a timeline line (at ...), a system condition (system ...) or an expectation (expect ...), found \(current.text)")
            skipToLineEnd()
            return
        }
        switch word {
        case "func": parseFunction()
        case "on": parseHandler()
        case "at": parseTimelineItem()
        case "system": parseCondition()
        case "expect": parseExpectation()
        case "Info": parseInfoPlist()
        default:
            fail("expected a declaration (var, let, func), a handler (on ...), a timeline line (at ...), a system condition (system ...) or an expectation (expect ...), found \(current.text)")
            skipToLineEnd()
        }
    }

    // MARK: Declarations

    private mutating func parseType() -> (ValueType, optional: Bool)? {
        guard let name = identifier("a type") else { return nil }
        var optional = false
        if isSymbol("?") || isSymbol("!") { optional = true; advance() }
        switch name {
        case "UIBackgroundTaskIdentifier": return (optional ? .optionalIdentifier : .identifier, optional)
        case "Bool": return (.bool, optional)
        case "Int": return (.int, optional)
        case "BGAppRefreshTaskRequest", "BGProcessingTaskRequest", "BGTaskRequest": return (.request, optional)
        case "BGTask", "BGAppRefreshTask", "BGProcessingTask": return (.task, optional)
        default:
            fail("unknown type \(name): use UIBackgroundTaskIdentifier, Bool or Int")
            return nil
        }
    }

    private mutating func parseGlobalDeclaration() {
        var persistent = false
        if isSymbol("@") {
            advance()
            guard isWord("AppStorage") else {
                fail("only @AppStorage(\"key\") is understood before a variable"); skipToLineEnd(); return
            }
            advance()
            skipBalanced("(", ")")
            persistent = true
            guard isWord("var") else { fail("expected var after @AppStorage(...)"); skipToLineEnd(); return }
        }
        let keyword = current.text
        advance()
        let namePlace = place
        guard let name = identifier("a variable name after '\(keyword)'") else { skipToLineEnd(); return }
        if isSymbol(":") {
            advance()
            guard let (type, optional) = parseType() else { skipToLineEnd(); return }
            var initial: Value = .none
            if isSymbol("=") {
                advance()
                guard let syntax = parseExpression(trailingClosures: false), let value = constantValue(syntax) else {
                    fail("a variable's first value must be a literal such as .invalid, nil, true or 0", at: namePlace)
                    skipToLineEnd(); return
                }
                initial = value
            } else if !optional {
                fail("give \(name) a first value, or make it Optional (\(name): UIBackgroundTaskIdentifier?)", at: namePlace)
            }
            addGlobal(name, type: type, initial: initial, persistent: persistent, at: namePlace)
            endStatement()
            return
        }
        guard expect("=", "or ':' after the variable name") else { skipToLineEnd(); return }
        guard let syntax = parseExpression(trailingClosures: true) else { skipToLineEnd(); return }
        if case let .path(components, _) = syntax, let first = components.first {
            if first.name == "DispatchQueue", components.count == 1 {
                let label = stringArgument(first.arguments, "label") ?? name
                let concurrent = first.arguments?.contains { $0.label == "attributes" && $0.value.description.contains("concurrent") } ?? false
                queuesByName[name] = Int32(scenario.queues.count)
                scenario.queues.append(.init(label: label, concurrent: concurrent))
                endStatement(); return
            }
            if ["NSLock", "NSRecursiveLock", "OSAllocatedUnfairLock"].contains(first.name) {
                locksByName[name] = Int32(scenario.locks.count)
                scenario.locks.append(name)
                endStatement(); return
            }
        }
        guard let value = constantValue(syntax) else {
            fail("a variable's first value must be a literal such as .invalid, nil, true or 0", at: namePlace)
            skipToLineEnd(); return
        }
        addGlobal(name, type: inferredType(value), initial: value, persistent: persistent, at: namePlace)
        endStatement()
    }

    private mutating func addGlobal(_ name: String, type: ValueType, initial: Value, persistent: Bool = false, at where: Scenario.Place) {
        if globalsByName[name] != nil {
            fail("\(name) is declared twice", at: `where`, id: "scenario-name")
            return
        }
        globalsByName[name] = Int32(scenario.globals.count)
        scenario.globals.append(.init(name: name, type: type, initial: initial, persistent: persistent))
    }

    private func inferredType(_ value: Value) -> ValueType {
        switch value {
        case .identifier: return .identifier
        case .bool: return .bool
        case .int: return .int
        case .none: return .optionalIdentifier
        default: return .unknown
        }
    }

    private func constantValue(_ syntax: Syntax) -> Value? {
        switch syntax {
        case let .number(value, nil, _): return .int(clampedInt(value))
        case .path:
            let components = normalized(syntax)
            guard components.count <= 2, let last = components.last, last.arguments == nil, !last.unwrapped else { return nil }
            switch last.name {
            case "invalid" where components.count == 1 || components[0].name == "UIBackgroundTaskIdentifier" || components[0].name.isEmpty:
                return .identifier(0)
            case "UIBackgroundTaskInvalid": return .identifier(0)
            case "nil": return components.count == 1 ? Value.none : nil
            case "true": return .bool(true)
            case "false": return .bool(false)
            default: return nil
            }
        default: return nil
        }
    }

    private mutating func parseFunction() {
        advance()
        guard let name = identifier("a function name"), let index = functionsByName[name] else { skipToLineEnd(); return }
        if scenario.functions[Int(index)].block >= 0 {
            fail("function \(name) is declared twice", id: "scenario-name")
        }
        skipBalanced("(", ")")
        if isSymbol("->") { advance(); _ = identifier("a return type") }
        let saved = (scopes, localCount)
        scopes = [[:]]
        localCount = 0
        if let block = parseBlock(parameters: []) {
            scenario.functions[Int(index)].block = block
        }
        (scopes, localCount) = saved
    }

    private mutating func skipBalanced(_ open: ScenarioSymbol, _ close: ScenarioSymbol) {
        guard isSymbol(open) else { return }
        var depth = 0
        repeat {
            if isSymbol(open) { depth += 1 } else if isSymbol(close) { depth -= 1 }
            if case .end = current.kind { return }
            advance()
        } while depth > 0
    }

    private mutating func parseHandler() {
        advance()
        let namePlace = place
        guard let name = identifier("an app event after 'on' (applicationDidEnterBackground, ...)") else { skipToLineEnd(); return }
        skipBalanced("(", ")")
        let event: Scenario.AppEvent
        switch name {
        case "didFinishLaunching", "applicationDidFinishLaunching", "didFinishLaunchingWithOptions", "launch":
            event = .didFinishLaunching
        case "applicationDidEnterBackground", "sceneDidEnterBackground", "didEnterBackground":
            event = .didEnterBackground
        case "applicationWillEnterForeground", "sceneWillEnterForeground", "willEnterForeground":
            event = .willEnterForeground
        case "didReceiveRemoteNotification", "didReceiveRemoteNotificationFetchCompletionHandler":
            event = .didReceiveRemoteNotification
        default:
            fail("unknown app event \(name): use didFinishLaunching, applicationDidEnterBackground, applicationWillEnterForeground or didReceiveRemoteNotification", at: namePlace, id: "scenario-name")
            skipToLineEnd(); return
        }
        if scenario.handlers[event] != nil {
            fail("\(name) is handled twice", at: namePlace, id: "scenario-name")
        }
        let saved = (scopes, localCount)
        scopes = [[:]]
        localCount = 0
        let parameters: [(String, ValueType)] = event == .didReceiveRemoteNotification ? [("completionHandler", .push)] : []
        if let block = parseBlock(parameters: parameters) {
            scenario.handlers[event] = block
        }
        (scopes, localCount) = saved
    }

    // MARK: Timeline, conditions, expectations

    private mutating func duration(_ context: String) -> Double? {
        guard case let .number(value, unit) = current.kind else {
            fail("expected a duration such as 10s or 500ms \(context), found \(current.text)")
            return nil
        }
        let where_ = place
        advance()
        switch unit {
        case "s", "sec", "seconds", nil: return value
        case "ms": return value / 1000
        case "min", "m": return value * 60
        case "h": return value * 3600
        case "d": return value * 86400
        default:
            fail("unknown unit '\(unit ?? "")': use ms, s, min, h or d", at: where_)
            return nil
        }
    }

    private mutating func restOfLineWords() -> [ScenarioToken] {
        var words: [ScenarioToken] = []
        while !atLineEnd { words.append(current); advance() }
        return words
    }

    private mutating func parseTimelineItem() {
        let line = current.line
        advance()
        guard let time = duration("after 'at'") else { skipToLineEnd(); return }
        guard expect(":", "after the time (at 10s: app enters background)") else { skipToLineEnd(); return }
        let start = place
        let words = restOfLineWords()
        let phrase = words.map(\.text).joined(separator: " ")
        var item = TimelineItem(time: time, event: .launch, line: line)
        switch phrase {
        case "app launches", "user launches app", "user opens app": item.event = .launch
        case "app enters background", "user leaves app", "app moves to background": item.event = .enterBackground
        case "app enters foreground", "app returns to foreground", "user returns to app": item.event = .enterForeground
        case "push arrives", "a push arrives", "background push arrives", "silent push arrives": item.event = .push
        case "system terminates app", "system terminates the app", "system reclaims app": item.event = .reclaim
        default:
            if words.count == 3, words[0].text == "system", words[1].text == "launches", case let .string(id) = words[2].kind {
                item.event = .systemLaunches(id)
            } else if words.count == 3, case let .identifier(name) = words[0].kind, words[1].text == "(", words[2].text == ")" {
                guard let function = functionsByName[name] else {
                    fail("no function named \(name)", at: start, id: "scenario-name"); return
                }
                item.event = .call(name)
                item.function = function
            } else {
                fail("unknown timeline event '\(phrase)': use app launches, app enters background, app enters foreground, push arrives, system terminates app, system launches \"identifier\" or a function call such as sendData()", at: start)
                return
            }
        }
        scenario.timeline.append(item)
    }

    private mutating func parseCondition() {
        advance()
        let start = place
        let words = restOfLineWords()
        let phrase = words.map(\.text).joined(separator: " ")
        switch phrase {
        case "refuses beginBackgroundTask":
            scenario.conditions.refusal = [.returnsInvalid, .callsExpirationHandler]
        case "refuses beginBackgroundTask by returning . invalid":
            scenario.conditions.refusal = [.returnsInvalid]
        case "refuses beginBackgroundTask by calling the expiration handler", "refuses beginBackgroundTask by calling the expirationHandler":
            scenario.conditions.refusal = [.callsExpirationHandler]
        case "grants beginBackgroundTask": scenario.conditions.refusal = [.none]
        case "expires tasks only when time runs out", "expires tasks only at the end of the budget":
            scenario.conditions.expiryOnlyAtEnd = true
        case "network off", "has no network": scenario.conditions.network = false
        case "network on": scenario.conditions.network = true
        case "power external", "on external power": scenario.conditions.externalPower = true
        case "power battery", "on battery": scenario.conditions.externalPower = false
        case "backgroundAppRefresh off", "background app refresh off": scenario.conditions.backgroundAppRefresh = false
        case "backgroundAppRefresh on", "background app refresh on": scenario.conditions.backgroundAppRefresh = true
        default:
            if words.count == 2, words[0].text == "budget", case let .number(value, unit) = words[1].kind {
                let seconds: Double? = switch unit { case "s", nil: value; case "ms": value / 1000; case "min": value * 60; default: nil }
                if let seconds { scenario.conditions.budget = seconds; return }
            }
            fail("unknown system condition '\(phrase)': use budget 30s, refuses beginBackgroundTask [by returning .invalid | by calling the expiration handler], grants beginBackgroundTask, expires tasks only when time runs out, network off, power external or backgroundAppRefresh off", at: start)
        }
    }

    private mutating func parseInfoPlist() {
        advance()
        guard expect(".", "in Info.plist"), isWord("plist") else { fail("expected Info.plist"); skipToLineEnd(); return }
        advance()
        guard isWord("BGTaskSchedulerPermittedIdentifiers") else {
            fail("only Info.plist BGTaskSchedulerPermittedIdentifiers: [\"...\"] is understood"); skipToLineEnd(); return
        }
        advance()
        guard expect(":", "after the key"), expect("[", "before the identifiers") else { skipToLineEnd(); return }
        var identifiers: [Int32] = []
        while case let .string(text) = current.kind {
            identifiers.append(intern(text))
            advance()
            if isSymbol(",") { advance() }
        }
        expect("]", "after the identifiers")
        scenario.permittedIdentifiers = identifiers
        endStatement()
    }

    /// The condition as written: the line after `expect`.
    private func sourceText(line: Int32) -> String {
        guard var text = scenario.line(Int(line)) else { return "a condition" }
        while text.first == " " || text.first == "\t" { text.removeFirst() }
        if text.hasPrefix("expect") { text = text.dropFirst(6) }
        while text.first == " " { text.removeFirst() }
        var cut = text.startIndex
        while cut < text.endIndex {
            if text[cut...].hasPrefix("//") { text = text[..<cut]; break }
            cut = text.index(after: cut)
        }
        while text.last == " " { text.removeLast() }
        return String(text)
    }

    private mutating func parseExpectation() {
        let line = current.line
        advance()
        let start = place
        // `expect done && !cancelled`: a condition on the app's variables at the end of the run.
        if case let .identifier(name) = current.kind, globalsByName[name] != nil || isSymbol("!") {
            _ = name
            let startPosition = position
            guard let syntax = parseExpression(trailingClosures: false), let condition = lowerCondition(syntax) else {
                skipToLineEnd(); return
            }
            _ = startPosition
            let text = sourceText(line: line)
            var expectation = Expectation(kind: .state(text), around: nil, line: line)
            expectation.condition = condition
            scenario.expectations.append(expectation)
            endStatement()
            return
        }
        if isSymbol("!") || isSymbol("(") {
            guard let syntax = parseExpression(trailingClosures: false), let condition = lowerCondition(syntax) else {
                skipToLineEnd(); return
            }
            var expectation = Expectation(kind: .state(sourceText(line: line)), around: nil, line: line)
            expectation.condition = condition
            scenario.expectations.append(expectation)
            endStatement()
            return
        }
        guard case let .identifier(word) = current.kind else {
            fail("expected suspended, running, terminated, crash, warning, printed, task completed or a condition on the app's variables after 'expect'")
            skipToLineEnd(); return
        }
        advance()
        var kind: Expectation.Kind
        switch word {
        case "suspended": kind = .suspended
        case "running": kind = .running
        case "terminated":
            var code: String?
            if case let .hex(text) = current.kind { code = text; advance() }
            kind = .terminated(code: code)
        case "crash":
            var text: String?
            if case let .string(s) = current.kind { text = s; advance() }
            kind = .crash(containing: text)
        case "warning", "log":
            guard case let .string(s) = current.kind else {
                fail("expected the \(word)'s text in quotes: expect \(word) \"no background task exists\""); skipToLineEnd(); return
            }
            advance()
            kind = word == "warning" ? .warning(containing: s) : .log(containing: s)
        case "printed", "print":
            guard case let .string(s) = current.kind else {
                fail("expected the printed text in quotes: expect printed \"saved\""); skipToLineEnd(); return
            }
            advance()
            kind = .printed(s)
        case "task":
            guard isWord("completed") else { fail("expected 'task completed'"); skipToLineEnd(); return }
            advance()
            kind = .taskCompleted
        default:
            fail("unknown expectation '\(word)': use suspended, running, terminated [code], crash, warning \"...\", log \"...\", printed \"...\" or task completed", at: start)
            skipToLineEnd(); return
        }
        var around: Double?
        if isWord("around") {
            advance()
            around = duration("after 'around'")
        }
        scenario.expectations.append(Expectation(kind: kind, around: around, line: line))
        endStatement()
    }

    // MARK: Blocks and statements

    private mutating func intern(_ text: String) -> Int32 {
        if let index = scenario.strings.firstIndex(of: text) { return Int32(index) }
        scenario.strings.append(text)
        return Int32(scenario.strings.count - 1)
    }

    private mutating func declareLocal(_ name: String, _ type: ValueType) -> Int32 {
        let slot = localCount
        localCount += 1
        if scopes.isEmpty { scopes = [[:]] }
        scopes[scopes.count - 1][name] = (slot, type)
        return slot
    }

    private func lookup(_ name: String) -> (VariableRef, ValueType)? {
        for scope in scopes.reversed() {
            if let local = scope[name] { return (.local(local.slot), local.type) }
        }
        if let global = globalsByName[name] { return (.global(global), scenario.globals[Int(global)].type) }
        return nil
    }

    /// `{ [params in] statements }` as a new block. Parameters become its first locals.
    private mutating func parseBlock(parameters: [(String, ValueType)]) -> Int32? {
        let open = place
        guard expect("{", "to open the block") else { skipToLineEnd(); return nil }
        return parseBlockBody(parameters: parameters, openedAt: open)
    }

    /// After the `{`. Reads optional closure parameters (`task in`, `expired in`).
    private mutating func parseBlockBody(parameters: [(String, ValueType)], openedAt open: Scenario.Place) -> Int32? {
        guard enterLevel() else { return nil }
        defer { nesting -= 1 }
        let entry = localCount
        scopes.append([:])
        defer {
            scopes.removeLast()
            localCount = entry
        }
        var parameters = parameters
        // Closure parameters: `task in`, `[weak self] expired in`, `(expired) in`, `@MainActor in`.
        var look = position
        var names: [String] = []
        var sawIn = false
        while look < tokens.count {
            let kind = tokens[look].kind
            if case .identifier("in") = kind { sawIn = true; break }
            if case .newline = kind { break }
            if case .end = kind { break }
            if case let .identifier(name) = kind { names.append(name) } else if case .symbol = kind {} else { break }
            look += 1
        }
        if sawIn {
            let skipped: Set<String> = ["weak", "unowned", "self", "MainActor", "Bool", "BGTask"]
            let declaredNames = names.filter { !skipped.contains($0) }
            parameters = declaredNames.enumerated().map { index, name in
                (name, index < parameters.count ? parameters[index].1 : .unknown)
            }
            position = look + 1
        }
        let blockIndex = Int32(scenario.blocks.count)
        scenario.blocks.append(Scenario.Block())
        let captured = localCount
        for (name, type) in parameters { _ = declareLocal(name, type) }
        var statements: [Int32] = []
        while true {
            skipSeparators()
            if isSymbol("}") { advance(); break }
            if case .end = current.kind {
                fail("this block has no closing '}'", at: open)
                break
            }
            // A top-level line inside a block means a `}` is missing: say where the block opened.
            if case let .identifier(word) = current.kind, ["expect", "on", "func", "system"].contains(word) || word == "at" && isTimelineLine {
                fail("this block has no closing '}' (found '\(word)' inside it)", at: open)
                break
            }
            let before = position
            if let statement = parseStatement() {
                statements.append(Int32(scenario.statements.count))
                scenario.statements.append(statement)
            }
            if position == before { advance() }
        }
        scenario.blocks[Int(blockIndex)] = Scenario.Block(
            statements: statements, localsAtEntry: captured + Int32(parameters.count),
            captured: captured, parameters: Int32(parameters.count))
        return blockIndex
    }

    private mutating func parseStatement() -> Scenario.Statement? {
        let start = place
        guard case let .identifier(word) = current.kind else {
            if isSymbol("_") {
                advance()
                if isSymbol("=") { advance() }
                return parseExpressionStatement(start)
            }
            fail("expected a statement, found \(current.text)")
            skipToLineEnd()
            return nil
        }
        switch word {
        case "var", "let":
            advance()
            let namePlace = place
            guard let name = identifier("a variable name") else { skipToLineEnd(); return nil }
            var type: ValueType = .unknown
            var annotated = false
            if isSymbol(":") {
                advance()
                guard let (t, _) = parseType() else { skipToLineEnd(); return nil }
                type = t
                annotated = true
            }
            var initial: Expression?
            if isSymbol("=") {
                advance()
                guard let syntax = parseExpression(trailingClosures: true), let expression = lowerExpression(syntax) else {
                    skipToLineEnd(); return nil
                }
                initial = expression
                if !annotated { type = typeOf(expression) }
            } else if !(type == .optionalIdentifier) {
                fail("give \(name) a first value", at: namePlace)
            }
            let slot = declareLocal(name, type)
            endStatement()
            return .init(kind: .declare(slot: slot, initial: initial), place: start)
        case "if":
            advance()
            return parseIf(start)
        case "for":
            advance()
            if isSymbol("_") { advance() } else { _ = identifier("a loop variable") }
            guard isWord("in") else { fail("expected 'in' (for _ in 1...1001 {)"); skipToLineEnd(); return nil }
            advance()
            guard case let .number(low, nil) = current.kind else { fail("expected a count such as 1...1001"); skipToLineEnd(); return nil }
            advance()
            var count = 0
            if isSymbol("...") || isSymbol("..<") {
                let closed = isSymbol("...")
                advance()
                guard case let .number(high, nil) = current.kind else { fail("expected the loop's upper bound"); skipToLineEnd(); return nil }
                advance()
                count = max(0, clampedInt(high) - clampedInt(low) + (closed ? 1 : 0))
            } else {
                fail("expected ... or ..< in the loop range"); skipToLineEnd(); return nil
            }
            guard let block = parseBlock(parameters: []) else { return nil }
            return .init(kind: .loop(count: count, block: block), place: start)
        case "work":
            advance()
            guard let seconds = duration("after 'work' (work 10s)") else { skipToLineEnd(); return nil }
            endStatement()
            return .init(kind: .work(seconds), place: start)
        case "return":
            advance()
            endStatement()
            return .init(kind: .returnFromBlock, place: start)
        case "try":
            advance()
            if isSymbol("?") || isSymbol("!") { advance() }
            return parseExpressionStatement(start)
        default:
            return parseExpressionStatement(start)
        }
    }

    private mutating func parseIf(_ start: Scenario.Place) -> Scenario.Statement? {
        guard enterLevel() else { skipToLineEnd(); return nil }
        defer { nesting -= 1 }
        guard let syntax = parseExpression(trailingClosures: false), let condition = lowerCondition(syntax) else {
            skipToLineEnd(); return nil
        }
        guard let thenBlock = parseBlock(parameters: []) else { return nil }
        var elseBlock: Int32?
        if isWord("else") {
            advance()
            if isWord("if") {
                let nestedStart = place
                advance()
                // `else if` is an else block holding one `if`.
                let entry = localCount
                let blockIndex = Int32(scenario.blocks.count)
                scenario.blocks.append(Scenario.Block())
                if let nested = parseIf(nestedStart) {
                    let index = Int32(scenario.statements.count)
                    scenario.statements.append(nested)
                    scenario.blocks[Int(blockIndex)] = Scenario.Block(statements: [index], localsAtEntry: entry, captured: entry, parameters: 0)
                }
                elseBlock = blockIndex
            } else {
                elseBlock = parseBlock(parameters: [])
            }
        }
        return .init(kind: .branch(condition, then: thenBlock, else: elseBlock), place: start)
    }

    private mutating func parseExpressionStatement(_ start: Scenario.Place) -> Scenario.Statement? {
        guard let syntax = parseExpression(trailingClosures: true) else { skipToLineEnd(); return nil }
        if isSymbol("=") || isSymbol("+=") || isSymbol("-=") {
            let op = current.text
            advance()
            guard let value = parseExpression(trailingClosures: true) else { skipToLineEnd(); return nil }
            let kind = lowerAssignment(syntax, op: op, value: value)
            endStatement()
            return kind.map { .init(kind: $0, place: start) }
        }
        let kind = lowerCall(syntax)
        endStatement()
        return kind.map { .init(kind: $0, place: start) }
    }

    // MARK: Expressions

    private mutating func parseExpression(trailingClosures: Bool) -> Syntax? {
        guard var left = parseAnd(trailingClosures) else { return nil }
        // Each operator in a chain nests the tree one level deeper (it leans left).
        let entry = nesting
        defer { nesting = entry }
        while isSymbol("||") {
            let p = place
            advance()
            guard enterLevel(), let right = parseAnd(trailingClosures) else { return nil }
            left = .binary("||", left, right, p)
        }
        return left
    }

    private mutating func parseAnd(_ trailing: Bool) -> Syntax? {
        guard var left = parseComparison(trailing) else { return nil }
        let entry = nesting
        defer { nesting = entry }
        while isSymbol("&&") {
            let p = place
            advance()
            guard enterLevel(), let right = parseComparison(trailing) else { return nil }
            left = .binary("&&", left, right, p)
        }
        return left
    }

    private mutating func parseComparison(_ trailing: Bool) -> Syntax? {
        guard let left = parseUnary(trailing) else { return nil }
        guard case let .symbol(symbol) = current.kind else { return left }
        let op: String
        switch symbol {
        case "==": op = "=="
        case "!=": op = "!="
        case "<=": op = "<="
        case ">=": op = ">="
        case "<": op = "<"
        case ">": op = ">"
        case "+": op = "+"
        default: return left
        }
        let p = place
        advance()
        guard let right = parseUnary(trailing) else { return nil }
        return .binary(op, left, right, p)
    }

    private mutating func parseUnary(_ trailing: Bool) -> Syntax? {
        guard enterLevel() else { return nil }
        defer { nesting -= 1 }
        if isSymbol("!") {
            let p = place
            advance()
            guard let inner = parseUnary(trailing) else { return nil }
            return .not(inner, p)
        }
        return parsePostfix(trailing)
    }

    private mutating func parsePostfix(_ trailing: Bool) -> Syntax? {
        let start = place
        var components: [Syntax.Component] = []
        switch current.kind {
        case let .number(value, unit):
            advance()
            return .number(value, unit: unit, start)
        case let .string(text):
            advance()
            return .string(text, start)
        case let .hex(text):
            advance()
            return .hex(text, start)
        case let .identifier(name):
            advance()
            // Room for a path's usual length (`DispatchQueue.main.async`): grown one append at a
            // time, the array was reallocated and its components moved two or three times a path.
            components.reserveCapacity(4)
            components.append(.init(name: name, arguments: nil, place: start))
        case .symbol("."):
            advance()
            components.reserveCapacity(4)
            components.append(.init(name: "", arguments: nil, place: start))
            guard let member = identifier("a member name after '.'") else { return nil }
            components.append(.init(name: member, arguments: nil, place: start))
        case .symbol("{"):
            advance()
            guard let block = parseBlockBody(parameters: [], openedAt: start) else { return nil }
            return .closure(block, start)
        case .symbol("("):
            advance()
            let inner = parseExpression(trailingClosures: true)
            expect(")", "to close the parenthesis")
            return inner
        default:
            fail("expected an expression, found \(current.text)")
            return nil
        }
        while true {
            if isSymbol(".") {
                advance()
                let p = place
                guard let member = identifier("a member name after '.'") else { return nil }
                components.append(.init(name: member, arguments: nil, place: p))
            } else if isSymbol("(") && components.last?.arguments == nil {
                advance()
                guard let arguments = parseArguments() else { return nil }
                components[components.count - 1].arguments = arguments
            } else if isSymbol("!") {
                advance()
                components[components.count - 1].unwrapped = true
            } else if isSymbol("{") && trailing {
                let p = place
                advance()
                guard let block = parseBlockBody(parameters: [], openedAt: p) else { return nil }
                var arguments = components[components.count - 1].arguments ?? []
                arguments.append(.init(label: nil, value: .closure(block, p)))
                components[components.count - 1].arguments = arguments
            } else {
                break
            }
        }
        return .path(components, start)
    }

    private mutating func parseArguments() -> [Syntax.Argument]? {
        var arguments: [Syntax.Argument] = []
        while case .newline = current.kind { advance() }
        if isSymbol(")") { advance(); return arguments }
        while true {
            while case .newline = current.kind { advance() }
            var label: String?
            if case let .identifier(name) = current.kind, position + 1 < tokens.count, case .symbol(":") = tokens[position + 1].kind {
                label = name
                advance(); advance()
            }
            guard let value = parseExpression(trailingClosures: true) else { return nil }
            arguments.append(.init(label: label, value: value))
            while case .newline = current.kind { advance() }
            if isSymbol(",") { advance(); continue }
            if isSymbol(")") { advance(); return arguments }
            fail("expected ',' or ')' in the argument list, found \(current.text)")
            return nil
        }
    }

    private func stringArgument(_ arguments: [Syntax.Argument]?, _ label: String) -> String? {
        for argument in arguments ?? [] where argument.label == label {
            if case let .string(text, _) = argument.value { return text }
        }
        return nil
    }

    /// Drops the receivers an iOS developer writes but that carry no meaning here
    /// (`UIApplication.shared.`, `self.`, `BGTaskScheduler.shared.`, `ProcessInfo.processInfo.`).
    static let ignoredReceivers: [[String]] = [["UIApplication", "shared"], ["self"], ["BGTaskScheduler", "shared"],
                                                       ["ProcessInfo", "processInfo"], ["application"], ["UIApplication"]]
    /// Whether `name` is one of `ignoredReceivers`' first names. Most paths start with none of
    /// them, so the length decides first: comparing unequal strings took 35 instructions each.
    /// (`ScenarioParserTests` checks this against `ignoredReceivers`.)
    static func isIgnoredFirstName(_ name: String) -> Bool {
        switch name.utf8.count {
        case 4: return name == "self"
        case 11: return name == "ProcessInfo" || name == "application"
        case 13: return name == "UIApplication"
        case 15: return name == "BGTaskScheduler"
        default: return false
        }
    }

    private func normalized(_ syntax: Syntax) -> [Syntax.Component] {
        guard case var .path(components, _) = syntax else { return [] }
        var changed = true
        while changed, let first = components.first, Self.isIgnoredFirstName(first.name) {
            changed = false
            for prefix in Self.ignoredReceivers where components.count > prefix.count {
                if zip(components, prefix).allSatisfy({ $0.name == $1 && $0.arguments == nil }) {
                    components.removeFirst(prefix.count)
                    changed = true
                }
            }
        }
        return components
    }

    private func describe(_ components: [Syntax.Component]) -> String {
        components.map { $0.name + ($0.arguments == nil ? "" : "(...)") + ($0.unwrapped ? "!" : "") }.joined(separator: ".")
    }

    private func closureArgument(_ arguments: [Syntax.Argument]?, labels: Set<String?>) -> (found: Bool, block: Int32?) {
        for argument in arguments ?? [] where labels.contains(argument.label) {
            if case let .closure(block, _) = argument.value { return (true, block) }
            if case let .path(components, _) = argument.value, components.count == 1, components[0].name == "nil" { return (true, nil) }
        }
        return (false, nil)
    }

    private func typeOf(_ expression: Expression) -> ValueType {
        switch expression {
        case let .literal(value): return inferredType(value)
        case let .read(ref), let .unwrap(ref):
            switch ref {
            case let .global(index):
                let type = scenario.globals[Int(index)].type
                if case .unwrap = expression, type == .optionalIdentifier { return .identifier }
                return type
            case .local: return .unknown
            }
        case .backgroundTimeRemaining: return .int
        case .begin: return .identifier
        case .refreshRequest, .processingRequest: return .request
        case .dateFromNow: return .unknown
        }
    }

    private mutating func lowerExpression(_ syntax: Syntax) -> Expression? {
        switch syntax {
        case let .number(value, unit, p):
            switch unit {
            case nil, "s": return .literal(.int(clampedInt(value)))
            default:
                fail("compare with plain seconds (backgroundTimeRemaining < 10)", at: p); return nil
            }
        case let .string(_, p), let .hex(_, p):
            fail("a text is not a value here", at: p); return nil
        case let .closure(_, p):
            fail("a closure is not a value here", at: p); return nil
        case let .binary(_, _, _, p), let .not(_, p):
            fail("a condition is not a value here", at: p); return nil
        case let .path(_, p):
            if let constant = constantValue(syntax) { return .literal(constant) }
            let components = normalized(syntax)
            guard let first = components.first else { return nil }
            if components.count == 1 {
                let c = first
                switch c.name {
                case "backgroundTimeRemaining" where c.arguments == nil:
                    return .backgroundTimeRemaining
                case "beginBackgroundTask" where c.arguments != nil:
                    let name = stringArgument(c.arguments, "withName").map { intern($0) }
                    let handler = closureArgument(c.arguments, labels: [nil, "expirationHandler"])
                    return .begin(name: name, handler: handler.block)
                case "BGAppRefreshTaskRequest", "BGProcessingTaskRequest":
                    guard let identifier = stringArgument(c.arguments, "identifier") else {
                        fail("\(c.name) needs identifier: \"...\"", at: c.place); return nil
                    }
                    let interned = intern(identifier)
                    return c.name == "BGAppRefreshTaskRequest" ? .refreshRequest(identifier: interned) : .processingRequest(identifier: interned)
                case "Date":
                    if let argument = c.arguments?.first(where: { $0.label == "timeIntervalSinceNow" }), case let .number(value, unit, _) = argument.value {
                        return .dateFromNow(unit == "min" ? value * 60 : unit == "h" ? value * 3600 : value)
                    }
                    fail("write a date as Date(timeIntervalSinceNow: 3600)", at: c.place); return nil
                default:
                    guard c.arguments == nil else { break }
                    guard let (ref, type) = lookup(c.name) else {
                        fail("unknown name \(c.name): declare it with var at the top of the scenario", at: c.place, id: "scenario-name")
                        return nil
                    }
                    if c.unwrapped {
                        if type != .optionalIdentifier && type != .unknown {
                            fail("cannot force unwrap \(c.name): it is not an Optional", at: c.place, id: "scenario-type")
                        }
                        return .unwrap(ref)
                    }
                    return .read(ref)
                }
            }
            fail("cannot use \(describe(components)) as a value", at: p)
            return nil
        }
    }

    private mutating func lowerCondition(_ syntax: Syntax) -> Condition? {
        switch syntax {
        case let .not(inner, _):
            return lowerCondition(inner).map { .not($0) }
        case let .binary(op, left, right, p):
            if op == "&&" || op == "||" {
                guard let l = lowerCondition(left), let r = lowerCondition(right) else { return nil }
                return op == "&&" ? .and(l, r) : .or(l, r)
            }
            guard let comparison = Comparison(rawValue: op) else {
                fail("expected a comparison (==, !=, <, >, <=, >=)", at: p); return nil
            }
            guard let l = lowerExpression(left), let r = lowerExpression(right) else { return nil }
            return .compare(l, comparison, r)
        default:
            return lowerExpression(syntax).map { .truthy($0) }
        }
    }

    private mutating func lowerAssignment(_ target: Syntax, op: String, value: Syntax) -> StatementKind? {
        let components = normalized(target)
        guard let first = components.first, first.arguments == nil, let (ref, type) = lookup(first.name) else {
            if let first = components.first {
                fail("unknown name \(first.name): declare it with var at the top of the scenario", at: first.place, id: "scenario-name")
            }
            return nil
        }
        if components.count == 2 {
            let property = components[1]
            if property.name == "expirationHandler" {
                if case let .closure(block, _) = value { return .setExpirationHandler(.read(ref), block: block) }
                if constantValue(value) == Value.none { return .setExpirationHandler(.read(ref), block: nil) }
                fail("set expirationHandler to a closure: task.expirationHandler = { ... }", at: value.place); return nil
            }
            guard let requestProperty = RequestProperty(rawValue: property.name) else {
                fail("unknown property \(property.name): use expirationHandler, earliestBeginDate, requiresExternalPower or requiresNetworkConnectivity", at: property.place, id: "scenario-name")
                return nil
            }
            guard let expression = lowerExpression(value) else { return nil }
            return .setRequest(ref, requestProperty, expression)
        }
        guard components.count == 1 else {
            fail("cannot assign to \(describe(components))", at: first.place); return nil
        }
        if op != "=" {
            guard case let .number(amount, nil, _) = value else { fail("expected a whole number after \(op)", at: value.place); return nil }
            return .add(ref, op == "+=" ? clampedInt(amount) : -clampedInt(amount))
        }
        guard let expression = lowerExpression(value) else { return nil }
        if case .literal(.none) = expression, type == .identifier {
            fail("\(first.name) is not an Optional: it cannot be nil (use .invalid)", at: value.place, id: "scenario-type")
        }
        return .assign(ref, expression)
    }

    private mutating func queue(_ components: ArraySlice<Syntax.Component>) -> QueueRef? {
        let names = components.map(\.name)
        if names == ["DispatchQueue", "main"] { return .main }
        if names == ["DispatchQueue", "global"] { return .global }
        if names.count == 1, let index = queuesByName[names[0]] {
            return scenario.queues[Int(index)].concurrent ? .global : .named(index)
        }
        return nil
    }

    private mutating func lowerCall(_ syntax: Syntax) -> StatementKind? {
        guard case .path = syntax else {
            fail("expected a statement", at: syntax.place); return nil
        }
        let components = normalized(syntax)
        guard let last = components.last else { return nil }
        let arguments = last.arguments
        // The app's own function wins over an API of the same name (the blog's
        // `endBackgroundTask()` helper wraps UIApplication's `endBackgroundTask(_:)`).
        if components.count == 1, let function = functionsByName[last.name], arguments?.isEmpty ?? false {
            return .call(function: function)
        }
        switch last.name {
        case "beginBackgroundTask" where components.count == 1:
            return lowerExpression(syntax).map { .evaluate($0) }
        case "endBackgroundTask" where components.count == 1:
            guard let argument = arguments?.first, arguments?.count == 1 else {
                fail("endBackgroundTask takes the identifier: endBackgroundTask(taskID)", at: last.place); return nil
            }
            guard let expression = lowerExpression(argument.value) else { return nil }
            if case let .read(ref) = expression, case .global(let index) = ref, scenario.globals[Int(index)].type == .optionalIdentifier {
                let name = scenario.globals[Int(index)].name
                fail("\(name) is an Optional: write endBackgroundTask(\(name)!) (which crashes when it is nil) or unwrap it first", at: argument.value.place, id: "scenario-type")
            }
            return .end(expression)
        case "print" where components.count == 1:
            guard let argument = arguments?.first, case let .string(text, _) = argument.value else {
                fail("print takes a text in quotes: print(\"saved\")", at: last.place); return nil
            }
            return .print(intern(text))
        case "async", "sync":
            guard let queue = queue(components.dropLast()) else {
                fail("unknown queue \(describe(Array(components.dropLast()))): use DispatchQueue.main, DispatchQueue.global() or a queue declared with let queue = DispatchQueue(label: \"...\")", at: last.place, id: "scenario-name")
                return nil
            }
            guard let block = closureArgument(arguments, labels: [nil, "execute"]).block else {
                fail("\(last.name) needs a closure: \(last.name) { ... }", at: last.place); return nil
            }
            return .dispatch(queue, block: block, sync: last.name == "sync")
        case "Task" where components.count == 1:
            guard let block = closureArgument(arguments, labels: [nil, "operation"]).block else {
                fail("Task needs a closure: Task { ... }", at: last.place); return nil
            }
            return .dispatch(.global, block: block, sync: false)
        case "withLock" where components.count == 2:
            guard let lock = locksByName[components[0].name] else {
                fail("unknown lock \(components[0].name): declare it with let lock = NSLock()", at: components[0].place, id: "scenario-name"); return nil
            }
            guard let block = closureArgument(arguments, labels: [nil]).block else {
                fail("withLock needs a closure", at: last.place); return nil
            }
            return .withLock(lock, block: block)
        case "register" where components.count == 1:
            guard let identifier = stringArgument(arguments, "forTaskWithIdentifier") else {
                fail("register needs forTaskWithIdentifier: \"...\"", at: last.place); return nil
            }
            var queueRef: QueueRef?
            if let using = arguments?.first(where: { $0.label == "using" }), case .path = using.value {
                let names = normalized(using.value)
                if !(names.count == 1 && names[0].name == "nil") {
                    guard let q = queue(names[...]) else {
                        fail("unknown queue for using:", at: using.value.place, id: "scenario-name"); return nil
                    }
                    queueRef = q
                }
            }
            guard let block = closureArgument(arguments, labels: [nil, "launchHandler"]).block else {
                fail("register needs a launch handler: register(forTaskWithIdentifier: \"...\", using: nil) { task in ... }", at: last.place); return nil
            }
            return .register(identifier: intern(identifier), queue: queueRef, block: block)
        case "submit" where components.count == 1:
            guard let argument = arguments?.first, let expression = lowerExpression(argument.value) else {
                fail("submit takes a request: submit(request)", at: last.place); return nil
            }
            return .submit(expression)
        case "setTaskCompleted" where components.count == 2:
            guard let (ref, _) = lookup(components[0].name) else {
                fail("unknown name \(components[0].name)", at: components[0].place, id: "scenario-name"); return nil
            }
            var success = true
            if let argument = arguments?.first, constantValue(argument.value) == .bool(false) { success = false }
            return .setTaskCompleted(.read(ref), success: success)
        case "performExpiringActivity" where components.count == 1:
            let reason = stringArgument(arguments, "withReason") ?? "activity"
            guard let block = closureArgument(arguments, labels: [nil, "using"]).block else {
                fail("performExpiringActivity needs a closure: performExpiringActivity(withReason: \"...\") { expired in ... }", at: last.place); return nil
            }
            return .performExpiringActivity(reason: intern(reason), block: block)
        default:
            break
        }
        if components.count == 1 {
            if let (ref, type) = lookup(last.name), type == .push || type == .unknown, arguments != nil {
                return .completePush(.read(ref))
            }
            if let function = functionsByName[last.name], arguments?.isEmpty ?? false {
                return .call(function: function)
            }
        }
        fail("unknown call \(describe(components)): see the list of understood APIs in Content/README.md", at: last.place, id: "scenario-name")
        return nil
    }
}

extension Syntax: CustomStringConvertible {
    var description: String {
        switch self {
        case let .path(components, _): return components.map { $0.name }.joined(separator: ".")
        case let .number(value, unit, _): return formatNumber(value) + (unit ?? "")
        case let .string(text, _): return text
        case let .hex(text, _): return text
        case .closure: return "{ }"
        case let .binary(op, l, r, _): return "\(l) \(op) \(r)"
        case let .not(inner, _): return "!\(inner)"
        }
    }
}
