import BGKBModel

/// Draws a simulation trace as an inline SVG timeline: a lane for the app's state, a bar per
/// background task (begun → ended, or leaked), a lane per thread with its steps, expiry marks, and a
/// red line where the app was killed or crashed. Colours come from CSS classes (so the page's light
/// and dark themes both apply) with presentation attributes as a fallback for CSS-less readers.
enum TimelineSVG {
    static let template = """
    <svg class="timeline" role="img" aria-labelledby="{{id}}-title {{id}}-desc" viewBox="0 0 {{width}} {{height}}" preserveAspectRatio="xMinYMin meet" xmlns="http://www.w3.org/2000/svg">
    <title id="{{id}}-title">{{title}}</title>
    <desc id="{{id}}-desc">{{description}}</desc>
    {{#laneRows}}<rect class="tl-row" x="0" y="{{y}}" width="{{width}}" height="{{height}}" fill="#8881"/>
    <text class="tl-label" x="8" y="{{textY}}" fill="#666">{{label}}<title>{{fullLabel}}</title></text>
    {{/laneRows}}{{#ticks}}<line class="tl-grid" x1="{{x}}" y1="{{top}}" x2="{{x}}" y2="{{bottom}}" stroke="#8884"/>
    <text class="tl-tick" x="{{x}}" y="{{textY}}" text-anchor="middle" fill="#666">{{label}}</text>
    {{/ticks}}{{#segments}}<rect class="tl-state tl-{{kind}}" x="{{x}}" y="{{y}}" width="{{w}}" height="{{h}}" rx="3" fill="#7a9"><title>{{tooltip}}</title></rect>
    {{#showLabel}}<text class="tl-state-label" x="{{textX}}" y="{{textY}}" fill="#fff">{{label}}</text>
    {{/showLabel}}{{/segments}}{{#bars}}<rect class="tl-task {{#leaked}}tl-leaked{{/leaked}}" x="{{x}}" y="{{y}}" width="{{w}}" height="{{h}}" rx="3" fill="#48c"><title>{{tooltip}}</title></rect>
    {{/bars}}{{#dots}}<circle class="tl-step tl-{{kind}}" cx="{{x}}" cy="{{y}}" r="4" fill="#666"><title>{{tooltip}}</title></circle>
    {{/dots}}{{#expiries}}<path class="tl-expiry" d="M{{x}} {{y1}} l-6 -9 h12 z" fill="#d80"><title>{{tooltip}}</title></path>
    <line class="tl-expiry-line" x1="{{x}}" y1="{{y1}}" x2="{{x}}" y2="{{y2}}" stroke="#d80" stroke-width="2"/>
    {{/expiries}}{{#ends}}<line class="tl-end tl-{{kind}}" x1="{{x}}" y1="{{top}}" x2="{{x}}" y2="{{bottom}}" stroke="#c33" stroke-width="2.5" stroke-dasharray="5 3"/>
    <text class="tl-end-label tl-{{kind}}" x="{{textX}}" y="16" text-anchor="{{anchor}}" fill="#c33">{{label}}</text>
    {{/ends}}<line class="tl-axis" x1="{{plotLeft}}" y1="{{axisY}}" x2="{{plotRight}}" y2="{{axisY}}" stroke="#888"/>
    </svg>
    """

    static let width = 760.0
    static let labelWidth = 150.0
    static let rightPadding = 28.0
    static let topPadding = 26.0
    static let laneHeight = 30.0
    static let axisHeight = 28.0

    /// A laid-out timeline: the SVG markup and the same story as a list of sentences.
    struct Drawing {
        var svg: String
        var description: String
        var textEvents: [[String: Any]]
    }

    static func render(_ trace: SimulationTrace, id: String, title: String, templates: Templates) -> Drawing {
        let layout = Layout(trace: trace)
        var object = layout.values
        object["id"] = id
        object["title"] = title
        object["description"] = layout.description
        let svg = templates.render("timeline", object)
        let textEvents: [[String: Any]] = layout.events.map { event in
            ["time": Format.seconds(event.time), "lane": event.lane, "kindLabel": kindLabel(event.kind), "detail": event.detail,
             "subject": event.subject ?? "", "hasSubject": event.subject != nil]
        }
        return Drawing(svg: svg, description: layout.description, textEvents: textEvents)
    }

    static func kindLabel(_ kind: TraceEvent.Kind) -> String {
        switch kind {
        case .appState: return "app state"
        case .taskBegan: return "task began"
        case .taskEnded: return "task ended"
        case .expiry: return "expiry"
        case .step: return "step"
        case .log: return "log"
        case .termination: return "termination"
        case .crash: return "crash"
        case .system: return "system"
        }
    }

    /// Chooses a tick spacing that gives about six ticks: 0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30, 60 s...
    static func tickStep(for span: Double) -> Double {
        let candidates: [Double] = [0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 1800, 3600, 7200, 21600, 43200, 86400]
        for step in candidates where span / step <= 7 { return step }
        return (span / 6).rounded(.up)
    }

