import SwiftSyntax

/// The scenario that exercises one type's background-execution code: its properties as the
/// scenario's variables, its entry points called the way UIKit calls them, the checker's own
/// BGTask requests, and the expectations of the rules involved. Flags (`c1`…) stand for
/// conditions the scan cannot evaluate; `text(flags:)` gives one scenario per combination.
struct Harness {
    /// How UIKit reaches an entry point.
    enum Entry {
        case launch
        case background
        case push(completion: String)
        /// After launch has finished, on main (a screen appearing, the app becoming active).
        case afterLaunch
    }

    var declarations: [String] = []
    var launch = ScenarioWriter()
    var background = ScenarioWriter()
    /// `background` with each UIKit background callback that begins unguarded called twice (the
    /// app came back and left again while the first call's work ran); empty when there is none.
    var backgroundTwice = ScenarioWriter()
    var push = ScenarioWriter()
    var afterLaunchFunctions: [(name: String, body: ScenarioWriter)] = []
    var flags: [String] = []
    /// The push scenario's flags: its code is lowered with a set of its own.
    var pushFlags: [String] = []
    /// `application(_:handleEventsForBackgroundURLSession:completionHandler:)` and the
    /// `urlSessionDidFinishEvents(forBackgroundURLSession:)` its handler goes to, lowered, with
    /// the place of the first (where a handler never called is reported) and their flags.
    var sessionEvents = ScenarioWriter()
    var sessionFinished = ScenarioWriter()
    var sessionPlace: SourcePlace?
    var sessionFlags: [String] = []
    /// The functions that perform an expiring activity, each lowered with the work its blocks
    /// start instrumented (and checked in a scenario of its own, so one activity cannot keep the
    /// app running for another's work), that work, and their flags.
    var activities: [(lines: ScenarioWriter, work: [ActivityWork])] = []
    var activityFlags: [String] = []
    var activityWork: [ActivityWork] { activities.flatMap(\.work) }
    var taskIdentifiers: [TaskIdentifier] = []
    /// The push handler's declaration, where a skipped completion is reported.
    var pushPlace: SourcePlace?
    var unmodelled: String?
    /// Places of the calls each part of the harness makes, for findings that name an entry.
    var hasUIKitTasks = false

    var hasBGTasks: Bool { !taskIdentifiers.isEmpty }
    var hasPush: Bool { !push.lines.isEmpty }
    var isEmpty: Bool {
        launch.lines.isEmpty && background.lines.isEmpty && push.lines.isEmpty && afterLaunchFunctions.isEmpty && sessionPlace == nil
            && activityWork.isEmpty
    }

    /// What one scenario of the harness checks: each concern runs on its own, so a failure of
    /// one cannot hide another.
    enum Concern: CaseIterable {
        /// UIApplication background tasks, begun at launch or when the app leaves the foreground.
        case backgroundTasks
        /// The same, with the callbacks that begin unguarded called a second time: a scenario of
        /// its own, so the first one's schedules (a race within one call) stay within reach.
        case backgroundTasksCalledTwice
        /// BGTaskScheduler registration and launch handlers.
        case bgTasks
        /// The background push's completion handler.
        case push
        /// A background URLSession's events: the completion handler called, on main.
        case sessionEvents
        /// Expiring activities: the work a block starts is done before the block returns.
        case expiringActivity
    }

    func applies(_ concern: Concern) -> Bool {
        switch concern {
        case .backgroundTasks:
            return (launch.lines + background.lines).contains { $0.contains("BackgroundTask") }
        case .backgroundTasksCalledTwice:
            return !backgroundTwice.lines.isEmpty
        case .bgTasks: return hasBGTasks
        case .push: return hasPush
        case .sessionEvents: return sessionPlace != nil
        case .expiringActivity: return !activityWork.isEmpty
        }
    }

    /// How many scenarios a concern has for each combination of flags: one per function that
    /// performs an expiring activity, one for the others.
    func variants(of concern: Concern) -> Int {
        concern == .expiringActivity ? activities.count : 1
    }

