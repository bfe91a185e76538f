import BGKBModel

/// Blocks, their local scopes and statements.
extension ScenarioParser {
    mutating func intern(_ text: String) -> Int32 {
        if let index = scenario.strings.firstIndex(of: text) { return Int32(index) }
        scenario.strings.append(text)
        return Int32(scenario.strings.count - 1)
    }

    mutating func declareLocal(_ name: String, _ type: ValueType) -> Int32 {
        let slot = localCount
        localCount += 1
        locals.append((name, slot, type))
        return slot
    }

    func lookup(_ name: String) -> (VariableRef, ValueType)? {
        if let local = locals.last(where: { $0.name == name }) { return (.local(local.slot), local.type) }
        if let global = self.global(named: name) { return (.global(global), scenario.globals[Int(global)].type) }
        return nil
    }

    /// `{ [params in] statements }` as a new block. Parameters become its first locals.
    mutating func parseBlock(parameters: [(String, ValueType)]) -> Int32? {
        let open = place
        guard expect("{", "to open the block") else { skipToLineEnd(); return nil }
        return parseBlockBody(parameters: parameters, openedAt: open)
    }

    /// After the `{`. Reads optional closure parameters (`task in`, `expired in`).
    mutating func parseBlockBody(parameters: [(String, ValueType)], openedAt open: Scenario.Place) -> Int32? {
        guard enterLevel() else { return nil }
        defer { nesting -= 1 }
        let entry = localCount
        let scopeStart = locals.count
        defer {
            if locals.count > scopeStart { locals.removeSubrange(scopeStart...) }
            localCount = entry
        }
        var parameters = parameters
        // Closure parameters: `task in`, `[weak self] expired in`, `(expired) in`, `@MainActor in`.
        var look = position
        var names: [String] = []
        var sawIn = false
        while look < tokens.count {
            let token = tokens[look]
            if token.kind == .identifier {
                if token.word(in: source) == "in" { sawIn = true; break }
                names.append(token.name(in: source))
            } else if case .symbol = token.kind {} else { break }
            look += 1
        }
        if sawIn {
            let skipped = ["weak", "unowned", "self", "MainActor", "Bool", "BGTask"]
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
            if startsTopLevelLine {
                fail("this block has no closing '}' (found '\(text(current))' inside it)", at: open)
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

    mutating func parseStatement() -> Scenario.Statement? {
        let start = place
        guard current.kind == .identifier else {
            if isSymbol("_") {
                advance()
                if isSymbol("=") { advance() }
                return parseExpressionStatement(start)
            }
            fail("expected a statement, found \(text(current))")
            skipToLineEnd()
            return nil
        }
        switch current.word(in: source) {
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
            guard let low = countLiteral() else { fail("expected a count such as 1...1001"); skipToLineEnd(); return nil }
            var count = 0
            if isSymbol("...", or: "..<") {
                let closed = isSymbol("...")
                advance()
                guard let high = countLiteral() else { fail("expected the loop's upper bound"); skipToLineEnd(); return nil }
                count = max(0, clampedInt(high) - clampedInt(low) + (closed ? 1 : 0))
            } else {
                fail("expected ... or ..< in the loop range"); skipToLineEnd(); return nil
            }
            guard let block = parseBlock(parameters: []) else { return nil }
            return .init(kind: .loop(count: count, block: block), place: start)
        case "while", "break", "continue", "repeat", "guard", "defer", "switch":
            return parseConcurrencyStatement(current.name(in: source), start)
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
            if isSymbol("?", or: "!") { advance() }
            return parseExpressionStatement(start)
        default:
            return parseExpressionStatement(start)
        }
    }

    /// A number with no unit (a loop's bound), read and passed; nil without moving otherwise.
    mutating func countLiteral() -> Double? {
        guard current.kind == .number else { return nil }
        let (value, unit) = current.number(in: source)
        guard unit == nil else { return nil }
        advance()
        return value
    }

    mutating func parseIf(_ start: Scenario.Place) -> Scenario.Statement? {
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

    mutating func parseExpressionStatement(_ start: Scenario.Place) -> Scenario.Statement? {
        guard let syntax = parseExpression(trailingClosures: true) else { skipToLineEnd(); return nil }
        if case let .symbol(symbol) = current.kind, symbol == "=" || symbol == "+=" || symbol == "-=" {
            let op = text(current)
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
}