    private struct Layout {
        var events: [TraceEvent]
        var values: [String: Any] = [:]
        var description = ""

        init(trace: SimulationTrace) {
            // Stable sort: events at one instant keep the engine's order.
            events = trace.events.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
            let end = max(trace.outcome.time, events.last?.time ?? 0, 0)
            let span = end > 0 ? end : 1
            let plotLeft = TimelineSVG.labelWidth
            let plotRight = TimelineSVG.width - TimelineSVG.rightPadding
            let scale = TimeScale(times: events.map(\.time), span: span, left: plotLeft, right: plotRight)
            let eventX = scale.eventPositions
            func x(_ time: Double) -> Double { scale.x(time) }
            let endX = max(x(end), eventX.last ?? plotLeft)

            // Lanes: the app, each task in order of first appearance, each thread that ran a step.
            var taskLanes: [String] = []
            var threadLanes: [String] = []
            for event in events {
                switch event.kind {
                case .taskBegan:
                    let subject = event.subject ?? "task"
                    if !taskLanes.contains(subject) { taskLanes.append(subject) }
                case .step, .log, .crash, .expiry:
                    if event.lane != "system", !threadLanes.contains(event.lane) { threadLanes.append(event.lane) }
                default: break
                }
            }
            let laneNames = ["App"] + taskLanes.map { $0.lowercased().hasPrefix("task") ? $0 : "task \($0)" } + threadLanes
            func laneY(_ index: Int) -> Double { TimelineSVG.topPadding + Double(index) * TimelineSVG.laneHeight }
            let plotBottom = laneY(laneNames.count)
            let height = plotBottom + TimelineSVG.axisHeight

            values["width"] = Format.coordinate(TimelineSVG.width)
            values["height"] = Format.coordinate(height)
            values["plotLeft"] = Format.coordinate(plotLeft)
            values["plotRight"] = Format.coordinate(plotRight)
            values["axisY"] = Format.coordinate(plotBottom)
            values["laneRows"] = laneNames.enumerated().map { index, name -> [String: Any] in
                let label = name.count > 20 ? String(name.prefix(19)) + "…" : name
                return ["y": Format.coordinate(laneY(index) + 2), "height": Format.coordinate(TimelineSVG.laneHeight - 4),
                        "width": Format.coordinate(TimelineSVG.width), "textY": Format.coordinate(laneY(index) + 19),
                        "label": label, "fullLabel": name]
            }

            let step = TimelineSVG.tickStep(for: span)
            var ticks: [[String: Any]] = []
            var tick = 0.0
            var lastTickX = -100.0
            while tick <= span + step * 0.001 {
                let tickX = x(tick)
                // Instants stretched apart can crowd two tick labels together: skip the second.
                if tickX - lastTickX >= 34 {
                    ticks.append(["x": Format.coordinate(tickX), "top": Format.coordinate(TimelineSVG.topPadding),
                                  "bottom": Format.coordinate(plotBottom + 4), "textY": Format.coordinate(plotBottom + 18),
                                  "label": Format.seconds(tick)])
                    lastTickX = tickX
                }
                tick += step
                if ticks.count > 50 { break }
            }
            values["ticks"] = ticks

            // App state segments, from one state change to the next.
            var segments: [[String: Any]] = []
            let states = events.indices.filter { events[$0].kind == .appState }
            for (n, index) in states.enumerated() {
                let state = events[index]
                let left = eventX[index]
                let right = n + 1 < states.count ? eventX[states[n + 1]] : endX
                let width = max(2, right - left)
                let kind = Self.stateClass(state.detail)
                segments.append(["x": Format.coordinate(left), "y": Format.coordinate(laneY(0) + 6), "w": Format.coordinate(width),
                                 "h": Format.coordinate(TimelineSVG.laneHeight - 12), "kind": kind,
                                 "tooltip": "\(state.detail) from \(Format.seconds(state.time))",
                                 "label": state.detail, "showLabel": width >= Double(state.detail.count) * 7 + 8,
                                 "textX": Format.coordinate(left + 5), "textY": Format.coordinate(laneY(0) + 19)])
            }
            values["segments"] = segments

            // Task bars: each begin pairs with the next end of the same subject.
            var bars: [[String: Any]] = []
            var open: [String: (time: Double, x: Double)] = [:]
            func bar(_ subject: String, from start: (time: Double, x: Double), to stop: (time: Double, x: Double), leaked: Bool) {
                guard let lane = taskLanes.firstIndex(of: subject) else { return }
                let tooltip = leaked
                    ? "\(subject): begun at \(Format.seconds(start.time)), never ended"
                    : "\(subject): \(Format.seconds(start.time)) to \(Format.seconds(stop.time))"
                bars.append(["x": Format.coordinate(start.x), "y": Format.coordinate(laneY(lane + 1) + 8),
                             "w": Format.coordinate(max(3, stop.x - start.x)), "h": Format.coordinate(TimelineSVG.laneHeight - 16),
                             "leaked": leaked, "tooltip": tooltip])
            }
            // The engine reports a call-in on the system lane and the handler starting on main; an
            // engine that reports only one of them still gets its triangle.
            let hasSystemExpiry = events.contains { $0.kind == .expiry && $0.lane == "system" }
            var expiries: [[String: Any]] = []
            var dots: [[String: Any]] = []
            var ends: [[String: Any]] = []
            for (index, event) in events.enumerated() {
                let here = eventX[index]
                switch event.kind {
                case .taskBegan:
                    open[event.subject ?? "task"] = (event.time, here)
                case .taskEnded:
                    let subject = event.subject ?? "task"
                    if let start = open.removeValue(forKey: subject) { bar(subject, from: start, to: (event.time, here), leaked: false) }
                case .expiry where event.lane == "system" || !hasSystemExpiry:
                    let lane = event.subject.flatMap { taskLanes.firstIndex(of: $0) }.map { $0 + 1 } ?? 0
                    expiries.append(["x": Format.coordinate(here), "y1": Format.coordinate(laneY(lane) + 12),
                                     "y2": Format.coordinate(laneY(lane) + TimelineSVG.laneHeight - 4),
                                     "tooltip": "\(Format.seconds(event.time)): \(event.detail)"])
                case .step, .log, .crash, .expiry:
                    guard let lane = threadLanes.firstIndex(of: event.lane) else { break }
                    dots.append(["x": Format.coordinate(here),
                                 "y": Format.coordinate(laneY(1 + taskLanes.count + lane) + TimelineSVG.laneHeight / 2),
                                 "kind": event.kind.rawValue, "tooltip": "\(Format.seconds(event.time)) on \(event.lane): \(event.detail)"])
                default: break
                }
            }
            for (subject, start) in open.sorted(by: { ($0.value.time, $0.key) < ($1.value.time, $1.key) }) {
                bar(subject, from: start, to: (end, endX), leaked: true)
            }
            bars.sort { ($0["y"] as? String ?? "", $0["x"] as? String ?? "") < ($1["y"] as? String ?? "", $1["x"] as? String ?? "") }

            switch trace.outcome {
            case let .terminated(code, _, _), let .crashed(code, _):
                let left = endX
                let nearRight = left > plotRight - 120
                let label = Self.isTermination(trace.outcome) ? "killed: \(code)" : "crash: \(code)"
                ends.append(["x": Format.coordinate(left), "top": Format.coordinate(TimelineSVG.topPadding - 4),
                             "bottom": Format.coordinate(plotBottom), "label": label.count > 48 ? String(label.prefix(47)) + "…" : label,
                             "textX": Format.coordinate(nearRight ? left - 4 : left + 4), "anchor": nearRight ? "end" : "start",
                             "kind": Self.isTermination(trace.outcome) ? "terminated" : "crashed"])
            case .suspended, .stillRunning:
                break
            }
            values["bars"] = bars
            values["expiries"] = expiries
            values["dots"] = dots
            values["ends"] = ends
            description = Self.describe(trace: trace, taskLanes: taskLanes, leaked: open.keys.sorted())
        }

