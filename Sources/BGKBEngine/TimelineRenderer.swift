import BGKBModel

/// A trace as plain text, one event per line, for the CLI and for test failures:
///
///     1.000s  global #1    taskID = beginBackgroundTask(...)   (reads / calls)
///     1.000s  system       the system calls task 1 in: its expiration handler is queued on main
///
/// Repeats fold as every view of a trace folds them (`TraceFolding`): an event repeated, or a
/// loop's turns, show once, with a line that says how often they repeat and until when.
public enum TimelineRenderer {
    public static func render(_ trace: SimulationTrace) -> String {
        var lines: [String] = []
        let laneWidth = min(18, max(6, trace.events.map(\.lane.count).max() ?? 6))
        let events = trace.events
        func line(_ event: TraceEvent) -> String {
            let time = pad(formatTime(event.time), 10, left: true)
            let marker: String
            switch event.kind {
            case .termination, .crash: marker = "✗ "
            case .log: marker = "⚠ "
            default: marker = ""
            }
            return "\(time)  \(pad(event.lane, laneWidth))  \(marker)\(event.detail)"
        }
        for run in TraceFolding.runs(events) {
            for index in run.shown { lines.append(line(events[index])) }
            guard run.isFolded else { continue }
            let numbers = run.exact ? "" : " (their numbers differ)"
            let what = run.length == 1 ? "the line above repeats" : "the \(run.length) lines above repeat"
            lines.append(pad("", 10) + "  " + pad("", laneWidth)
                         + "  (\(what) \(run.turns - 1) more times\(numbers), until \(formatTime(events[run.all.upperBound - 1].time)))")
        }
        lines.append("=> \(trace.outcome.description) at \(formatTime(trace.outcome.time))")
        lines.append("   schedule: \(trace.schedule)" + (trace.seed.map { " seed=\($0)" } ?? ""))
        return lines.joined(separator: "\n")
    }

    static func formatTime(_ time: Double) -> String { format3(time) + "s" }

    private static func pad(_ text: String, _ width: Int, left: Bool = false) -> String {
        let cut = text.count > width ? String(text.prefix(width)) : text
        let padding = String(repeating: " ", count: max(0, width - cut.count))
        return left ? padding + cut : cut + padding
    }
}
