import BGKBModel

/// Lowering parsed syntax into the statements and expressions the machine runs.
extension ScenarioParser {
    mutating func lowerExpression(_ syntax: Syntax) -> Expression? {
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
            if let object = lowerObject(components) { return object.map { .object($0) } }
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

    mutating func lowerCondition(_ syntax: Syntax) -> Condition? {
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

    mutating func lowerAssignment(_ target: Syntax, op: String, value: Syntax) -> StatementKind? {
        let components = normalized(target)
        guard let first = components.first, first.arguments == nil, let (ref, type) = lookup(first.name) else {
            if let first = components.first {
                fail("unknown name \(first.name): declare it with var at the top of the scenario", at: first.place, id: "scenario-name")
            }
            return nil
        }
        if let statement = lowerConcurrencyAssignment(components, ref: ref, value: value) { return statement.kind }
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

    mutating func queue(_ components: ArraySlice<Syntax.Component>) -> QueueRef? {
        if components.count == 2, components.first?.name == "DispatchQueue" {
            if components.last?.name == "main" { return .main }
            if components.last?.name == "global" { return .global }
        }
        if components.count == 1, let name = components.first?.name, let index = queue(named: name) {
            return scenario.queues[Int(index)].concurrent ? .global : .named(index)
        }
        return nil
    }

    mutating func lowerCall(_ syntax: Syntax) -> StatementKind? {
        guard case .path = syntax else {
            fail("expected a statement", at: syntax.place); return nil
        }
        let components = normalized(syntax)
        guard let last = components.last else { return nil }
        let arguments = last.arguments
        // The app's own function wins over an API of the same name (the blog's
        // `endBackgroundTask()` helper wraps UIApplication's `endBackgroundTask(_:)`).
        if components.count == 1, let function = self.function(named: last.name), arguments?.isEmpty ?? false {
            return .call(function: function)
        }
        if let statement = lowerConcurrencyCall(components) { return statement.kind }
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
            guard let lock = self.lock(named: components[0].name) else {
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
            if let function = self.function(named: last.name), arguments?.isEmpty ?? false {
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