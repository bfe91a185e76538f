import SwiftSyntax

/// Turns the app's Swift, one function body at a time, into statements of the engine's scenario
/// language. What the engine can run is kept (beginning and ending tasks, identifiers stored in
/// properties and locals, queue hops, locks, `Task`, BGTask handlers, the push completion
/// handler, early returns, thrown errors, `defer`); calls it cannot see into become `work 100ms`,
/// the engine's unit of busy time, whose length the exploration's early expiries make moot;
/// a condition it cannot evaluate becomes a flag (`c1`), and the checker runs each combination of
/// flags as its own scenario, so each path is explored, not guessed.
/// A BGTask identifier the app registers, and the literal the scenario uses for it.
struct TaskIdentifier {
    var text: String
    var literal: String
    var processing: Bool
    /// A BGContinuedProcessingTask's identifier (iOS 26): the handler casts to it, or the file
    /// submits a `BGContinuedProcessingTaskRequest` with the same identifier.
    var continued = false
    /// The `register(forTaskWithIdentifier:…)` call.
    var place: SourcePlace
    /// The launch handler sets `task.expirationHandler` on some path.
    var setsExpirationHandler = false
}

struct Lowerer {
    /// What a name in the app's code stands for in the scenario.
    enum Ref: Equatable {
        case identifier(String, optional: Bool)
        case bool(String)
        case int(String)
        case task(String)
        case pushCompletion(String)
        case lock(String)
        case queue(String)
        case expired(String)
        case semaphore(String)
        case group(String)
        /// A closure literal passed to an inlined function: calling the parameter runs it, with
        /// the names it captured where it was written.
        case closure(ClosureExprSyntax, Capture)
        /// A function declared inside the body being lowered: calling it inlines it.
        case localFunction(FunctionDeclSyntax)
        /// An object of another type of the file; its stored properties are the scenario's
        /// variables whose names start with the prefix.
        case instance(String, type: String)
        /// The completion handler `handleEventsForBackgroundURLSession` receives.
        case sessionHandler
        /// The identifier it receives: the harness's session is the app's own, so a test that it
        /// is the app's identifier holds.
        case sessionIdentifier
        /// A stored property holding such a handler (`var savedHandler: (() -> Void)?`).
        case storedHandler(String)
        /// A Combine subscriber's completion (`receiveCompletion: { completion in … }`): it is a
        /// failure exactly when the flag (a value arrived) is false.
        case combineCompletion(valueFlag: String)
    }

    /// Set while the harness lowers the functions that perform an expiring activity for the
    /// rule that the activity outlives its work: semaphores and groups are modelled, and the
    /// work the activity's block starts is instrumented (`spawn(at:_:)`).
    var instrumentsActivity = false
    /// How many `performExpiringActivity` blocks enclose the code being lowered, and their calls.
    var activityPlaces: [SourcePlace] = []
    /// Work started by an activity's block that the harness checks ends before the activity.
    private(set) var activityWork: [ActivityWork] = []
    /// The spawned bodies being lowered, innermost last: the boundary of their closure and the
    /// variable that says the work is done.
    var spawnFrames: [(boundary: Int, done: String)] = []
    private var spawnCounter = 0

    /// The type whose code is being lowered: the harness's, or another type of the file while
    /// one of its methods is lowered where it is called.
    var model: TypeModel
    /// The start of the scenario names of `model`'s stored properties (empty for the harness's own type).
    var prefix = ""
    let converter: SourceLocationConverter
    /// The types declared in the scanned file, by name.
    let fileTypes: [String: TypeModel]
    /// Declarations of the stored properties of objects of other types, as their methods are lowered.
    private(set) var objectDeclarations: [String] = []
    private var declaredObjects: Set<String> = []
    var out = ScenarioWriter()
    /// Condition text → flag name, so two tests of the same condition take the same branch.
    private(set) var flags: [(text: String, name: String)] = []
    /// Set when the code does something the scan must understand to judge it but cannot (an
    /// identifier passed somewhere it cannot follow): the checker then reports nothing.
    private(set) var unmodelled: String?
    /// Locks the scenario must declare for inlined bodies that return early.
    private(set) var inlineLocks: [String] = []
    /// Groups the scenario must declare to count an OperationQueue's operations.
    private(set) var operationGroups: [String] = []
    /// BGTask identifier expressions → the literal the scenario uses, and whether a processing task.
    var taskIdentifiers: [TaskIdentifier] = []

