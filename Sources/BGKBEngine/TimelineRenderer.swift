import BGKBModel

/// A trace as plain text, one event per line, for the CLI and for test failures:
///
///     1.000s  global #1    taskID = beginBackgroundTask(...)   (reads / calls)
///     1.000s  system       the system calls task 1 in: its expiration handler is queued on main
///
/// Repeated identical steps (a loop) fold into one line with a count.
public enum TimelineRenderer {
    public static func render(_ trace: SimulationTrace) -> String {
        var lines: [String] = []
        let laneWidth = min(18, max(6, trace.events.map(\.lane.count).max() ?? 6))
        var index = 0
        let events = trace.events
        while index < events.count {
            let event = events[index]
            var repeats = 0
            while index + repeats + 1 < events.count, events[index + repeats + 1].detail == event.detail,
                  events[index + repeats + 1].lane == event.lane, events[index + repeats + 1].kind == event.kind {
                repeats += 1
            }
            let time = pad(formatTime(event.time), 10, left: true)
            let marker: String
            switch event.kind {
            case .termination, .crash: marker = "✗ "
            case .log: marker = "⚠ "
            default: marker = ""
            }
            var line = "\(time)  \(pad(event.lane, laneWidth))  \(marker)\(event.detail)"
            if repeats > 0 { line += "   (×\(repeats + 1))" }
            lines.append(line)
            index += repeats + 1
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