    /// The scenario of one concern with the flags set as given (missing flags are false).
    func text(flags values: [Bool], concern: Concern, variant: Int = 0) -> String {
        if concern == .sessionEvents { return sessionText(flags: values) }
        if concern == .expiringActivity { return activityText(flags: values, entry: variant) }
        var lines: [String] = []
        for (index, flag) in flags(for: concern).enumerated() {
            lines.append("var \(flag) = \(index < values.count && values[index])")
        }
        lines.append(contentsOf: declarations)
        let continued = concern == .bgTasks ? taskIdentifiers.filter(\.continued) : []
        if !continued.isEmpty { lines.append("system runs continued processing now") }
        lines.append("at 0s: app launches")
        // A continued processing task is submitted by the user's action, in the foreground, and
        // starts at once.
        for (index, identifier) in continued.enumerated() { lines.append("at 0.\(5 + index)s: scanSubmitContinued\(index + 1)()") }
        let late = concern == .bgTasks && !afterLaunchFunctions.isEmpty
        if late {
            for (index, function) in afterLaunchFunctions.enumerated() { lines.append("at \(3 + index)s: \(function.name)()") }
        }
        lines.append(late ? "at 10s: app enters background" : "at 1s: app enters background")
        // The user comes back long after the background time is over: work the suspension froze
        // (a task waiting at an `await`, a queue's block) runs again, and shows what it does then.
        let returns = concern == .backgroundTasks || concern == .backgroundTasksCalledTwice
        if returns { lines.append("at 10min: app enters foreground") }
        if concern == .push { lines.append("at 1h: push arrives") }
        if concern == .bgTasks {
            for identifier in taskIdentifiers where !identifier.continued { lines.append("at 2h: system launches \"\(identifier.literal)\"") }
        }
        if !launch.lines.isEmpty, concern != .push {
            lines.append("on didFinishLaunching {")
            lines.append(contentsOf: launch.lines)
            lines.append("}")
        }
        lines.append("on applicationDidEnterBackground {")
        if concern == .backgroundTasks { lines.append(contentsOf: background.lines) }
        if concern == .backgroundTasksCalledTwice { lines.append(contentsOf: backgroundTwice.lines) }
        if concern == .bgTasks {
            // One refresh request may be pending at a time: further identifiers get processing requests.
            let refresh = taskIdentifiers.first { !$0.processing && !$0.continued }?.literal
            for identifier in taskIdentifiers where !identifier.continued {
                let type = identifier.literal == refresh ? "BGAppRefreshTaskRequest" : "BGProcessingTaskRequest"
                lines.append("  try? BGTaskScheduler.shared.submit(\(type)(identifier: \"\(identifier.literal)\"))")
            }
        }
        lines.append("}")
        if concern == .push {
            lines.append("on didReceiveRemoteNotification {")
            lines.append(contentsOf: push.lines)
            lines.append("}")
        }
        for (index, identifier) in continued.enumerated() {
            lines.append("func scanSubmitContinued\(index + 1)() {")
            lines.append("  try? BGTaskScheduler.shared.submit(BGContinuedProcessingTaskRequest(identifier: \"\(identifier.literal)\", title: \"scan\", subtitle: \"\"))")
            lines.append("}")
        }
        if late {
            for function in afterLaunchFunctions {
                lines.append("func \(function.name)() {")
                lines.append(contentsOf: function.body.lines)
                lines.append("}")
            }
        }
        lines.append(returns ? "expect running" : "expect suspended")
        if concern == .bgTasks || concern == .push { lines.append("expect task completed") }
        return lines.joined(separator: "\n") + "\n"
    }

    func flags(for concern: Concern) -> [String] {
        switch concern {
        case .push: return pushFlags
        case .sessionEvents: return sessionFlags
        case .expiringActivity: return activityFlags
        default: return flags
        }
    }