    private var scopes: [[String: Ref]] = [[:]]
    /// Indices in `scopes` where an inlined function's body starts: its lookups do not see the
    /// caller's locals.
    private var barriers: [Int] = []
    /// Where a lock region (`lock()` … `unlock()`) began in `out`: locals declared inside it are
    /// declared here, so the code after the region still sees them.
    var hoistPoints: [Int] = []
    /// `defer` bodies of the blocks being lowered, innermost last.
    private var defers: [[CodeBlockSyntax]] = [[]]
    /// Where in `defers` each enclosing function or closure starts.
    private var boundaries: [Int] = [0]
    /// For each enclosing function or closure, the local its `return value` assigns, if any
    /// (`let id = queue.sync { …; return taskID }`).
    var returnTargets: [Ref?] = [nil]
    private var callStack: [String] = []
    /// The `catch` bodies of the `do` statements being lowered, with the function or closure each belongs to.
    var catches: [(boundary: Int, body: CodeBlockSyntax)] = []
    var boundaryCount: Int { boundaries.count }
    private var counter = 0
    static let flagLimit = 4
    /// How flag names start: `c` for the scenarios of launch and background, `p` for the push's.
    private var flagPrefix = "c"

    /// Starts a new set of flags (a concern whose scenario shares no code with the others).
    mutating func restartFlags(prefix: String) {
        flags = []
        flagPrefix = prefix
    }
    /// The code being lowered runs in a Swift task on the main actor (a main-actor type's async
    /// method, `Task { }` in a main-actor type): an `await` there frees the main thread.
    var onMainActor = false
    /// The expression being lowered is awaited.
    var awaiting = false

    /// The type the harness checks (whose stored properties have no prefix).
    let rootName: String

    init(model: TypeModel, converter: SourceLocationConverter, fileTypes: [String: TypeModel] = [:]) {
        self.model = model
        rootName = model.name
        self.converter = converter
        self.fileTypes = fileTypes
    }

    /// What a closure literal sees of the code around it: the names visible where it is written,
    /// and whose stored properties `self` means there.
    struct Capture: Equatable {
        var names: [String: Ref]
        var typeName: String
        var prefix: String
    }

    /// A closure literal as a value, with what it captures here.
    func capture(_ closure: ClosureExprSyntax) -> Ref {
        let floor = barriers.last ?? 0
        var names: [String: Ref] = [:]
        for scope in scopes[floor...] { names.merge(scope) { _, inner in inner } }
        return .closure(closure, Capture(names: names, typeName: model.name, prefix: prefix))
    }

    /// Lowers `body` (a captured closure's statements) in the scope the closure was written in.
    mutating func withCapture(_ capture: Capture, _ body: (inout Lowerer) -> Void) {
        let saved = (model, prefix)
        model = fileTypes[capture.typeName] ?? model
        prefix = capture.prefix
        barriers.append(scopes.count)
        scopes.append(capture.names)
        body(&self)
        scopes.removeLast()
        barriers.removeLast()
        (model, prefix) = saved
    }

    /// Lowers the body of a method of `type` (the object's variables starting with `objectPrefix`)
    /// as an entry point, not at a call.
    mutating func lowerBody(_ body: CodeBlockSyntax, of type: TypeModel, prefix objectPrefix: String) {
        if type.name != model.name { declareObject(objectPrefix, of: type) }
        let saved = (model, prefix)
        (model, prefix) = (type, objectPrefix)
        lowerBody(body.statements, barrier: true)
        (model, prefix) = saved
    }

    /// Declares the objects of other types whose stored properties `expression` reaches
    /// (`tiles.completion`, `tiles.completion?()`).
    mutating func declareObjects(in expression: ExprSyntax) {
        var node: ExprSyntax? = expression
        while let current = node {
            if let optional = current.as(OptionalChainingExprSyntax.self) { node = optional.expression; continue }
            if let forced = current.as(ForceUnwrapExprSyntax.self) { node = forced.expression; continue }
            guard let member = current.as(MemberAccessExprSyntax.self), let base = member.base else { return }
            if case let .instance(objectPrefix, type)? = resolve(base), let foreign = fileTypes[type] { declareObject(objectPrefix, of: foreign) }
            node = base
        }
    }

