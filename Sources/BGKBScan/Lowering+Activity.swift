import SwiftSyntax

/// Work an expiring activity's block started to run later: the variables the scenario sets as
/// it starts and once it is done, the `performExpiringActivity` call (where a finding is
/// reported) and the place that started it.
struct ActivityWork: Equatable {
    var started: String
    var done: String
    var activity: SourcePlace
    var start: SourcePlace
}

extension Lowerer {
    /// `ProcessInfo.processInfo.performExpiringActivity(withReason:using:)`: the block, with its
    /// `expired` parameter as the engine's. Where the harness checks activities, the work the
    /// block starts is instrumented (`spawn(at:_:)`).
    mutating func lowerExpiringActivity(_ call: FunctionCallExprSyntax) {
        guard let closure = Self.closures(of: call).first else { return unknown(at: call) }
        let parameter = Self.parameterName(closure) ?? "expired"
        let expired = fresh(parameter)
        // The app's reason when it is a plain string literal, so the timeline reads as its code.
        let literal = call.arguments.first { $0.label?.text == "withReason" }?.expression.as(StringLiteralExprSyntax.self)
        let segments = literal?.segments.compactMap { $0.as(StringSegmentSyntax.self)?.content.text } ?? []
        let plain = literal != nil && segments.count == literal?.segments.count && !segments.joined().contains("\\")
        let reason = plain && !segments.joined().isEmpty ? segments.joined().replacingOccurrences(of: "\"", with: "") : "scan"
        out.block("ProcessInfo.processInfo.performExpiringActivity(withReason: \"\(reason)\") { \(expired) in", at: place(call)) { _ in }
        out.lines[out.lines.count - 2] = out.lines[out.lines.count - 2].replacingOccurrences(of: " in {", with: " in")
        activityPlaces.append(place(call))
        // Work spawned around the activity is not the block's: its frames stay outside.
        let outer = spawnFrames
        spawnFrames = []
        replaceLastBlock { $0.lowerBody(closure.statements, bindings: [parameter: .expired(expired)]) }
        spawnFrames = outer
        activityPlaces.removeLast()
    }

    /// A semaphore's or a group's call, where the harness models them (an expiring activity's
    /// check): true when `call` was one and is written.
    mutating func lowerSynchronization(_ call: FunctionCallExprSyntax, name: String, on ref: Ref) -> Bool {
        guard instrumentsActivity else { return false }
        switch (ref, name) {
        case let (.semaphore(semaphore), "signal"), let (.group(semaphore), "leave"):
            // The code says the work is done by releasing whoever waits for it.
            markSpawnDone(leaving: false)
            out.line("\(semaphore).\(name)()", at: place(call))
        case let (.group(group), "enter"):
            out.line("\(group).enter()", at: place(call))
        case let (.semaphore(waited), "wait"), let (.group(waited), "wait"):
            if let timeout = call.arguments.first.flatMap({ Self.timeout($0.expression) }) {
                out.line("_ = \(waited).wait(timeout: .now() + \(timeout))", at: place(call))
            } else {
                // No timeout, or one the scan cannot read (`.distantFuture`, a computed one): a wait
                // long enough for the work, which is the reading that finds no fault.
                out.line("\(waited).wait()", at: place(call))
            }
        case let (.queue(queue), "addOperation"):
            // An OperationQueue's operations, counted in a group of the scan's own so that
            // `waitUntilAllOperationsAreFinished()` waits for them.
            guard let closure = Self.closures(of: call).first, call.arguments.isEmpty else { return false }
            let group = operationGroup(of: queue)
            out.line("\(group).enter()", at: place(call))
            spawn(at: call) { lowerer in
                lowerer.out.block("\(queue).async", at: lowerer.place(call)) { _ in }
                lowerer.replaceLastBlock { inner in
                    inner.lowerBody(closure.statements)
                    inner.out.line("\(group).leave()")
                }
            }
        case let (.queue(queue), "waitUntilAllOperationsAreFinished"):
            out.line("\(operationGroup(of: queue)).wait()", at: place(call))
        case let (.group(group), "notify"):
            guard let closure = Self.closures(of: call).first else { return false }
            let queueText = call.arguments.first { $0.label?.text == "queue" }?.expression.trimmedDescription ?? ""
            let queue: String
            if [".main", "DispatchQueue.main"].contains(queueText) {
                queue = ".main"
            } else if let expression = call.arguments.first(where: { $0.label?.text == "queue" })?.expression,
                      case let .queue(named)? = resolve(expression) {
                queue = named
            } else {
                queue = "DispatchQueue.global()"
            }
            spawn(at: call) { lowerer in
                lowerer.out.block("\(group).notify(queue: \(queue))", at: lowerer.place(call)) { _ in }
                lowerer.replaceLastBlock { $0.lowerBody(closure.statements) }
            }
        default:
            return false
        }
        return true
    }

    /// The waits on semaphores and groups inside a condition the scan cannot evaluate
    /// (`if sem.wait(timeout: …) == .timedOut`): they still happen before the branch.
    mutating func lowerWaits(in expression: ExprSyntax) {
        guard instrumentsActivity else { return }
        final class Waits: SyntaxVisitor {
            var calls: [FunctionCallExprSyntax] = []
            override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
                if Lowerer.callee(node)?.name == "wait" { calls.append(node) }
                return .visitChildren
            }
            override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
        }
        let finder = Waits(viewMode: .sourceAccurate)
        finder.walk(expression)
        for call in finder.calls {
            guard let base = Self.callee(call)?.base, let ref = resolve(base) else { continue }
            _ = lowerSynchronization(call, name: "wait", on: ref)
        }
    }

    /// The seconds of a `.now() + 5`, `.now() + .seconds(5)` or `.now() + .milliseconds(500)`
    /// timeout, in the scenario's words; nil for one the scan cannot read.
    static func timeout(_ expression: ExprSyntax) -> String? {
        let text = expression.trimmedDescription.filter { !$0.isWhitespace }
        guard let plus = text.firstIndex(of: "+"), text[..<plus].hasSuffix(".now()") else { return nil }
        let amount = String(text[text.index(after: plus)...])
        if Double(amount) != nil { return amount }
        for unit in [".seconds(", ".milliseconds("] where amount.hasPrefix(unit) && amount.hasSuffix(")") {
            let number = amount.dropFirst(unit.count).dropLast()
            if Int(number) != nil { return amount }
        }
        return nil
    }
}
