/// A stretch of a trace's events that repeats back to back: one event over and over, or a
/// loop's turns (the same few events, turn after turn). Every view of a trace (the CLI's text
/// timeline, the site's chart and its list) shows a folded run as its first turn and a count,
/// so a loop of a thousand turns reads as a few lines and a few marks.
public struct RepeatedRun: Hashable, Sendable {
    /// The run's first event, an index into the events folded.
    public var start: Int
    /// Events in one turn.
    public var length: Int
    /// Turns back to back, the first included; 1 for events shown as they are.
    public var turns: Int
    /// Whether every later turn matches the first exactly; false when only their numbers differ
    /// (`task 1` then `task 2`, ...), which a view must say.
    public var exact: Bool

    public init(start: Int, length: Int, turns: Int, exact: Bool = true) {
        self.start = start
        self.length = length
        self.turns = turns
        self.exact = exact
    }

    /// Whether the run folds (has turns after the first).
    public var isFolded: Bool { turns > 1 }
    /// The events of the first turn, the ones shown.
    public var shown: Range<Int> { start..<(start + length) }
    /// The events of the turns after the first, the ones folded away.
    public var folded: Range<Int> { (start + length)..<(start + length * turns) }
    /// Every event of the run.
    public var all: Range<Int> { start..<(start + length * turns) }
}

/// Cuts a trace's events into runs: where a few events repeat back to back at least
/// `minimumTurns` times they make one folded run, and every other event is a run of its own.
/// Two events are alike when their kind and lane are the same and their details differ at most
/// in their numbers (`returns identifier 1`, `returns identifier 2`): a loop's turns differ in
/// their counters and nothing else. A pair of look-alike turns is not folded.
public enum TraceFolding {
    /// The longest loop body, in events, that folds.
    public static let longestTurn = 12
    /// The fewest turns, the first included, that fold.
    public static let minimumTurns = 3

    public static func runs(_ events: [TraceEvent]) -> [RepeatedRun] {
        var runs: [RepeatedRun] = []
        runs.reserveCapacity(events.count)
        var index = 0
        while index < events.count {
            var run = longestRepeat(at: index, in: events)
            if run.isFolded {
                run.exact = run.folded.allSatisfy { same($0, run.start + ($0 - run.start) % run.length, in: events) }
                runs.append(run)
            } else {
                runs.append(RepeatedRun(start: index, length: 1, turns: 1))
            }
            index += run.length * run.turns
        }
        return runs
    }

    /// The turn starting at `start` that repeats back to back over the most events (the shortest
    /// turn among equals: a run of one event is a turn of one, not of two), at least
    /// `minimumTurns` times; a run of one turn of one event when none does.
    static func longestRepeat(at start: Int, in events: [TraceEvent]) -> RepeatedRun {
        var best = RepeatedRun(start: start, length: 1, turns: 1)
        for length in 1...longestTurn where start + length * minimumTurns <= events.count {
            var turns = 1
            turnLoop: while start + (turns + 1) * length <= events.count {
                for offset in 0..<length where !alike(start + turns * length + offset, start + offset, in: events) { break turnLoop }
                turns += 1
            }
            if turns >= minimumTurns && length * turns > best.length * best.turns { best = RepeatedRun(start: start, length: length, turns: turns) }
        }
        return best
    }

    /// Whether events `a` and `b` have the same kind, lane and detail, numbers aside (read in
    /// place, not copied out).
    @inline(__always)
    static func alike(_ a: Int, _ b: Int, in events: [TraceEvent]) -> Bool {
        events[a].kind == events[b].kind && events[a].lane == events[b].lane && equalExceptNumbers(events[a].detail, events[b].detail)
    }

    /// Whether events `a` and `b` have the same kind, lane, subject and detail, numbers included.
    static func same(_ a: Int, _ b: Int, in events: [TraceEvent]) -> Bool {
        events[a].kind == events[b].kind && events[a].lane == events[b].lane && events[a].detail == events[b].detail
            && events[a].subject == events[b].subject
    }

    /// Whether the texts are equal once every run of ASCII digits in each counts as the same
    /// (`task 9 ended` and `task 10 ended` are); texts equal as Strings are, whatever their bytes.
    static func equalExceptNumbers(_ a: String, _ b: String) -> Bool {
        a == b || Bytes.equalExceptDigitRuns(a, b)
    }
}