    /// Declares the stored properties of an object of another type, once.
    mutating func declareObject(_ prefix: String, of type: TypeModel) {
        guard !prefix.isEmpty, declaredObjects.insert(prefix).inserted else { return }
        objectDeclarations.append(contentsOf: HarnessBuilder.declarations(type, prefix: prefix))
    }

    func place(_ node: some SyntaxProtocol) -> SourcePlace {
        let location = node.startLocation(converter: converter)
        return SourcePlace(line: location.line, column: location.column)
    }

    // MARK: names

    mutating func bind(_ name: String, _ ref: Ref) { scopes[scopes.count - 1][name] = ref }

    mutating func fresh(_ base: String) -> String {
        counter += 1
        return "\(base)_\(counter)"
    }

    func lookup(_ name: String) -> Ref? {
        let floor = barriers.last ?? 0
        for index in stride(from: scopes.count - 1, through: floor, by: -1) { if let ref = scopes[index][name] { return ref } }
        return propertyRef(name)
    }

    func propertyRef(_ property: String) -> Ref? {
        guard let kind = model.properties[property]?.kind else { return nil }
        let name = prefix + property
        switch kind {
        case let .identifier(optional): return .identifier(name, optional: optional)
        case .bool: return .bool(name)
        case .int: return .int(name)
        case .lock: return .lock(name)
        case .queue: return .queue(name)
        case .semaphore: return .semaphore(name)
        case .group: return .group(name)
        case let .object(type) where fileTypes[type] != nil && type != model.name: return .instance(name + "_", type: type)
        case .closure where model.holdsHandler(property): return .storedHandler(name)
        case .closure, .object, .other: return nil
        }
    }

    /// The scenario meaning of `x`, `self.x`, `x!`, `x as! T`, `(x)`.
    func resolve(_ expression: ExprSyntax) -> Ref? {
        if let reference = expression.as(DeclReferenceExprSyntax.self) { return lookup(reference.baseName.text) }
        if let member = expression.as(MemberAccessExprSyntax.self), let base = member.base, isSelf(base) {
            // A property of self; a local of the same name does not hide it.
            return scopes.first?[member.declName.baseName.text] ?? propertyRef(member.declName.baseName.text)
        }
        // `tiles.completion`: a stored property of an object of another type of the file.
        if let member = expression.as(MemberAccessExprSyntax.self), let base = member.base, !isSelf(base),
           case let .instance(objectPrefix, type)? = resolve(base), let foreign = fileTypes[type],
           let kind = foreign.properties[member.declName.baseName.text]?.kind {
            let name = objectPrefix + member.declName.baseName.text
            switch kind {
            case let .identifier(optional): return .identifier(name, optional: optional)
            case .bool: return .bool(name)
            case .closure where foreign.holdsHandler(member.declName.baseName.text): return .storedHandler(name)
            default: return nil
            }
        }
        // `Store.shared`: the shared object of a type of the file.
        if let member = expression.as(MemberAccessExprSyntax.self), let base = member.base?.as(DeclReferenceExprSyntax.self),
           fileTypes[base.baseName.text] != nil, base.baseName.text != model.name {
            return .instance("\(base.baseName.text)_\(member.declName.baseName.text)_", type: base.baseName.text)
        }
        if let forced = expression.as(ForceUnwrapExprSyntax.self) { return resolve(forced.expression) }
        if let cast = expression.as(AsExprSyntax.self) {
            return appDelegate(cast.expression, as: cast.type.trimmedDescription) ?? resolve(cast.expression)
        }
        // `task as! BGAppRefreshTask`, unfolded: [task, as!, Type].
        if let sequence = expression.as(SequenceExprSyntax.self), sequence.elements.count == 3,
           sequence.elements.dropFirst().first?.is(UnresolvedAsExprSyntax.self) == true, let first = sequence.elements.first {
            return appDelegate(first, as: sequence.elements.last?.trimmedDescription ?? "") ?? resolve(first)
        }
        if let tuple = expression.as(TupleExprSyntax.self), tuple.elements.count == 1, let only = tuple.elements.first {
            return resolve(only.expression)
        }
        if let optional = expression.as(OptionalChainingExprSyntax.self) { return resolve(optional.expression) }
        return nil
    }

