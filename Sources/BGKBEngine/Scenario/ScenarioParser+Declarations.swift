import BGKBModel

/// Top-level declarations: globals, functions and the app delegate handlers.
extension ScenarioParser {
    mutating func parseType() -> (ValueType, optional: Bool)? {
        if isSymbol("(") {
            // `(() -> Void)?`: a stored completion handler.
            skipBalanced("(", ")")
            var optional = false
            if isSymbol("?", or: "!") { optional = true; advance() }
            return (.completion, optional)
        }
        guard let name = identifier("a type") else { return nil }
        var optional = false
        if isSymbol("?", or: "!") { optional = true; advance() }
        switch name {
        case "UIBackgroundTaskIdentifier": return (optional ? .optionalIdentifier : .identifier, optional)
        case "Bool": return (.bool, optional)
        case "Int": return (.int, optional)
        case "BGAppRefreshTaskRequest", "BGProcessingTaskRequest", "BGTaskRequest": return (.request, optional)
        case "BGTask", "BGAppRefreshTask", "BGProcessingTask", "BGContinuedProcessingTask": return (.task, optional)
        case "BGContinuedProcessingTaskRequest": return (.request, optional)
        case "DispatchSemaphore": return (.semaphore, optional)
        case "DispatchGroup": return (.group, optional)
        case "URLSession": return (.session, optional)
        default:
            fail("unknown type \(name): use UIBackgroundTaskIdentifier, Bool, Int, DispatchSemaphore, DispatchGroup, URLSession or (() -> Void)?")
            return nil
        }
    }

    mutating func parseGlobalDeclaration() {
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
        let keyword = text(current)
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
                queueNames.append(name)
                scenario.queues.append(.init(label: label, concurrent: concurrent))
                endStatement(); return
            }
            if ["NSLock", "NSRecursiveLock", "OSAllocatedUnfairLock"].contains(first.name) {
                scenario.locks.append(name)
                endStatement(); return
            }
        }
        if let made = lowerObject(normalized(syntax)) {
            guard let object = made else { skipToLineEnd(); return }
            addGlobal(name, type: objectType(object), initial: .none, persistent: persistent, at: namePlace)
            if let global = self.global(named: name) { scenario.objectGlobals.append(ObjectGlobal(global: global, object: object)) }
            endStatement(); return
        }
        guard let value = constantValue(syntax) else {
            fail("a variable's first value must be a literal such as .invalid, nil, true or 0", at: namePlace)
            skipToLineEnd(); return
        }
        addGlobal(name, type: inferredType(value), initial: value, persistent: persistent, at: namePlace)
        endStatement()
    }

    mutating func addGlobal(_ name: String, type: ValueType, initial: Value, persistent: Bool = false, at where: Scenario.Place) {
        if global(named: name) != nil {
            fail("\(name) is declared twice", at: `where`, id: "scenario-name")
            return
        }
        scenario.globals.append(.init(name: name, type: type, initial: initial, persistent: persistent))
    }

    func inferredType(_ value: Value) -> ValueType {
        switch value {
        case .identifier: return .identifier
        case .bool: return .bool
        case .int: return .int
        case .none: return .optionalIdentifier
        default: return .unknown
        }
    }

    func constantValue(_ syntax: Syntax) -> Value? {
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

    /// A function: one of the app delegate's methods, on the main actor unless `nonisolated`.
    mutating func parseFunction(onMainActor isolated: Bool = true) {
        advance()
        guard let name = identifier("a function name"), let index = function(named: name) else { skipToLineEnd(); return }
        if scenario.functions[Int(index)].block >= 0 {
            fail("function \(name) is declared twice", id: "scenario-name")
        }
        skipBalanced("(", ")")
        while isWord("async", or: "throws") { advance() }
        if isSymbol("->") { advance(); _ = identifier("a return type") }
        let saved = (locals, localCount)
        locals = []
        localCount = 0
        onMainActor = isolated
        if let block = parseBlock(parameters: []) {
            scenario.functions[Int(index)].block = block
        }
        (locals, localCount) = saved
    }

    mutating func skipBalanced(_ open: ScenarioSymbol, _ close: ScenarioSymbol) {
        guard isSymbol(open) else { return }
        var depth = 0
        repeat {
            if isSymbol(open) { depth += 1 } else if isSymbol(close) { depth -= 1 }
            if case .end = current.kind { return }
            advance()
        } while depth > 0
    }

    mutating func parseHandler() {
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
        case "handleEventsForBackgroundURLSession", "applicationHandleEventsForBackgroundURLSession":
            event = .handleEventsForBackgroundURLSession
        case "urlSessionDidFinishEvents", "urlSessionDidFinishEventsForBackgroundURLSession":
            event = .urlSessionDidFinishEvents
        default:
            fail("unknown app event \(name): use didFinishLaunching, applicationDidEnterBackground, applicationWillEnterForeground, didReceiveRemoteNotification, handleEventsForBackgroundURLSession or urlSessionDidFinishEvents", at: namePlace, id: "scenario-name")
            skipToLineEnd(); return
        }
        if scenario.handlers[event] != nil {
            fail("\(name) is handled twice", at: namePlace, id: "scenario-name")
        }
        let saved = (locals, localCount)
        locals = []
        localCount = 0
        var parameters: [(String, ValueType)] = event == .didReceiveRemoteNotification ? [("completionHandler", .push)] : []
        if event == .handleEventsForBackgroundURLSession { parameters = [("completionHandler", .completion)] }
        // UIKit calls the app delegate on the main actor; the session's delegate queue is not main.
        onMainActor = event != .urlSessionDidFinishEvents
        if let block = parseBlock(parameters: parameters) {
            scenario.handlers[event] = block
        }
        (locals, localCount) = saved
    }
}
