import BGKBModel

/// The timeline, the conditions the system is pinned to, Info.plist keys and the expectations.
extension ScenarioParser {
    mutating func duration(_ context: String) -> Double? {
        guard current.kind == .number else {
            fail("expected a duration such as 10s or 500ms \(context), found \(text(current))")
            return nil
        }
        let (value, unit) = current.number(in: source)
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

    mutating func restOfLineWords() -> [ScenarioToken] {
        var words: [ScenarioToken] = []
        while !atLineEnd { words.append(current); advance() }
        return words
    }

    mutating func parseTimelineItem() {
        let line = current.line
        advance()
        guard let time = duration("after 'at'") else { skipToLineEnd(); return }
        guard expect(":", "after the time (at 10s: app enters background)") else { skipToLineEnd(); return }
        let start = place
        let words = restOfLineWords()
        let texts = words.map { text($0) }
        let phrase = texts.joined(separator: " ")
        var item = TimelineItem(time: time, event: .launch, line: line)
        switch phrase {
        case "app launches", "user launches app", "user opens app": item.event = .launch
        case "app enters background", "user leaves app", "app moves to background": item.event = .enterBackground
        case "app enters foreground", "app returns to foreground", "user returns to app": item.event = .enterForeground
        case "push arrives", "a push arrives", "background push arrives", "silent push arrives": item.event = .push
        case "system terminates app", "system terminates the app", "system reclaims app": item.event = .reclaim
        case "user force quits app", "user force quits the app", "user swipes app away": item.event = .forceQuit
        default:
            if words.count == 3, texts[0] == "system", texts[1] == "launches", words[2].kind == .string {
                item.event = .systemLaunches(words[2].string(in: source))
            } else if words.count == 4, texts[0] == "background", texts[1] == "URLSession", words[2].kind == .string, texts[3] == "finishes" {
                let id = words[2].string(in: source)
                item.event = .urlSessionFinishes(id)
                // Interned, so the machine's note of a session with nothing in flight names it by index.
                _ = intern(id)
            } else if words.count == 3, words[0].kind == .identifier, texts[1] == "(", texts[2] == ")" {
                let name = texts[0]
                guard let function = self.function(named: name) else {
                    fail("no function named \(name)", at: start, id: "scenario-name"); return
                }
                item.event = .call(name)
                item.function = function
            } else {
                fail("unknown timeline event '\(phrase)': use app launches, app enters background, app enters foreground, push arrives, system terminates app, system launches \"identifier\" background URLSession \"id\" finishes, user force quits app or a function call such as sendData()", at: start)
                return
            }
        }
        scenario.timeline.append(item)
    }

    mutating func parseCondition() {
        advance()
        let start = place
        let words = restOfLineWords()
        let phrase = words.map { text($0) }.joined(separator: " ")
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
        case "runs continued processing now", "can run continued processing now": scenario.conditions.continuedRunsNow = true
        case "cannot run continued processing now": scenario.conditions.continuedRunsNow = false
        default:
            if words.count == 2, words[0].kind == .identifier, words[0].word(in: source) == "budget", words[1].kind == .number {
                let (value, unit) = words[1].number(in: source)
                let seconds: Double? = switch unit { case "s", nil: value; case "ms": value / 1000; case "min": value * 60; default: nil }
                if let seconds { scenario.conditions.budget = seconds; return }
            }
            fail("unknown system condition '\(phrase)': use budget 30s, refuses beginBackgroundTask [by returning .invalid | by calling the expiration handler], grants beginBackgroundTask, expires tasks only when time runs out, network off, power external, backgroundAppRefresh off or [cannot] run continued processing now", at: start)
        }
    }

    mutating func parseInfoPlist() {
        advance()
        guard expect(".", "in Info.plist"), isWord("plist") else { fail("expected Info.plist"); skipToLineEnd(); return }
        advance()
        guard isWord("BGTaskSchedulerPermittedIdentifiers") else {
            fail("only Info.plist BGTaskSchedulerPermittedIdentifiers: [\"...\"] is understood"); skipToLineEnd(); return
        }
        advance()
        guard expect(":", "after the key"), expect("[", "before the identifiers") else { skipToLineEnd(); return }
        var identifiers: [Int32] = []
        while current.kind == .string {
            identifiers.append(intern(current.string(in: source)))
            advance()
            if isSymbol(",") { advance() }
        }
        expect("]", "after the identifiers")
        scenario.permittedIdentifiers = identifiers
        endStatement()
    }