    /// `UIApplication.shared.delegate as? AppDelegate`, where the app delegate is a type of the
    /// file: its object (the harness's own, when it is the type checked).
    func appDelegate(_ expression: ExprSyntax, as type: String) -> Ref? {
        guard expression.trimmedDescription == "UIApplication.shared.delegate", fileTypes[type] != nil else { return nil }
        return .instance(type == rootName ? "" : "\(type)_delegate_", type: type)
    }

    // MARK: blocks

    /// Lowers a function body or closure body: a boundary for `return` and `defer`.
    mutating func lowerBody(_ items: CodeBlockItemListSyntax, bindings: [String: Ref] = [:], returning target: Ref? = nil, barrier: Bool = false) {
        // A function whose result is tested, with a body of one expression: it returns it.
        if let target, case .bool = target, items.count == 1, let only = items.first, case let .expr(expression) = only.item,
           !expression.is(IfExprSyntax.self), !expression.is(SwitchExprSyntax.self) {
            scopes.append(bindings)
            if barrier { barriers.append(scopes.count - 1) }
            assign(expression, to: target, at: expression)
            if barrier { barriers.removeLast() }
            scopes.removeLast()
            return
        }
        returnTargets.append(target)
        if barrier { barriers.append(scopes.count) }
        // A closure's or function's own calls are not what an enclosing `await` awaits.
        let savedAwaiting = awaiting
        awaiting = false
        defer {
            returnTargets.removeLast()
            if barrier { barriers.removeLast() }
            awaiting = savedAwaiting
        }
        scopes.append(bindings)
        boundaries.append(defers.count)
        defers.append([])
        lowerList(Array(items))
        if out.last?.withoutMarker != "return" {
            markSpawnDone(leaving: true)
            emitDefers(frames: 1)
        }
        defers.removeLast()
        boundaries.removeLast()
        scopes.removeLast()
    }

    /// Lowers a nested block (`if`, `do`, loop body): its own scope and `defer`s.
    mutating func lowerNested(_ items: CodeBlockItemListSyntax) {
        scopes.append([:])
        defers.append([])
        lowerList(Array(items))
        if out.last?.withoutMarker != "return" { emitDefers(frames: 1) }
        defers.removeLast()
        scopes.removeLast()
    }

    /// The statements of one block, in order. Handles what spans statements: `lock()` …
    /// `unlock()` pairs, `defer`, and a `try` whose error skips the rest of the block.
    mutating func lowerList(_ items: [CodeBlockItemSyntax]) {
        var index = 0
        while index < items.count {
            let item = items[index]
            if let lockName = lockCall(item, "lock") {
                // lock() then defer { unlock() }, or lock() … unlock(), becomes withLock { … }.
                if index + 1 < items.count, isDeferUnlock(items[index + 1], lockName) {
                    let rest = Array(items[(index + 2)...])
                    out.block("\(lockName).withLock", at: place(item)) { _ in }
                    replaceLastBlock { $0.lowerList(rest) }
                    return
                }
                if let unlock = items[(index + 1)...].firstIndex(where: { lockCall($0, "unlock") == lockName }) {
                    let inner = Array(items[(index + 1)..<unlock])
                    out.block("\(lockName).withLock", at: place(item)) { _ in }
                    hoistPoints.append(out.lines.count - 2)
                    replaceLastBlock { $0.lowerList(inner) }
                    hoistPoints.removeLast()
                    index = unlock + 1
                    continue
                }
                index += 1
                continue
            }
            if let deferStatement = item.item.as(DeferStmtSyntax.self) {
                defers[defers.count - 1].append(deferStatement.body)
                index += 1
                continue
            }
            if item.item.is(ThrowStmtSyntax.self) {
                lowerThrow(at: item)
                return
            }
            if throwsHere(item), let flag = flag(for: "try@\(place(item).line):\(place(item).column)") {
                lowerItem(item)
                let rest = Array(items[(index + 1)...])
                out.block("if \(flag)", at: place(item)) { _ in }
                replaceLastBlock { $0.lowerThrow(at: item) }
                openElse { $0.lowerList(rest) }
                return
            }
            lowerItem(item)
            index += 1
        }
    }