    /// The scenario of a background session's events: a transfer started as the app leaves, the
    /// session finishing two minutes later, the app's two callbacks, and the rule's expectation.
    func sessionText(flags values: [Bool]) -> String {
        var lines = sessionFlags.enumerated().map { "var \($1) = \($0 < values.count && values[$0])" }
        lines.append(contentsOf: declarations)
        lines.append("let scanSession = URLSession(configuration: .background(withIdentifier: \"scan.session\"), delegate: self, delegateQueue: nil)")
        lines.append(contentsOf: ["at 0s: app launches", "at 1s: app enters background", "at 2min: background URLSession \"scan.session\" finishes"])
        lines.append(contentsOf: ["on applicationDidEnterBackground {", "  scanSession.downloadTask(with: scanURL).resume()", "}"])
        lines.append("on handleEventsForBackgroundURLSession {")
        lines.append(contentsOf: sessionEvents.lines)
        lines.append("}")
        lines.append("on urlSessionDidFinishEvents {")
        lines.append(contentsOf: sessionFinished.lines)
        lines.append("}")
        lines.append("expect completion handler called")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The scenario of the expiring activities: the functions that perform them called as the
    /// app enters the background (where an activity is what keeps the process from being
    /// suspended), the time granted and never cut short, so the only question is whether the
    /// work a block starts is done before the block returns and the activity ends with it.
    func activityText(flags values: [Bool], entry: Int) -> String {
        guard activities.indices.contains(entry) else { return "" }
        let (activity, work) = activities[entry]
        var lines = activityFlags.enumerated().map { "var \($1) = \($0 < values.count && values[$0])" }
        lines.append(contentsOf: declarations)
        for work in work { lines.append(contentsOf: ["var \(work.started) = false", "var \(work.done) = false"]) }
        lines.append(contentsOf: ["system budget 30s", "system grants beginBackgroundTask", "system expires tasks only when time runs out"])
        lines.append(contentsOf: ["at 0s: app launches", "at 1s: app enters background"])
        lines.append("on applicationDidEnterBackground {")
        lines.append(contentsOf: activity.lines)
        lines.append("}")
        for work in work { lines.append("expect !(\(work.started) && !\(work.done))") }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Each scenario of a concern: its variant (the activity's function), then each combination
    /// of flags, the all-false one first.
    func scenarioChoices(for concern: Concern) -> [(variant: Int, flags: [Bool])] {
        (0..<variants(of: concern)).flatMap { variant in flagCombinations(for: concern).map { (variant, $0) } }
    }

    /// Every combination of a concern's flags, the all-false one (no unknown branch taken) first.
    func flagCombinations(for concern: Concern) -> [[Bool]] {
        let names = flags(for: concern)
        return (0..<(1 << names.count)).map { bits in names.indices.map { bits & (1 << $0) != 0 } }
    }
}

/// Builds the harness for one type.
enum HarnessBuilder {
    static let launchFunctions: Set<String> = ["application(_:didFinishLaunchingWithOptions:)", "application(_:willFinishLaunchingWithOptions:)"]
    static let backgroundFunctions: Set<String> = ["applicationDidEnterBackground(_:)", "sceneDidEnterBackground(_:)",
                                                   "applicationWillResignActive(_:)", "sceneWillResignActive(_:)"]
    static let afterLaunchFunctions: Set<String> = ["applicationDidBecomeActive(_:)", "sceneDidBecomeActive(_:)", "sceneWillEnterForeground(_:)",
                                                    "applicationWillEnterForeground(_:)", "viewDidLoad()", "viewWillAppear(_:)", "viewDidAppear(_:)",
                                                    "scene(_:willConnectTo:options:)", "onAppear()"]
    static let pushFunction = "application(_:didReceiveRemoteNotification:fetchCompletionHandler:)"

    /// What the scan looks for in a body before lowering it.
    static let covered = ["beginBackgroundTask", "endBackgroundTask", "register(forTaskWithIdentifier", "fetchCompletionHandler"]

    static func signature(_ function: FunctionDeclSyntax) -> String {
        let labels = function.signature.parameterClause.parameters.map { "\($0.firstName.text):" }.joined()
        return "\(function.name.text)(\(labels))"
    }

    static func build(_ model: TypeModel, converter: SourceLocationConverter, fileTypes: [String: TypeModel] = [:]) -> Harness? {
        let relevant = relevantFunctions(model)
        let receivesSessionEvents = model.functionOrder.contains { signature($0).contains("handleEventsForBackgroundURLSession:") }
        let performsActivity = model.functionOrder.contains { activityEntry($0) }
        guard !relevant.isEmpty || model.initializers.contains(where: { reaches($0.description, relevant) }) || !model.appearanceClosures.isEmpty
            || receivesSessionEvents || performsActivity else { return nil }
        let called = calledNames(model)
        var lowerer = Lowerer(model: model, converter: converter, fileTypes: fileTypes)
        var harness = Harness()
        var others: [FunctionDeclSyntax] = []
        var resignedLines = 0
        var enteredLines = 0
        var twice: [(first: [String], again: [String])] = []
        var pushEntry: FunctionDeclSyntax?
        for function in model.functionOrder where relevant.contains(function.name.text) {
            let signature = signature(function)
            guard let body = function.body else { continue }
            if launchFunctions.contains(signature) {
                lowerer.out = ScenarioWriter(depth: 1)
                lowerer.lowerBody(body.statements)
                harness.launch.lines.append(contentsOf: lowerer.out.lines)
            } else if backgroundFunctions.contains(signature) {
                lowerer.out = ScenarioWriter(depth: 1)
                lowerer.lowerBody(body.statements)
                // The app resigns active before it enters the background.
                if signature.contains("ResignActive") {
                    harness.background.lines.insert(contentsOf: lowerer.out.lines, at: resignedLines)
                    resignedLines += lowerer.out.lines.count
                } else {
                    let first = lowerer.out.lines
                    harness.background.lines.insert(contentsOf: first, at: resignedLines + enteredLines)
                    enteredLines += first.count
                    // The app may return to the foreground and leave again while the first call's
                    // work runs: a call that begins with no test before it runs twice.
                    if beginsUnguarded(function), !first.isEmpty {
                        lowerer.out = ScenarioWriter(depth: 1)
                        lowerer.lowerBody(body.statements)
                        twice.append((first, lowerer.out.lines))
                    }
                }
            } else if signature == pushFunction {
                pushEntry = function
            } else if afterLaunchFunctions.contains(signature), registers(function, in: model) {
                lowerer.out = ScenarioWriter(depth: 1)
                lowerer.lowerBody(body.statements)
                harness.afterLaunchFunctions.append((function.name.text, lowerer.out))
            } else if !called.contains(function.name.text) || isPublicEnd(function), isCallableAsEntry(function) {
                others.append(function)
            }
        }
        // Entry points whose callers are elsewhere. One that registers is taken to run at
        // launch (its caller cannot be seen, so the scan does not guess it is late); the rest run
        // when the app enters the background, those that begin before those that only end.
        let ordered = others.filter { mentions($0.description, "beginBackgroundTask") } + others.filter { !mentions($0.description, "beginBackgroundTask") }
        for function in ordered {
            guard let body = function.body else { continue }
            lowerer.out = ScenarioWriter(depth: 1)
            lowerEntry(function, body: body, model: model, into: &lowerer)
            if function.description.contains("register(forTaskWithIdentifier") {
                harness.launch.lines.append(contentsOf: lowerer.out.lines)
            } else {
                harness.background.lines.append(contentsOf: lowerer.out.lines)
                // Its callers are out of sight, so it may be called again while its first task
                // runs: a function that begins is called twice.
                if beginsUnguarded(function) {
                    lowerer.out = ScenarioWriter(depth: 1)
                    lowerEntry(function, body: body, model: model, into: &lowerer)
                    harness.background.lines.append(contentsOf: lowerer.out.lines)
                }
            }
        }
        for (index, closure) in model.appearanceClosures.enumerated() {
            let text = closure.statements.description
            let reaches = text.contains("register(forTaskWithIdentifier") || model.functionOrder.contains { function in
                text.contains(function.name.text + "(") && registers(function, in: model)
            }
            guard reaches else { continue }
            lowerer.out = ScenarioWriter(depth: 1)
            lowerer.lowerBody(closure.statements)
            harness.afterLaunchFunctions.append(("onAppear\(index + 1)", lowerer.out))
        }
        // A Combine subscription made when the object is made delivers whenever its publisher
        // sends, the background included: each subscriber that reaches the covered APIs runs
        // once in the background, on the queue its chain delivers on.
        for setup in subscriptionSetup(model) {
            let finder = SubscriberFinder(viewMode: .sourceAccurate)
            finder.walk(setup)
            for sink in finder.sinks where Lowerer.closures(of: sink).contains(where: { reaches($0.description, relevant) }) {
                lowerer.out = ScenarioWriter(depth: 1)
                lowerer.lowerSubscriber(sink)
                harness.background.lines.append(contentsOf: lowerer.out.lines)
            }
        }
        // An initializer that begins a task (itself or through the type's functions) is an entry
        // point: the object is made while the app runs, before anything else of it is called.
        for initializer in model.initializers where reaches(initializer.description, relevant) {
            guard let body = initializer.body else { continue }
            lowerer.out = ScenarioWriter(depth: 1)
            lowerer.lowerBody(body.statements)
            harness.launch.lines.insert(contentsOf: lowerer.out.lines, at: 0)
        }
        // `deinit` runs when the object is released, which the scan cannot see: last, once the
        // app is in the background and every other entry point has run.
        for deinitializer in model.deinitializers where reaches(deinitializer.description, relevant) {
            guard let body = deinitializer.body else { continue }
            lowerer.out = ScenarioWriter(depth: 1)
            lowerer.lowerBody(body.statements)
            harness.background.lines.append(contentsOf: lowerer.out.lines)
        }
        if !twice.isEmpty {
            // Each second call right after its first (whose lines, with their markers, are unique).
            harness.backgroundTwice = harness.background
            for (first, again) in twice {
                let lines = harness.backgroundTwice.lines
                guard let start = lines.indices.first(where: { Array(lines[$0...].prefix(first.count)) == first }) else { continue }
                harness.backgroundTwice.lines.insert(contentsOf: again, at: start + first.count)
            }
        }
        harness.flags = lowerer.flags.map(\.name)
        if let function = pushEntry, let body = function.body {
            // The push's scenario runs none of the code above: its unknown conditions get flags of their own.
            lowerer.restartFlags(prefix: "p")
            let parameter = function.signature.parameterClause.parameters.last.map { ($0.secondName ?? $0.firstName).text } ?? "completionHandler"
            lowerer.out = ScenarioWriter(depth: 1)
            lowerer.lowerBody(body.statements, bindings: [parameter: .pushCompletion("completionHandler")])
            harness.push.lines.append(contentsOf: lowerer.out.lines)
            harness.pushPlace = lowerer.place(function.funcKeyword)
            harness.pushFlags = lowerer.flags.map(\.name)
        }
        lowerSessionEvents(model, converter: converter, into: &lowerer, harness: &harness)
        lowerActivities(model, into: &lowerer, harness: &harness)
        harness.taskIdentifiers = lowerer.taskIdentifiers
        harness.unmodelled = lowerer.unmodelled
        harness.declarations = declarations(model) + lowerer.objectDeclarations + lowerer.inlineLocks.map { "let \($0) = NSLock()" }
            + lowerer.operationGroups.map { "let \($0) = DispatchGroup()" }
        return harness.isEmpty ? nil : harness
    }

    /// The background session's two callbacks, when both are in the file: the handler received
    /// in `handleEventsForBackgroundURLSession` (this type) and the `urlSessionDidFinishEvents` of
    /// this type or of the object of another type the handler is given to.
    static func lowerSessionEvents(_ model: TypeModel, converter: SourceLocationConverter, into lowerer: inout Lowerer, harness: inout Harness) {
        guard let events = model.functionOrder.first(where: { signature($0).contains("handleEventsForBackgroundURLSession:") }),
              let body = events.body, let parameter = events.signature.parameterClause.parameters.last else { return }
        let handler = (parameter.secondName ?? parameter.firstName).text
        let target = finisherTarget(model, body: body, fileTypes: lowerer.fileTypes)
        let finishing = target.flatMap { type, prefix in type.functions["urlSessionDidFinishEvents"]?.first?.body.map { (type, prefix, $0) } }
        // Without the delegate's urlSessionDidFinishEvents in the file, the scan can follow only a
        // handler this method calls itself (then the delegate, wherever it is, gets the events later).
        guard finishing != nil || callsDirectly(handler, in: body) else { return }
        lowerer.restartFlags(prefix: "s")
        lowerer.out = ScenarioWriter(depth: 1)
        var bindings: [String: Lowerer.Ref] = [handler: .sessionHandler]
        if let identifier = events.signature.parameterClause.parameters.dropFirst().first {
            bindings[(identifier.secondName ?? identifier.firstName).text] = .sessionIdentifier
        }
        lowerer.lowerBody(body.statements, bindings: bindings)
        harness.sessionEvents = lowerer.out
        lowerer.out = ScenarioWriter(depth: 1)
        // The engine runs urlSessionDidFinishEvents on the session's queue; a session whose
        // delegate queue is main runs it on main.
        if let (finisherType, prefix, finisher) = finishing {
            lowerFinisher(finisher, of: finisherType, prefix: prefix, mainQueue: sessionDelegateQueueIsMain(events.root), into: &lowerer)
        }
        harness.sessionFinished = lowerer.out
        harness.sessionPlace = lowerer.place(events.funcKeyword)
        harness.sessionFlags = lowerer.flags.map(\.name)
    }

    /// True when `body` calls `name(…)` or `name?(…)` (in the body or a closure written in it).
    static func callsDirectly(_ name: String, in body: CodeBlockSyntax) -> Bool {
        body.tokens(viewMode: .sourceAccurate).contains { token in
            guard token.text == name, let next = token.nextToken(viewMode: .sourceAccurate) else { return false }
            return next.tokenKind == .leftParen || next.tokenKind == .postfixQuestionMark
        }
    }

    static func lowerFinisher(_ finisher: CodeBlockSyntax, of finisherType: TypeModel, prefix: String, mainQueue: Bool, into lowerer: inout Lowerer) {
        if mainQueue {
            lowerer.out.block("DispatchQueue.main.async") { _ in }
            lowerer.replaceLastBlock { $0.lowerBody(finisher, of: finisherType, prefix: prefix) }
        } else {
            lowerer.lowerBody(finisher, of: finisherType, prefix: prefix)
        }
    }

    /// A function whose body performs an expiring activity.
    static func activityEntry(_ function: FunctionDeclSyntax) -> Bool {
        function.body?.description.contains("performExpiringActivity") == true
    }

    /// The functions that perform an expiring activity, each as an entry point (its callers,
    /// an extension's or a watch app's, are out of the engine's model), with the work their
    /// blocks start instrumented.
    static func lowerActivities(_ model: TypeModel, into lowerer: inout Lowerer, harness: inout Harness) {
        let entries = model.functionOrder.filter(activityEntry)
        guard !entries.isEmpty else { return }
        lowerer.restartFlags(prefix: "e")
        lowerer.instrumentsActivity = true
        defer { lowerer.instrumentsActivity = false }
        for function in entries {
            guard let body = function.body else { continue }
            lowerer.out = ScenarioWriter(depth: 1)
            let before = lowerer.activityWork.count
            lowerEntry(function, body: body, model: model, into: &lowerer)
            let work = Array(lowerer.activityWork[before...])
            if !work.isEmpty { harness.activities.append((lowerer.out, work)) }
        }
        harness.activityFlags = lowerer.flags.map(\.name)
    }

    /// The type whose `urlSessionDidFinishEvents` the handler reaches, and the prefix of its
    /// object's variables: this type, or the object of a type of the file that the body uses
    /// (a stored property, or `Type.shared`).
    static func finisherTarget(_ model: TypeModel, body: CodeBlockSyntax, fileTypes: [String: TypeModel]) -> (TypeModel, String)? {
        if model.functions["urlSessionDidFinishEvents"] != nil { return (model, "") }
        for token in body.tokens(viewMode: .sourceAccurate) {
            if case let .object(type)? = model.properties[token.text]?.kind, let target = fileTypes[type], target.functions["urlSessionDidFinishEvents"] != nil {
                return (target, token.text + "_")
            }
            // `Type.shared`: a member holding an object of the type (not `Type.identifier`).
            if let target = fileTypes[token.text], target.functions["urlSessionDidFinishEvents"] != nil,
               let next = token.nextToken(viewMode: .sourceAccurate), next.tokenKind == .period,
               let member = next.nextToken(viewMode: .sourceAccurate), target.properties[member.text]?.kind == .object(type: token.text) {
                return (target, "\(token.text)_\(member.text)_")
            }
        }
        return nil
    }

    /// True when the file hands its sessions a main delegate queue, so their callbacks run on main.
    static func sessionDelegateQueueIsMain(_ file: Syntax) -> Bool {
        let text = file.description
        return text.contains("delegateQueue: .main") || text.contains("delegateQueue: OperationQueue.main")
    }

    /// Lowers a function whose callers are elsewhere. An `async` one is called from a task:
    /// on the main actor for a main-actor type (its `await`s let go of main), else on a thread
    /// of its own.
    static func lowerEntry(_ function: FunctionDeclSyntax, body: CodeBlockSyntax, model: TypeModel, into lowerer: inout Lowerer) {
        guard function.signature.effectSpecifiers?.asyncSpecifier != nil else { return lowerer.lowerBody(body.statements) }
        let onMain = model.isMainActor || function.attributes.trimmedDescription.contains("@MainActor")
        lowerer.out.block(onMain ? "Task" : "Task.detached") { _ in }
        lowerer.replaceLastBlock { inner in inner.isolated(onMainActor: onMain) { $0.lowerBody(body.statements) } }
    }

    /// True when the function registers a launch handler, itself or through functions of its type.
    static func registers(_ function: FunctionDeclSyntax, in model: TypeModel, depth: Int = 0) -> Bool {
        let text = function.body?.description ?? ""
        if text.contains("register(forTaskWithIdentifier") { return true }
        guard depth < 4 else { return false }
        return model.functionOrder.contains { other in
            other.name.text != function.name.text && text.contains(other.name.text + "(") && registers(other, in: model, depth: depth + 1)
        }
    }

    /// The initializers, and the type's functions they call (directly or through each other):
    /// where the subscriptions made with the object are set up.
    static func subscriptionSetup(_ model: TypeModel) -> [Syntax] {
        var reached: [FunctionDeclSyntax] = []
        var texts = model.initializers.map(\.description)
        while let text = texts.popLast() {
            for function in model.functionOrder where !reached.contains(where: { $0.id == function.id }) && text.contains(function.name.text + "(") {
                reached.append(function)
                texts.append(function.description)
            }
        }
        return model.initializers.map { Syntax($0) } + reached.map { Syntax($0) }
    }

    /// True when `text` uses a covered API or calls one of the `relevant` functions.
    static func reaches(_ text: String, _ relevant: Set<String>) -> Bool {
        mentions(text) || relevant.contains { text.contains($0 + "(") }
    }

    static func mentions(_ text: String, _ name: String? = nil) -> Bool {
        if let name { return text.contains(name) }
        return covered.contains { text.contains($0) }
    }

    /// Functions that use a covered API, directly or through other functions of the type.
    static func relevantFunctions(_ model: TypeModel) -> Set<String> {
        var relevant = Set(model.functionOrder.filter { mentions($0.description) }.map(\.name.text))
        var changed = true
        while changed {
            changed = false
            for function in model.functionOrder where !relevant.contains(function.name.text) {
                let text = function.body?.description ?? ""
                if relevant.contains(where: { text.contains($0 + "(") }) {
                    relevant.insert(function.name.text)
                    changed = true
                }
            }
        }
        return relevant
    }

    /// Names of the type's functions that its own code calls (those are lowered where they are called).
    static func calledNames(_ model: TypeModel) -> Set<String> {
        var names: Set<String> = []
        let bodies = model.functionOrder.compactMap(\.body?.description) + model.initializers.compactMap(\.body?.description)
            + model.deinitializers.compactMap(\.body?.description)
            + model.properties.values.map(\.node.description)
        for function in model.functions.keys {
            let own = model.functions[function]?.compactMap(\.body?.description) ?? []
            for text in bodies where !own.contains(text) {
                if text.contains(function + "(") || text.contains("self." + function) || text.contains(": " + function) {
                    names.insert(function)
                    break
                }
            }
        }
        return names
    }

    /// A function that begins a task with no test before it: nothing (that the scan could see)
    /// stops a second call from beginning again.
    static func beginsUnguarded(_ function: FunctionDeclSyntax) -> Bool {
        let text = function.body?.description ?? ""
        guard let range = text.range(of: "beginBackgroundTask") else { return false }
        let before = text[..<range.lowerBound]
        return !before.contains("guard ") && !before.contains("if ") && !before.contains("switch ")
    }

    /// A function other types may call to end the task (a wrapper's `release()`): not private,
    /// ends a task and begins none. Its callers are out of sight, so the harness calls it.
    static func isPublicEnd(_ function: FunctionDeclSyntax) -> Bool {
        let isPrivate = function.modifiers.contains { $0.name.text == "private" || $0.name.text == "fileprivate" }
        let text = function.body?.description ?? ""
        return !isPrivate && text.contains("endBackgroundTask") && !text.contains("beginBackgroundTask")
    }

    /// A function the harness can call without arguments: one with no parameters, or whose
    /// parameters carry nothing the scan follows (not identifiers, tasks or completion handlers).
    static func isCallableAsEntry(_ function: FunctionDeclSyntax) -> Bool {
        function.signature.parameterClause.parameters.allSatisfy { parameter in
            let type = parameter.type.trimmedDescription
            return !type.contains("UIBackgroundTaskIdentifier") && !type.contains("BG") && !type.contains("->")
        }
    }

    /// The scenario's variables: the type's stored properties the scan understands (of the
    /// object whose variables start with `prefix`, for an object of another type of the file).
    static func declarations(_ model: TypeModel, prefix: String = "") -> [String] {
        var lines: [String] = []
        for property in model.propertyOrder {
            guard let kind = model.properties[property]?.kind else { continue }
            let name = prefix + property
            switch kind {
            case let .identifier(optional):
                lines.append(optional ? "var \(name): UIBackgroundTaskIdentifier?" : "var \(name): UIBackgroundTaskIdentifier = .invalid")
            case let .bool(initial):
                lines.append("var \(name): Bool = \(initial)")
            case let .int(initial):
                lines.append("var \(name): Int = \(initial)")
            case .lock:
                lines.append("let \(name) = NSLock()")
            case let .queue(concurrent):
                lines.append("let \(name) = DispatchQueue(label: \"\(name)\"\(concurrent ? ", attributes: .concurrent" : ""))")
            case let .semaphore(initial):
                lines.append("let \(name) = DispatchSemaphore(value: \(initial))")
            case .group:
                lines.append("let \(name) = DispatchGroup()")
            case .closure where model.holdsHandler(property):
                lines.append("var \(name): (() -> Void)?")
            case .closure, .object, .other:
                continue
            }
        }
        return lines
    }
}

extension ScenarioWriter {
    init(depth: Int) {
        self.init()
        self.depth = depth
    }
}

/// Combine `sink` calls, outside nested closures' own subscriptions too.
final class SubscriberFinder: SyntaxVisitor {
    var sinks: [FunctionCallExprSyntax] = []
    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        if Lowerer.callee(node)?.name == "sink", node.calledExpression.is(MemberAccessExprSyntax.self) { sinks.append(node) }
        return .visitChildren
    }
}
