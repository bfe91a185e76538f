import BGKBModel

/// A trace as plain text, one event per line, for the CLI and for test failures:
///
///     1.000s  global #1    taskID = beginBackgroundTask(...)   (reads / calls)
///     1.000s  system       the system calls task 1 in: its expiration handler is queued on main
///
/// Repeated identical steps fold into one line with a count, and a loop's turns (the same few
/// lines over and over, at later times) into its first turn and a line that says how often it
/// repeats: a run of a hundred thousand turns reads as a few lines.
public enum TimelineRenderer {
    /// The longest loop body, in events, that folds.
    static let longestFoldedCycle = 12

    public static func render(_ trace: SimulationTrace) -> String {
        var lines: [String] = []
        let laneWidth = min(18, max(6, trace.events.map(\.lane.count).max() ?? 6))
        var index = 0
        let events = trace.events
        func same(_ a: Int, _ b: Int) -> Bool {
            events[a].detail == events[b].detail && events[a].lane == events[b].lane && events[a].kind == events[b].kind
        }
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
        while index < events.count {
            let (length, turns) = cycle(at: index, in: events.count, same: same)
            if length > 1 {
                for offset in 0..<length { lines.append(line(events[index + offset])) }
                let last = events[index + length * turns - 1]
                lines.append(pad("", 10) + "  " + pad("", laneWidth)
                             + "  (the \(length) lines above repeat \(turns - 1) more times, until \(formatTime(last.time)))")
                index += length * turns
                continue
            }
            var repeats = 0
            while index + repeats + 1 < events.count, same(index + repeats + 1, index) { repeats += 1 }
            var text = line(events[index])
            if repeats > 0 { text += "   (×\(repeats + 1))" }
            lines.append(text)
            index += repeats + 1
        }
        lines.append("=> \(trace.outcome.description) at \(formatTime(trace.outcome.time))")
        lines.append("   schedule: \(trace.schedule)" + (trace.seed.map { " seed=\($0)" } ?? ""))
        return lines.joined(separator: "\n")
    }

    /// The loop body starting at `start` that repeats back to back most often, as its length
    /// and how many turns it takes (at least three, so a pair of look-alike lines stays as it
    /// is); (1, 1) when none does. Bodies of one event fold as a count instead.
    static func cycle(at start: Int, in count: Int, same: (Int, Int) -> Bool) -> (length: Int, turns: Int) {
        var best = (length: 1, turns: 1)
        for length in 2...longestFoldedCycle where start + length * 3 <= count {
            var turns = 1
            turnLoop: while start + (turns + 1) * length <= count {
                for offset in 0..<length where !same(start + turns * length + offset, start + offset) { break turnLoop }
                turns += 1
            }
            if turns >= 3 && length * turns > best.length * best.turns { best = (length, turns) }
        }
        return best
    }

    static func formatTime(_ time: Double) -> String { format3(time) + "s" }

    private static func pad(_ text: String, _ width: Int, left: Bool = false) -> String {
        let cut = text.count > width ? String(text.prefix(width)) : text
        let padding = String(repeating: " ", count: max(0, width - cut.count))
        return left ? padding + cut : cut + padding
    }
}