    /// `name.lock()` / `name.unlock()` on a known lock: the lock's name.
    func lockCall(_ item: CodeBlockItemSyntax, _ method: String) -> String? {
        guard let call = item.item.as(FunctionCallExprSyntax.self) ?? item.item.as(ExpressionStmtSyntax.self)?.expression.as(FunctionCallExprSyntax.self),
              let member = call.calledExpression.as(MemberAccessExprSyntax.self), member.declName.baseName.text == method,
              let base = member.base, case let .lock(name)? = resolve(base) else { return nil }
        return name
    }

    func isDeferUnlock(_ item: CodeBlockItemSyntax, _ lockName: String) -> Bool {
        guard let deferStatement = item.item.as(DeferStmtSyntax.self), deferStatement.body.statements.count == 1,
              let only = deferStatement.body.statements.first else { return false }
        return lockCall(only, "unlock") == lockName
    }

    /// Lowers `body` into the block just opened by `out.block(…) { _ in }`, before its closing brace.
    mutating func replaceLastBlock(_ body: (inout Lowerer) -> Void) {
        let closing = out.lines.removeLast()
        out.depth += 1
        body(&self)
        out.depth -= 1
        out.lines.append(closing)
    }

    /// Turns the `}` just written into `} else {`, lowers `body` into it, and closes it (or
    /// leaves no else when the body wrote nothing).
    mutating func openElse(_ body: (inout Lowerer) -> Void) {
        let closing = out.lines.removeLast()
        out.lines.append(closing + " else {")
        out.depth += 1
        let before = out.lines.count
        body(&self)
        out.depth -= 1
        if out.lines.count == before {
            out.lines[out.lines.count - 1] = closing
        } else {
            out.line("}")
        }
    }

    /// Where a thrown error goes: out of the enclosing closure or function, after its `defer`s.
    mutating func lowerThrow(at node: some SyntaxProtocol) {
        if let handler = catches.last, handler.boundary == boundaries.count {
            catches.removeLast()
            lowerNested(handler.body.statements)
            catches.append(handler)
        } else {
            lowerReturn(at: node)
        }
    }

    /// `return`: the `defer` bodies up to the enclosing function or closure, then `return`.
    mutating func lowerReturn(at node: some SyntaxProtocol) {
        markSpawnDone(leaving: true)
        emitDefers(frames: defers.count - (boundaries.last ?? 0))
        out.line("return", at: place(node))
    }

    /// Writes the `defer` bodies of the innermost `frames` blocks, innermost and latest first.
    mutating func emitDefers(frames: Int) {
        let bodies = defers.suffix(frames).reversed().flatMap { $0.reversed() }
        let saved = out.context
        if !out.context.contains("d") { out.context += "d" }
        for body in bodies {
            scopes.append([:])
            lowerList(Array(body.statements))
            scopes.removeLast()
        }
        out.context = saved
    }

    /// True when the statement may throw to its enclosing scope (`try` without `?` or `!`).
    func throwsHere(_ item: CodeBlockItemSyntax) -> Bool {
        if item.item.is(ThrowStmtSyntax.self) { return false }
        let finder = TryFinder(viewMode: .sourceAccurate)
        finder.walk(item)
        return finder.found
    }

    /// A flag standing for a condition the scan cannot evaluate; nil once the limit is reached
    /// (the code then takes the path that does not branch away).
    mutating func flag(for text: String) -> String? {
        if let existing = flags.first(where: { $0.text == text }) { return existing.name }
        guard flags.count < Self.flagLimit else { return nil }
        let name = "\(flagPrefix)\(flags.count + 1)"
        flags.append((text, name))
        return name
    }

    /// Declares `declaration` where the current lock region began (or here, outside one).
    mutating func declareHoisted(_ declaration: String, at place: SourcePlace) {
        guard let point = hoistPoints.last else {
            out.line(declaration, at: place)
            return
        }
        let indent = String(out.lines[point].prefix { $0 == " " })
        out.lines.insert(indent + declaration + "   " + place.marker, at: point)
        for index in hoistPoints.indices { hoistPoints[index] += 1 }
    }

