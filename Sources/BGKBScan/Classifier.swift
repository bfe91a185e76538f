import BGKBEngine
import BGKBModel
import Foundation

/// Reads a run of a harness's scenario and says which rule it breaks and where in the app's
/// code: the steps of a trace carry the scenario line, which ends with the Swift place.
struct Classifier {
    let path: String
    let harness: Harness

    /// A finding for a run that failed its expectations, or nil when the failure is not one the
    /// scan knows how to attribute (then nothing is reported: precision first).
    func classify(_ trace: SimulationTrace, concern: Harness.Concern) -> Finding? {
        let reason = trace.outcome.description
        switch concern {
        case .push:
            guard reason.contains("completion handler"), let place = harness.pushPlace else { return nil }
            return finding(.pushCompletionSkipped, place, "a path of the background push handler never calls its completion handler", trace)
        case .bgTasks:
            if reason.contains("must be registered before application finishes launching"), let task = taskIdentifier(in: reason) {
                return finding(.lateRegistration, task.place, "launch handler registered after the app finished launching", trace)
            }
            if case .terminated = trace.outcome, reason.contains("setTaskCompleted"), let task = taskIdentifier(in: reason) {
                return finding(.bgtaskNotCompleted, task.place, "a path of the launch handler never calls setTaskCompleted", trace)
            }
            // An early expiry that finds no handler is a finding only when the launch handler never
            // sets one (every task the expiry reaches is looked at: several may expire at once);
            // otherwise the expiry must be the one at the end of the task's time.
            for expiry in trace.events where expiry.kind == .expiry && expiry.detail.contains("no expirationHandler") {
                if let task = taskIdentifier(in: expiry.detail), !task.setsExpirationHandler {
                    return finding(.bgtaskNoExpirationHandler, task.place, "the launch handler never sets an expirationHandler, so when time runs out the task is marked failed", trace)
                }
            }
            return trace.schedule.contains("expire=never") ? heldUntilTimeRunsOut(trace, concern: .bgTasks) : nil
        case .backgroundTasks, .backgroundTasksCalledTwice:
            return classifyBackgroundTask(trace)
        case .sessionEvents:
            return classifySession(trace)
        case .expiringActivity:
            return classifyActivity(trace)
        }
    }

    private func classifyBackgroundTask(_ trace: SimulationTrace) -> Finding? {
        switch trace.outcome {
        case let .crashed(reason, _):
            guard reason.contains("nil"), let begin = begins(in: trace.events).last(where: { $0.stored }) ?? begins(in: trace.events).last else { return nil }
            return finding(.identifierRace, begin.place,
                           "the expiration handler can read the identifier before beginBackgroundTask's result is stored", trace)
        case let .terminated(_, reason, _):
            guard reason.contains("outstanding") || reason.contains("leaked"), let number = taskNumber(in: reason),
                  let found = leak(of: number, in: trace) else { return nil }
            // A leak at an early expiry, while another thread is about to end the task, is a
            // matter of the handler's timing; a path that never ends the task shows without one.
            if found.family == .neverEnded, !trace.schedule.contains("refusal=none expire=never") { return nil }
            return found
        default:
            break
        }
        guard let warning = trace.events.firstIndex(where: { $0.kind == .log && $0.detail.contains("no background task exists") }) else { return nil }
        let events = Array(trace.events[..<warning])
        let lane = trace.events[warning].lane
        guard let second = events.last(where: { $0.lane == lane && $0.kind == .step && $0.detail.contains("endBackgroundTask") }),
              let secondPlace = SourcePlace(marker: second.detail) else { return nil }
        let secondContext = SourcePlace.context(ofMarked: second.detail)
        if let offMain = begins(in: events).first(where: { $0.lane != "main" }), secondContext.contains("h") {
            return finding(.identifierRace, offMain.place,
                           "the identifier is stored off the main thread while the expiration handler, on main, reads and ends it", trace)
        }
        // An expiration handler that the system queued before the code ended the task, and that
        // then ends it again, is the system's race, not a second end in the code.
        if secondContext.contains("h") { return nil }
        // Ending the `.invalid` that a refused begin returned logs the same warning, but ends nothing twice.
        let detail = trace.events[warning].detail
        let number = detail.range(of: "identifier ").flatMap { Int(detail[$0.upperBound...].prefix { $0.isNumber }) } ?? 0
        if number == 0, events.contains(where: { $0.detail.contains("refused: it returns .invalid") }) { return nil }
        return finding(.endedTwice, secondPlace, "this endBackgroundTask can run after the task was already ended", trace)
    }

