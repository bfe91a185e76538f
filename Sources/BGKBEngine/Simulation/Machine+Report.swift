import BGKBModel

/// Turning a finished run into words: trace events, the outcome, and whether the scenario's
/// expectations held. Only runs someone reads pay for these strings.
extension Machine {
    func laneName(_ lane: Int32) -> String {
        guard lane >= 0, Int(lane) < laneNames.count else { return "system" }
        switch laneNames[Int(lane)] {
        case .main: return "main"
        case let .queue(index): return scenario.queues[Int(index)].label
        case let .worker(kind, number): return "\(kind.rawValue) #\(number)"
        }
    }

    func taskLabel(_ task: Int32) -> String {
        guard task >= 0, Int(task) < tasks.count else { return "task" }
        let name = tasks[Int(task)].name.map { " \"\(scenario.strings[Int($0)])\"" } ?? ""
        return "task \(task + 1)\(name)"
    }

    func string(_ index: Int32) -> String {
        index >= 0 && Int(index) < scenario.strings.count ? scenario.strings[Int(index)] : "?"
    }

    /// The statement's source line without surrounding spaces, tabs and an opening brace.
    func sourceLine(_ statement: Int32) -> String {
        let line = Int(scenario.statements[Int(statement)].place.line)
        let starts = scenario.lineStarts
        guard line >= 1, line <= starts.count else { return "?" }
        // Spaces, tabs, carriage returns and braces are single bytes that never occur inside another character's
        // UTF-8, and a line starts and ends at character boundaries, so trimming the bytes
        // trims the characters.
        let text = scenario.text
        let utf8 = text.utf8
        var start = utf8.index(utf8.startIndex, offsetBy: Int(starts[line - 1]))
        var end = line < starts.count ? utf8.index(utf8.startIndex, offsetBy: Int(starts[line]) - 1) : utf8.endIndex
        func isBlank(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r") }
        func trim() {
            while start < end, isBlank(utf8[start]) { utf8.formIndex(after: &start) }
            while end > start, isBlank(utf8[utf8.index(before: end)]) { utf8.formIndex(before: &end) }
        }
        trim()
        if end > start, utf8[utf8.index(before: end)] == UInt8(ascii: "{") {
            utf8.formIndex(before: &end)
            trim()
        }
        return String(text[start..<end])
    }

    func describe(_ reason: Reason) -> String {
        switch reason {
        case let .leakedTask(task): return "\(taskLabel(task)) leaked: it was still outstanding when background time ran out"
        case let .expiryHandlerTooSlow(task): return "the expiration handler of \(taskLabel(task)) ran longer than \(formatSeconds(constants.expiryHandlerLimit))"
        case .expiryHandlersBlocked: return "expiration handlers did not finish within \(formatSeconds(constants.expiryHandlersTotalLimit)) (main thread blocked)"
        case .didEnterBackgroundTooSlow: return "applicationDidEnterBackground did not return within \(formatSeconds(constants.didEnterBackgroundLimit))"
        case .tooManyAssertions: return "more than \(constants.assertionLimit) background task assertions outstanding"
        case let .forceUnwrapNil(variable):
            let name = variable >= 0 && Int(variable) < scenario.globals.count ? scenario.globals[Int(variable)].name : "a local"
            return "Fatal error: Unexpectedly found nil while unwrapping an Optional value (\(name)!)"
        case let .registerAfterLaunch(identifier): return "NSInternalInconsistencyException: All launch handlers must be registered before application finishes launching (\"\(string(identifier))\")"
        case let .registerTwice(identifier): return "NSInternalInconsistencyException: Launch handler for task with identifier \"\(string(identifier))\" has already been registered"
        case let .noLaunchHandler(identifier): return "NSInternalInconsistencyException: No launch handler registered for task with identifier \"\(string(identifier))\""
        case let .bgTaskNotCompleted(task): return "BGTask \"\(string(bgTasks[Int(task)].identifier))\" was not completed with setTaskCompleted before its time ran out"
        case .pushNotCompleted: return "didReceiveRemoteNotification did not call its completion handler within \(formatSeconds(constants.pushCompletionLimit))"
        case .mainSyncOnMain: return "sync onto the queue the code is already running on: deadlock (EXC_BREAKPOINT)"
        case let .expiredActivityHeld(activity):
            return "the performExpiringActivity block of activity \(activity + 1) called with expired = true did not return within "
                + "\(formatSeconds(constants.expiredActivityReturnLimit)): its task assertion was held past its time"
        case .unbalancedGroupLeave: return "BUG IN CLIENT OF LIBDISPATCH: Unbalanced call to dispatch_group_leave()"
        }
    }

    /// `lanes` and `taskLabels`: every lane's name and task's label, made once for a whole trace
    /// rather than once per event.
    func event(_ raw: RawEvent, lanes: [String]? = nil, taskLabels: [String]? = nil) -> TraceEvent {
        let lane: String
        if let lanes, raw.lane >= 0, Int(raw.lane) < lanes.count { lane = lanes[Int(raw.lane)] } else { lane = laneName(raw.lane) }
        func taskLabel(_ task: Int32) -> String {
            if let taskLabels, task >= 0, Int(task) < taskLabels.count { return taskLabels[Int(task)] }
            return self.taskLabel(task)
        }
        func make(_ kind: TraceEvent.Kind, _ subject: String?, _ detail: String) -> TraceEvent {
            TraceEvent(time: raw.time, kind: kind, lane: lane, subject: subject, detail: detail)
        }
        switch raw.note {
        case let .state(state): return make(.appState, nil, state.rawValue)
        case let .step(statement, phase):
            var text = sourceLine(statement)
            let kind = scenario.statements[Int(statement)].kind
            switch kind {
            case .assign, .declare, .add:
                if phase == 1 { text += "   (stores the value)" } else if isReadThenWrite(kind) { text += "   (reads / calls)" }
            default: break
            }
            return make(.step, nil, text)
        case let .began(task):
            return make(.taskBegan, taskLabel(task), "beginBackgroundTask returns identifier \(task + 1)")
        case let .refused(invalid):
            return make(.system, nil, invalid ? "beginBackgroundTask refused: it returns .invalid" : "the assertion cannot be granted: the expiration handler will be called")
        case let .grantedAfterTimeIsUp(task):
            return make(.system, taskLabel(task), "background time is already up: \(taskLabel(task)) is granted and called in at once")
        case let .ended(task): return make(.taskEnded, taskLabel(task), "endBackgroundTask(\(task + 1))")
        case let .expiry(task):
            let handler = tasks[Int(task)].handler == nil ? "it has no expiration handler" : "its expiration handler is queued on main"
            return make(.expiry, taskLabel(task), "the system calls \(taskLabel(task)) in: \(handler)")
        case let .handlerStarted(task): return make(.expiry, taskLabel(task), "expiration handler of \(taskLabel(task)) starts")
        case let .warningEndUnknown(identifier):
            return make(.log, "task \(identifier)", "Can't end BackgroundTask: no background task exists with identifier \(identifier), or it may have already been ended")
        case let .terminated(reason): return make(.termination, nil, "\(reason.code ?? "terminated"): \(describe(reason))")
        case let .crashed(reason): return make(.crash, nil, describe(reason))
        case let .registered(identifier, permitted):
            return permitted
                ? make(.system, string(identifier), "register(forTaskWithIdentifier: \"\(string(identifier))\") returns true")
                : make(.log, string(identifier), "register(forTaskWithIdentifier: \"\(string(identifier))\") returns false: not in BGTaskSchedulerPermittedIdentifiers")
        case let .submitted(request):
            let r = requests[Int(request)]
            let kind = r.processing ? "BGProcessingTaskRequest"
                : objects.isContinued(request: request) ? "BGContinuedProcessingTaskRequest" : "BGAppRefreshTaskRequest"
            return make(.system, string(r.identifier), "submit(\(kind) \"\(string(r.identifier))\")")
        case let .submitFailed(request, error):
            let r = requests[Int(request)]
            return make(.log, string(r.identifier), "submit(\"\(string(r.identifier))\") throws BGTaskScheduler.Error.\(error.rawValue)")
        case let .bgLaunched(task):
            let t = bgTasks[Int(task)]
            let kind = t.processing ? "BGProcessingTask" : objects.isContinued(task: task) ? "BGContinuedProcessingTask" : "BGAppRefreshTask"
            return make(.system, string(t.identifier), "the system launches \(kind) \"\(string(t.identifier))\"")
        case let .bgNotLaunched(identifier, why):
            return make(.system, string(identifier), "the system does not launch \"\(string(identifier))\": \(why.rawValue)")
        case let .bgExpiry(task, hasHandler):
            let t = bgTasks[Int(task)]
            return make(.expiry, string(t.identifier), hasHandler ? "the system expires \"\(string(t.identifier))\": its expirationHandler is called" : "the system expires \"\(string(t.identifier))\": no expirationHandler, so it is marked complete (unsuccessful)")
        case let .bgCompleted(task, success):
            return make(.taskEnded, string(bgTasks[Int(task)].identifier), "setTaskCompleted(success: \(success))")
        case let .pushArrived(push): return make(.system, "push \(push + 1)", "a background push arrives")
        case let .pushCompleted(push): return make(.system, "push \(push + 1)", "completionHandler called")
        case let .activityStarted(activity, expired):
            return make(.taskBegan, "activity \(activity + 1)", "performExpiringActivity calls its block with expired = \(expired)")
        case let .activityEnded(activity): return make(.taskEnded, "activity \(activity + 1)", "the expiring activity ends")
        case let .activityRefused(activity):
            return make(.system, "activity \(activity + 1)", "performExpiringActivity cannot take a task assertion: it calls its block with expired = true, and nothing keeps the app running for it")
        case .forcedExpiry: return make(.system, nil, "the system ends background time early")
        case let .objects(note):
            let (kind, subject, detail) = describe(note)
            return make(kind, subject, detail)
        case let .undecided(limit):
            return make(.system, nil, "the simulator stops the run at \(limit.summary): undecided")
        case let .timelineSkipped(item, state):
            return make(.system, nil, "\(timelineText(item)) does not apply while the app is \(state.rawValue): nothing happens")
        }
    }

    private func isReadThenWrite(_ kind: StatementKind) -> Bool {
        switch kind {
        case let .assign(_, e), let .declare(_, e?):
            switch e {
            case .read, .unwrap, .begin: return true
            default: return false
            }
        case .add: return true
        default: return false
        }
    }

    var modelOutcome: SimulationOutcome {
        switch outcome {
        case let .suspended(at)?: return .suspended(at: at)
        case let .running(at)?: return .stillRunning(at: at)
        case let .terminated(reason, at)?: return .terminated(code: reason.code ?? "terminated", reason: describe(reason), at: at)
        case let .crashed(reason, at)?: return .crashed(reason: describe(reason), at: at)
        case let .undecided(limit, at)?: return .undecided(limit: limit, at: at)
        case nil: return .stillRunning(at: now)
        }
    }

    var materializedTrace: SimulationTrace {
        let lanes = laneNames.indices.map { laneName(Int32($0)) }
        let taskLabels = tasks.indices.map { taskLabel(Int32($0)) }
        return SimulationTrace(events: trace.map { event($0, lanes: lanes, taskLabels: taskLabels) }, outcome: modelOutcome,
                               schedule: schedule.description, seed: schedule.seed)
    }

    // MARK: Expectations

    /// Nil when every expectation holds and iOS logged nothing unexpected; otherwise why not.
    func failedExpectation() -> String? {
        // A run the simulator gave up on proves nothing either way: it fails every example.
        if case let .undecided(limit, at)? = outcome { return "at \(formatSeconds(at)), \(limit.description)" }
        for expectation in scenario.expectations {
            if let failure = check(expectation) { return failure }
        }
        // A warning the scenario does not expect is a failure: a clean run logs nothing.
        guard warnings > 0 else { return nil }
        for raw in trace where raw.note.isWarning {
            let expectedWarnings = scenario.expectations.compactMap { e -> String? in
                if case let .warning(text) = e.kind { return text }
                return nil
            }
            let text = event(raw).detail
            if !expectedWarnings.contains(where: { text.contains($0) }) {
                return "unexpected warning at \(formatSeconds(raw.time)): \(text)"
            }
        }
        return nil
    }

    /// Evaluates an expectation's condition on the globals, without side effects.
    private func holds(_ condition: Condition) -> Bool {
        func value(_ e: Expression) -> Value {
            switch e {
            case let .literal(v): return v
            case let .read(.global(i)), let .unwrap(.global(i)): return cells[Int(i)]
            default: return .none
            }
        }
        switch condition {
        case let .compare(l, op, r):
            let a = value(l), b = value(r)
            switch op {
            case .equal: return a == b
            case .notEqual: return a != b
            default:
                guard case let .int(x) = a, case let .int(y) = b else { return false }
                switch op {
                case .less: return x < y
                case .greater: return x > y
                case .lessOrEqual: return x <= y
                default: return x >= y
                }
            }
        case let .truthy(e):
            if case let .bool(b) = value(e) { return b }
            return false
        case let .not(c): return !holds(c)
        case let .and(a, b): return holds(a) && holds(b)
        case let .or(a, b): return holds(a) || holds(b)
        }
    }

    private func near(_ time: Double, _ around: Double?) -> Bool {
        guard let around else { return true }
        return abs(time - around) <= max(1, around * 0.1)
    }

    /// Whether the expectation holds; the words for a failure are built only when it does not
    /// (most of the explorer's runs pass, and need no words).
    private func check(_ expectation: Expectation) -> String? {
        // Same time as `modelOutcome.time`, without describing the reason.
        let at: Double
        switch outcome {
        case let .suspended(t)?, let .running(t)?, let .terminated(_, t)?, let .crashed(_, t)?, let .undecided(_, t)?: at = t
        case nil: at = now
        }
        var failure: String {
            let outcome = modelOutcome
            return "expected \(expectation.text), got \(outcome.description) at \(formatSeconds(outcome.time))"
        }
        switch expectation.kind {
        case .suspended:
            if case .suspended? = outcome, near(at, expectation.around) { return nil }
            return failure
        case .running:
            switch outcome {
            case .running?, nil: return nil
            default: return failure
            }
        case let .terminated(code):
            if case let .terminated(reason, _)? = outcome, code == nil || code == (reason.code ?? "terminated"),
               near(at, expectation.around) { return nil }
            return failure
        case let .crash(text):
            if case let .crashed(reason, _)? = outcome, text.map({ describe(reason).contains($0) }) ?? true,
               near(at, expectation.around) { return nil }
            return failure
        case let .warning(text):
            for raw in trace where raw.note.isWarning && event(raw).detail.contains(text) { return nil }
            return "expected a warning containing \"\(text)\", none was logged"
        case let .log(text):
            for raw in trace where near(raw.time, expectation.around) && event(raw).detail.contains(text) { return nil }
            return "expected the run to log \"\(text)\", it did not (\(modelOutcome.description))"
        case let .printed(text):
            var ranAt: [Double] = []
            for raw in trace {
                if case let .step(statement, _) = raw.note, case let .print(string) = scenario.statements[Int(statement)].kind,
                   scenario.strings[Int(string)] == text {
                    if near(raw.time, expectation.around) { return nil }
                    if !ranAt.contains(raw.time) { ranAt.append(raw.time) }
                }
            }
            if let around = expectation.around, !ranAt.isEmpty {
                // It ran, at another time: say when, not that it did not run.
                let times = ranAt.prefix(3).map(formatSeconds).joined(separator: ", ") + (ranAt.count > 3 ? ", ..." : "")
                return "expected print(\"\(text)\") around \(formatSeconds(around)), it ran at \(times) (\(modelOutcome.description))"
            }
            return "expected print(\"\(text)\") to run, it did not (\(modelOutcome.description))"
        case .state:
            guard let condition = expectation.condition else { return nil }
            return holds(condition) ? nil : "expected \(expectation.text) at the end of the run, it is false (\(modelOutcome.description))"
        case .taskCompleted:
            let launched = bgTasks.count + pushes.count
            if launched > 0 && bgTasks.allSatisfy({ $0.completed && $0.success }) && pushes.allSatisfy({ $0 }) { return nil }
            if launched == 0 { return "expected a task to complete, but the system launched none" }
            return "expected every launched task to complete successfully, it did not (\(modelOutcome.description))"
        case .completionHandlerCalled:
            return completionHandlerFailure()
        }
    }

    /// A timeline item as the scenario writes it, without its time.
    func timelineText(_ item: Int32) -> String {
        switch scenario.timeline[Int(item)].event {
        case .launch: return "app launches"
        case .enterBackground: return "app enters background"
        case .enterForeground: return "app enters foreground"
        case .push: return "push arrives"
        case .reclaim: return "system terminates app"
        case let .systemLaunches(identifier): return "system launches \"\(identifier)\""
        case let .call(name): return "\(name)()"
        case let .urlSessionFinishes(identifier): return "background URLSession \"\(identifier)\" finishes"
        case .forceQuit: return "user force quits app"
        }
    }
}