        private static func isTermination(_ outcome: SimulationOutcome) -> Bool {
            if case .terminated = outcome { return true }
            return false
        }

        static func stateClass(_ detail: String) -> String {
            let lower = detail.lowercased()
            if lower.contains("foreground") || lower.contains("active") { return "foreground" }
            if lower.contains("suspend") { return "suspended" }
            if lower.contains("terminat") || lower.contains("killed") { return "terminated" }
            if lower.contains("background") { return "background" }
            return "other"
        }

        static func describe(trace: SimulationTrace, taskLanes: [String], leaked: [String]) -> String {
            var parts: [String] = []
            parts.append(taskLanes.isEmpty ? "No background task is begun." : "\(Format.count(taskLanes.count, "background task")) begun.")
            if !leaked.isEmpty { parts.append("Never ended: \(leaked.joined(separator: ", ")).") }
            let systemExpiries = trace.events.filter { $0.kind == .expiry && $0.lane == "system" }.count
            let expiries = systemExpiries > 0 ? systemExpiries : trace.events.filter { $0.kind == .expiry }.count
            if expiries > 0 { parts.append("The system calls the expiry handler \(expiries == 1 ? "once" : "\(expiries) times").") }
            parts.append("Outcome: \(trace.outcome) at \(Format.seconds(trace.outcome.time)).")
            return parts.joined(separator: " ")
        }
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
    /// For each event, how many events before it shared its predecessor's instant.
    let collisionsBefore: [Int]

    init(times: [Double], span: Double, left: Double, right: Double) {
        self.times = times
        self.span = span
        self.left = left
        var running = 0
        var counts: [Int] = []
        for index in times.indices {
            if index > 0, times[index] == times[index - 1] { running += 1 }
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