    /// Task `number` was never ended: overwritten by a later begin into the same variable, begun
    /// with no expiration handler, or left on some path.
    func leak(of number: Int, in trace: SimulationTrace) -> Finding? {
        let all = begins(in: trace.events, refused: true)
        guard number > 0, let index = all.firstIndex(where: { $0.task == number }) else { return nil }
        let begin = all[index]
        let ended = trace.events.contains { $0.kind == .taskEnded && taskNumber(in: $0.subject ?? "") == number }
        // Another begin whose result was stored into the same variable after this one's was:
        // it overwrote this identifier (the order of the stores decides, not of the calls).
        let overwriter = all.indices.first { other in
            other != index && all[other].variable == begin.variable && (all[other].storeIndex ?? -1) > (begin.storeIndex ?? Int.max)
        }
        if !ended, let variable = begin.variable, let later = overwriter.map({ all[$0] }) {
            return finding(.overwrittenIdentifier, later.place, "begins a task into `\(variable)` while the task stored there earlier is still running", trace)
        }
        // The handler started (on main) after the begin returned, off main, and before its result
        // was stored: it read the variable too early, so it could not end the task (Apple's listing).
        if begin.lane != "main", let store = begin.storeIndex, trace.events[begin.eventIndex..<store].contains(where: { event in
            event.lane == "main" && event.detail.hasPrefix("expiration handler of task \(number) ") && event.detail.hasSuffix(" starts")
        }) {
            return finding(.identifierRace, begin.place, "the expiration handler can run before beginBackgroundTask's result is stored, find no identifier, and leave the task running", trace)
        }
        if begin.text.contains("expirationHandler: nil") {
            return finding(.noExpirationHandler, begin.place, "background task begun without an expiration handler", trace)
        }
        return finding(.neverEnded, begin.place, "a path leaves this background task running until the system ends it", trace)
    }

    /// The default schedule (no early expiry) shows a task held until its time ran out: only
    /// the system's call-in ended it, so some path of the code never does.
    func heldUntilTimeRunsOut(_ trace: SimulationTrace, concern: Harness.Concern) -> Finding? {
        switch concern {
        case .backgroundTasks, .backgroundTasksCalledTwice:
            guard let expiry = trace.events.first(where: { $0.kind == .expiry && $0.lane == "system" }),
                  let number = taskNumber(in: expiry.subject ?? expiry.detail) else { return nil }
            return leak(of: number, in: trace)
        case .bgTasks:
            guard let expiry = trace.events.first(where: { $0.kind == .expiry && $0.detail.contains("expires") }),
                  let task = taskIdentifier(in: expiry.detail) else { return nil }
            if expiry.detail.contains("no expirationHandler"), !task.setsExpirationHandler {
                return finding(.bgtaskNoExpirationHandler, task.place, "the launch handler never sets an expirationHandler, so when time runs out the task is marked failed", trace)
            }
            return finding(.bgtaskNotCompleted, task.place, "a path of the launch handler never calls setTaskCompleted; only the expiry ends the task", trace)
        case .push, .sessionEvents, .expiringActivity:
            return nil
        }
    }

    /// A background session's completion handler called off main (reported at the call), or
    /// never called (reported at `handleEventsForBackgroundURLSession`).
    private func classifySession(_ trace: SimulationTrace) -> Finding? {
        if let offMain = trace.events.firstIndex(where: { $0.kind == .log && $0.detail.contains("completion handler is called off the main thread") }) {
            let lane = trace.events[offMain].lane
            guard let call = trace.events[..<offMain].last(where: { $0.lane == lane && $0.kind == .step && SourcePlace(marker: $0.detail) != nil }),
                  let place = SourcePlace(marker: call.detail) else { return nil }
            return finding(.sessionCompletionOffMain, place, "the background session's completion handler is called off the main thread", trace)
        }
        if let early = trace.events.firstIndex(where: { $0.detail.hasPrefix("too early: urlSessionDidFinishEvents has not begun") }) {
            let lane = trace.events[early].lane
            guard let call = trace.events[..<early].last(where: { $0.lane == lane && $0.kind == .step && SourcePlace(marker: $0.detail) != nil }),
                  let place = SourcePlace(marker: call.detail) else { return nil }
            return finding(.sessionCompletionCalledEarly, place,
                           "the background session's completion handler is called before the session has delivered its events", trace)
        }
        if trace.events.contains(where: { $0.detail.contains("the completion handler was never called") }), let place = harness.sessionPlace {
            return finding(.sessionCompletionNotCalled, place, "a path never calls the background session's completion handler", trace)
        }
        return nil
    }