    /// The condition as written: the line after `expect`.
    func sourceText(line: Int32) -> String {
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

    mutating func parseExpectation() {
        let line = current.line
        advance()
        let start = place
        // `expect done && !cancelled`: a condition on the app's variables at the end of the run.
        let isCondition: Bool
        if let name = currentName { isCondition = global(named: name) != nil } else { isCondition = false }
        let opensCondition = isSymbol("!", or: "(")
        if isCondition || opensCondition {
            guard let syntax = parseExpression(trailingClosures: false), let condition = lowerCondition(syntax) else {
                skipToLineEnd(); return
            }
            var expectation = Expectation(kind: .state(sourceText(line: line)), around: nil, line: line)
            expectation.condition = condition
            scenario.expectations.append(expectation)
            expectationPlaces.append(start)
            endStatement()
            return
        }
        guard let word = currentName else {
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
            if current.kind == .hex {
                let text = current.name(in: source)
                if !Reason.terminationCodes.contains(text) {
                    fail("the app is never terminated with \(text): the codes are \(Reason.terminationCodes.joined(separator: " and ")), so this expectation can never hold",
                         id: "scenario-impossible-expectation")
                }
                code = text
                advance()
            }
            kind = .terminated(code: code)
        case "crash":
            var text: String?
            if current.kind == .string { text = current.string(in: source); advance() }
            kind = .crash(containing: text)
        case "warning", "log":
            guard current.kind == .string else {
                fail("expected the \(word)'s text in quotes: expect \(word) \"no background task exists\""); skipToLineEnd(); return
            }
            let s = current.string(in: source)
            advance()
            kind = word == "warning" ? .warning(containing: s) : .log(containing: s)
        case "printed", "print":
            guard current.kind == .string else {
                fail("expected the printed text in quotes: expect printed \"saved\""); skipToLineEnd(); return
            }
            let s = current.string(in: source)
            advance()
            kind = .printed(s)
        case "task":
            guard isWord("completed") else { fail("expected 'task completed'"); skipToLineEnd(); return }
            advance()
            kind = .taskCompleted
        case "completion":
            guard isWord("handler") else { fail("expected 'completion handler called'"); skipToLineEnd(); return }
            advance()
            guard isWord("called") else { fail("expected 'completion handler called'"); skipToLineEnd(); return }
            advance()
            kind = .completionHandlerCalled
        default:
            fail("unknown expectation '\(word)': use suspended, running, terminated [code], crash, warning \"...\", log \"...\", printed \"...\", task completed or completion handler called", at: start)
            skipToLineEnd(); return
        }
        var around: Double?
        if isWord("around") {
            advance()
            around = duration("after 'around'")
        }
        scenario.expectations.append(Expectation(kind: kind, around: around, line: line))
        expectationPlaces.append(start)
        endStatement()
    }

    /// Expectations that no run can meet: a text no `print` in the scenario prints (compared
    /// exactly, as a run compares it), and a condition on a variable no statement assigns (it
    /// could only ever read the initial value). Checked once every statement is parsed.
    mutating func checkExpectationsCanHold() {
        var printed: Set<String> = []
        var assigned: Set<Int32> = []
        for statement in scenario.statements {
            switch statement.kind {
            case let .print(text): printed.insert(scenario.strings[Int(text)])
            case let .assign(.global(index), _), let .add(.global(index), _): assigned.insert(index)
            default: break
            }
        }
        for (expectation, place) in zip(scenario.expectations, expectationPlaces) {
            if case let .printed(text) = expectation.kind, !printed.contains(text) {
                let near = printed.first { $0.lowercased() == text.lowercased() }
                let hint = near.map { ": the scenario prints \"\($0)\" (the comparison is case-sensitive)" } ?? ": no print in the scenario prints it"
                fail("expect printed \"\(text)\" can never hold\(hint)", at: place, id: "scenario-impossible-expectation")
            }
            guard let condition = expectation.condition else { continue }
            for global in Self.globalsRead(by: condition) where !assigned.contains(global) {
                let name = scenario.globals[Int(global)].name
                fail("`\(name)` is never assigned, so this condition only reads its initial value: assign it where the work happens, or expect something else",
                     at: place, id: "scenario-impossible-expectation")
            }
        }
    }

    /// The globals a condition reads, in the order it reads them, each once.
    static func globalsRead(by condition: Condition) -> [Int32] {
        var found: [Int32] = []
        func visit(_ expression: Expression) {
            switch expression {
            case let .read(.global(index)), let .unwrap(.global(index)):
                if !found.contains(index) { found.append(index) }
            default: break
            }
        }
        func visit(_ condition: Condition) {
            switch condition {
            case let .compare(left, _, right): visit(left); visit(right)
            case let .truthy(expression): visit(expression)
            case let .not(inner): visit(inner)
            case let .and(left, right), let .or(left, right): visit(left); visit(right)
            }
        }
        visit(condition)
        return found
    }
}