    /// Lowers work that an expiring activity's block starts to run later (a queue's block, a
    /// `Task`, a callback), which `emit` writes as one block. Instrumented: a variable set as the
    /// work is started, and one set when it is done (where its closure ends or returns, and
    /// before it signals a semaphore or leaves a group, by which the code says the work is
    /// done). Work with nothing in it of unknown length (an assignment, a flag) is not counted.
    mutating func spawn(at node: some SyntaxProtocol, _ emit: (inout Lowerer) -> Void) {
        guard instrumentsActivity, let activity = activityPlaces.last else { return emit(&self) }
        spawnCounter += 1
        let work = ActivityWork(started: "scanActivityStarted\(spawnCounter)", done: "scanActivityDone\(spawnCounter)",
                                activity: activity, start: place(node))
        let start = out.lines.count
        out.line("\(work.started) = true", at: work.start)
        spawnFrames.append((boundary: boundaries.count + 1, done: work.done))
        emit(&self)
        spawnFrames.removeLast()
        let spawned = out.lines[(start + 1)...]
        if spawned.contains(where: { $0.contains("work 100ms") || $0.contains("Task.sleep") }) {
            activityWork.append(work)
            return
        }
        let own = ["\(work.started) = true", "\(work.done) = true"]
        out.lines.removeSubrange(start...start)
        out.lines.removeAll { line in own.contains(line.trimmingLeadingSpaces.withoutMarker) }
    }

    /// Sets the innermost spawned work's done variable; with `leaving`, only where the code
    /// being lowered leaves that work's closure.
    mutating func markSpawnDone(leaving: Bool) {
        guard let frame = spawnFrames.last, !leaving || frame.boundary == boundaries.count else { return }
        out.line("\(frame.done) = true")
    }

    /// The group of the scan's own that counts the operations of OperationQueue `queue`.
    mutating func operationGroup(of queue: String) -> String {
        let name = "\(queue)_operations"
        if !operationGroups.contains(name) { operationGroups.append(name) }
        return name
    }

    mutating func markUnmodelled(_ reason: String) {
        if unmodelled == nil { unmodelled = reason }
    }

    /// Unknown work: one `work 100ms`, not repeated for consecutive unknown statements.
    mutating func unknown(at node: some SyntaxProtocol) {
        if awaiting && onMainActor {
            // Awaited on the main actor: the task lets go of main while it waits, so the main
            // thread (and an expiration handler queued there) runs meanwhile.
            out.line("try await Task.sleep(for: .milliseconds(100))", at: place(node))
            return
        }
        if out.last?.hasPrefix("work 100ms") == true { return }
        out.line("work 100ms", at: place(node))
    }

    /// Lowers `body` with `onMainActor` set as given, restoring it afterwards.
    mutating func isolated(onMainActor value: Bool, _ body: (inout Lowerer) -> Void) {
        let saved = onMainActor
        onMainActor = value
        body(&self)
        onMainActor = saved
    }

    mutating func literal(forTaskIdentifier expression: ExprSyntax, processing: Bool, at node: some SyntaxProtocol) -> String {
        let text = expression.trimmedDescription
        if let existing = taskIdentifiers.first(where: { $0.text == text }) { return existing.literal }
        let literal = "scan.task.\(taskIdentifiers.count + 1)"
        taskIdentifiers.append(TaskIdentifier(text: text, literal: literal, processing: processing, place: place(node)))
        return literal
    }

    mutating func enterCall(_ name: String) -> Bool {
        guard !callStack.contains(name), callStack.count < 4 else { return false }
        callStack.append(name)
        return true
    }

    mutating func leaveCall() { callStack.removeLast() }

    mutating func withScope(_ bindings: [String: Ref], boundary: Bool, _ body: (inout Lowerer) -> Void) {
        scopes.append(bindings)
        if boundary { boundaries.append(defers.count); defers.append([]) }
        body(&self)
        if boundary { defers.removeLast(); boundaries.removeLast() }
        scopes.removeLast()
    }

    /// A lock of its own for an inlined body that returns early, named after what it runs
    /// (`stopCall2`), so a timeline reads as the call it stands for.
    mutating func newInlineLock(for function: String = "closure") -> String {
        let name = "\(function)Call\(inlineLocks.count + 1)"
        inlineLocks.append(name)
        return name
    }
}

/// Finds a `try` that can throw out of a statement (not in a closure or a nested `do`).
private final class TryFinder: SyntaxVisitor {
    var found = false
    override func visit(_ node: TryExprSyntax) -> SyntaxVisitorContinueKind {
        if node.questionOrExclamationMark == nil { found = true }
        return .visitChildren
    }
    override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: DoStmtSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
}