    /// An expiring activity that ended (the app suspended) while work its block started was
    /// still under way or not yet begun.
    private func classifyActivity(_ trace: SimulationTrace) -> Finding? {
        guard case .suspended = trace.outcome else { return nil }
        let steps = trace.events.filter { $0.kind == .step }.map { $0.detail.withoutMarker.trimmingLeadingSpaces }
        for work in harness.activityWork where steps.contains("\(work.started) = true") && !steps.contains("\(work.done) = true") {
            var found = finding(.expiringActivityReturnsEarly, work.activity,
                                "the block returns before the work it starts at line \(work.start.line) is done, and the activity ends with it", trace)
            // Said in words where the run ends, since the scan's own variables are left out.
            let end = found.timeline.firstIndex { $0.trimmingLeadingSpaces.hasPrefix("=>") } ?? found.timeline.endIndex
            let indent = String(found.timeline.first?.prefix { $0 == " " } ?? "")
            found.timeline.insert(indent + "✗ the work started at line \(work.start.line) is not done: it stands still while the app is suspended", at: end)
            return found
        }
        return nil
    }

    // MARK: reading traces

    struct Begin {
        var task: Int
        var place: SourcePlace
        var lane: String
        var text: String
        var variable: String?
        var stored: Bool
        /// Where in the trace the result was stored, if it was.
        var storeIndex: Int?
        /// Where in the trace the begin returned (or was refused).
        var eventIndex: Int
    }

    /// Every `beginBackgroundTask` that returned an identifier, with the statement that called it;
    /// with `refused`, also those refused with `.invalid` (task 0): storing `.invalid` over an
    /// identifier loses it as surely as storing another one.
    func begins(in events: [TraceEvent], refused: Bool = false) -> [Begin] {
        var found: [Begin] = []
        for (index, event) in events.enumerated() {
            let returned = event.kind == .taskBegan && event.detail.contains("beginBackgroundTask returns")
            guard returned || refused && event.detail == "beginBackgroundTask refused: it returns .invalid" else { continue }
            guard let number = returned ? taskNumber(in: event.subject ?? event.detail) : 0,
                  let step = events[..<index].last(where: { $0.lane == event.lane && $0.kind == .step && $0.detail.contains("beginBackgroundTask") }),
                  let place = SourcePlace(marker: step.detail) else { continue }
            let statement = step.detail.withoutMarker.trimmingLeadingSpaces
            var variable: String?
            if let range = statement.range(of: " = UIApplication.shared.beginBackgroundTask") {
                let target = String(statement[..<range.lowerBound])
                variable = target.hasPrefix("let ") || target.hasPrefix("var ") ? String(target.dropFirst(4)) : target
                if variable?.hasPrefix("discarded_") == true { variable = nil }
            }
            let storeIndex = events[index...].firstIndex { $0.lane == event.lane && $0.kind == .step && $0.detail.contains("(stores the value)") }
            found.append(Begin(task: number, place: place, lane: event.lane, text: statement, variable: variable, stored: storeIndex != nil,
                               storeIndex: storeIndex, eventIndex: index))
        }
        return found
    }

    func taskNumber(in text: String) -> Int? {
        guard let range = text.range(of: "task ") else { return nil }
        return Int(text[range.upperBound...].prefix { $0.isNumber })
    }

    func taskIdentifier(in text: String) -> TaskIdentifier? {
        harness.taskIdentifiers.first { text.contains("\"\($0.literal)\"") }
    }

    private func finding(_ family: Family, _ place: SourcePlace, _ message: String, _ trace: SimulationTrace) -> Finding {
        Finding(path: path, place: place, family: family, message: message, timeline: Self.timeline(trace), schedule: trace.schedule)
    }

    /// The trace as the site shows it, with the scan's markers turned into the app's line numbers.
    static func timeline(_ trace: SimulationTrace) -> [String] {
        // The variables the scan adds to follow an expiring activity's work are its own, not the app's.
        TimelineRenderer.render(trace).split(separator: "\n").filter { !$0.contains("scanActivity") }.map { line in
            var text = String(line)
            if let range = text.range(of: "   // @", options: .backwards), let place = SourcePlace(marker: text) {
                let after = text[range.upperBound...].drop { $0.isNumber || $0 == ":" }.drop { $0 == " " || $0 == "h" || $0 == "d" }
                text = String(text[..<range.lowerBound]) + "   (line \(place.line))" + (after.isEmpty ? "" : "  " + after)
            }
            return text.replacingOccurrences(of: "(reads / calls)", with: "(calls)")
        }
    }
}
