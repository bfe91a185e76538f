import BGKBModel

/// Draws a simulation trace as an inline SVG timeline: a lane for the app's state, a bar per
/// background task (begun → ended, or leaked), a lane per thread with its steps, expiry marks, and a
/// red line where the app was killed or crashed. Colours come from CSS classes (so the page's light
/// and dark themes both apply) with presentation attributes as a fallback for CSS-less readers.
enum TimelineSVG {
    static let width = 760.0
    static let labelWidth = 150.0
    static let rightPadding = 28.0
    static let topPadding = 26.0
    static let laneHeight = 30.0
    static let axisHeight = 28.0
    /// At most this many task lanes and thread lanes each; beyond it, one fewer and a summary row.
    static let maxLanes = 4
    /// At most this many events in a timeline's text list; the rest are counted in one item.
    static let listedEvents = 60

    /// Names in natural order: `task 2` before `task 10` (runs of digits compare as numbers).
    static func naturalLess(_ a: String, _ b: String) -> Bool {
        var i = a.unicodeScalars.makeIterator(), j = b.unicodeScalars.makeIterator()
        var x = i.next(), y = j.next()
        while let p = x, let q = y {
            if p.properties.numericType != nil, q.properties.numericType != nil, p.isASCII, q.isASCII {
                var m = "", n = ""
                while let d = x, d.isASCII, d.properties.numericType != nil { m.unicodeScalars.append(d); x = i.next() }
                while let d = y, d.isASCII, d.properties.numericType != nil { n.unicodeScalars.append(d); y = j.next() }
                let trimmedM = m.drop { $0 == "0" }, trimmedN = n.drop { $0 == "0" }
                if trimmedM.count != trimmedN.count { return trimmedM.count < trimmedN.count }
                if trimmedM != trimmedN { return trimmedM < trimmedN }
                continue
            }
            if p != q { return p.value < q.value }
            x = i.next(); y = j.next()
        }
        if x == nil && y == nil { return a < b }
        return x == nil
    }

    /// A kind's label in the text list and its class on a dot (`kind.rawValue`): literals, so
    /// pages write them as markup (they hold nothing to escape) rather than as text.
    static func kindNames(_ kind: TraceEvent.Kind) -> (label: StaticString, class: StaticString) {
        switch kind {
        case .appState: return ("app state", "app-state")
        case .taskBegan: return ("task began", "task-began")
        case .taskEnded: return ("task ended", "task-ended")
        case .expiry: return ("expiry", "expiry")
        case .step: return ("step", "step")
        case .log: return ("log", "log")
        case .termination: return ("termination", "termination")
        case .crash: return ("crash", "crash")
        case .system: return ("system", "system")
        }
    }

    /// The App row state of an app state's name: its segment's class (`LegendItem.stateClass`)
    /// and its swatch.
    static func stateClass(_ detail: String) -> LegendItem {
        // The engine's own state names first (every state a trace holds).
        switch detail {
        case "foreground": return .foreground
        case "background": return .background
        case "suspended": return .suspended
        case "terminated": return .terminated
        case "launching", "not running": return .other
        default: break
        }
        return stateClassBySearch(detail)
    }

    /// The class by the words in the state's name (what any other name falls back to).
    static func stateClassBySearch(_ detail: String) -> LegendItem {
        let lower = Array(detail.lowercased().utf8)
        func has(_ word: StaticString) -> Bool { Bytes.contains(word, in: lower) }
        if has("foreground") || has("active") { return .foreground }
        if has("suspend") { return .suspended }
        if has("terminat") || has("killed") { return .terminated }
        if has("background") { return .background }
        return .other
    }

    /// Chooses a tick spacing that gives about six ticks: 0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30, 60 s...
    static func tickStep(for span: Double) -> Double {
        let candidates: [Double] = [0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 1800, 3600, 7200, 21600, 43200, 86400]
        for step in candidates where span / step <= 7 { return step }
        return (span / 6).rounded(.up)
    }

}

/// Maps virtual time to x. Time is linear, except that events sharing one instant are spread a
/// few pixels apart in the order they happened, so a race at a single instant (the expiry handler
/// and the queue both ending a task at 11 s) is visible instead of drawn as one dot.
struct TimeScale {
    let times: [Double]
    let span: Double
    let left: Double
    let gap: Double
    let usable: Double
    /// For each event, how many placed events before it shared their predecessor's instant.
    let collisionsBefore: [Int]

    /// `placed`: whether each event takes a place of its own when it shares an instant (events
    /// of folded turns do not: they are not drawn); nil for every event.
    init(times: [Double], placed: [Bool]? = nil, span: Double, left: Double, right: Double) {
        self.times = times
        self.span = span
        self.left = left
        var running = 0
        var counts: [Int] = []
        counts.reserveCapacity(times.count)
        var previous: Double?
        for index in times.indices {
            if placed?[index] ?? true {
                if previous == times[index] { running += 1 }
                previous = times[index]
            }
            counts.append(running)
        }
        collisionsBefore = counts
        let width = right - left
        gap = running == 0 ? 0 : min(10, width * 0.45 / Double(running))
        usable = width - gap * Double(running)
    }

    var eventPositions: [Double] {
        times.indices.map { left + usable * (max(0, times[$0]) / span) + gap * Double(collisionsBefore[$0]) }
    }

    /// The x of an instant that is not an event: after every collision at earlier instants.
    func x(_ time: Double) -> Double {
        var collisions = 0
        for index in times.indices where times[index] < time || (times[index] == time && index > 0 && times[index - 1] < time) {
            collisions = collisionsBefore[index]
        }
        return left + usable * (max(0, time) / span) + gap * Double(collisions)
    }
}
