import BGKBModel

extension TimelineSVG {
    /// A trace laid out: where everything goes, ready to be written into a page as SVG (`write`)
    /// and as the same story in a list of sentences (`writeTextList`), with a one-paragraph
    /// description (`descriptionHTML`) for the figure's caption and the SVG's `<desc>`.
    struct Layout {
        var events: [TraceEvent]
        /// The events in runs (`TraceFolding`): a loop's turns after the first are folded, in the
        /// drawing and in the list alike.
        var runs: [RepeatedRun] = []
        /// Whether each event is drawn and listed: false for the turns a run folds away.
        var shown: [Bool] = []
        /// Each event's time, lane and detail as the page writes them, escaped once: the text
        /// list and the chart's tooltips quote the same ones.
        var texts = EventTexts()
        /// What the chart shows, in one paragraph, HTML-escaped once for the two places it is written.
        var descriptionHTML: [UInt8] = []
        // Coordinates are kept as numbers and written by `HTMLWriter.coordinate`.
        var height = 0.0
        var plotLeft = 0.0
        var plotRight = 0.0
        var axisY = 0.0
        // Structs, not tuples: an array of tuples is destroyed field by field through the
        // runtime's generic tuple witness.
        struct LaneRow { var y: Double, height: Double, textY: Double, label: String, fullLabel: String }
        /// `time`: the instant it marks, its label (`Format.duration`).
        struct Tick { var x: Double, top: Double, bottom: Double, textY: Double, time: Double }
        /// `state`: the App row state it shows, its class (`LegendItem.stateClass`) and its swatch.
        struct Segment {
            var x: Double, y: Double, w: Double, h: Double, state: LegendItem, event: Int, showLabel: Bool, textX: Double, textY: Double
        }
        /// `begun` and `ended`: the events (indices into `events`) its tooltip gives the times
        /// of; `ended` is nil for a task never ended. The task's name is `begun`'s subject, read
        /// when written: a bar holds no String, so an array of them is freed without a walk.
        struct Bar {
            var x: Double, y: Double, w: Double, h: Double, begun: Int, ended: Int?
            var leaked: Bool { ended == nil }
        }
        /// `more`: dots of the same kind on the same lane that fell within a pixel or two of this
        /// one and are drawn as it (a loop of a thousand steps at one instant is one smear).
        struct Dot { var x: Double, y: Double, kind: TraceEvent.Kind, event: Int, more: Int = 0 }
        struct Expiry { var x: Double, y1: Double, y2: Double, event: Int }
        /// `mark`: what ended the run (`.killed`, `.crashed` or `.undecided`), its swatch in the legend.
        struct End {
            var x: Double, top: Double, bottom: Double, label: String, textX: Double, anchor: StaticString, mark: LegendItem
            /// The line's and the label's class.
            var kind: StaticString {
                switch mark {
                case .killed: return "terminated"
                case .crashed: return "crashed"
                default: return "undecided"
                }
            }
        }
        var laneRows: [LaneRow] = []
        var ticks: [Tick] = []
        // Tooltips that quote an event are written from the event (`event`, an index into
        // `events`) when the SVG is written, rather than built as Strings here first.
        var segments: [Segment] = []
        var bars: [Bar] = []
        var dots: [Dot] = []
        var expiries: [Expiry] = []
        var ends: [End] = []
        /// Rows that stand for the lanes not drawn ("…and 996 more tasks like these").
        struct Summary { var y: Double, text: String }
        var summaries: [Summary] = []
        var hiddenTasks = 0
        var hiddenThreads = 0
        /// Instants where events sharing one time are spread apart: the axis is broken there
        /// (`x` where the spread starts, `width` of it), so the scale stays honest elsewhere.
        struct AxisBreak { var x: Double, width: Double }
        var breaks: [AxisBreak] = []
        /// Where a run's later turns are folded: a break mark at `x` on the row of the turn's
        /// first event, a dotted span to `endX` (where the last folded turn ends) and a count.
        struct Fold { var x: Double, endX: Double, y: Double, run: Int }
        var folds: [Fold] = []

        /// What this chart shows, in the legend's order: only marks the chart draws.
        var legend: [LegendItem] {
            var items: [LegendItem] = []
            for state in LegendItem.appStates where segments.contains(where: { $0.state == state }) {
                items.append(state)
            }
            if bars.contains(where: { !$0.leaked }) { items.append(.task) }
            if bars.contains(where: \.leaked) { items.append(.leaked) }
            if !expiries.isEmpty || dots.contains(where: { $0.kind == .expiry }) { items.append(.expiry) }
            if dots.contains(where: { $0.kind == .step }) { items.append(.step) }
            if dots.contains(where: { $0.kind == .log }) { items.append(.log) }
            if dots.contains(where: { $0.kind == .crash }) || ends.contains(where: { $0.mark == .crashed }) { items.append(.crashed) }
            if ends.contains(where: { $0.mark == .killed }) { items.append(.killed) }
            if ends.contains(where: { $0.mark == .undecided }) { items.append(.undecided) }
            if !breaks.isEmpty { items.append(.axisBreak) }
            if !folds.isEmpty { items.append(.fold) }
            return items
        }

        /// `outcome`: `OutcomeTone.sentenceHTML(trace)`, when the caller has it already.
        init(trace: SimulationTrace, outcome: [UInt8]? = nil) {
            events = Self.inTimeOrder(trace.events)
            runs = TraceFolding.runs(events)
            shown = Array(repeating: true, count: events.count)
            // A folded stretch keeps one slot on the scale, for its mark, where its first event is.
            var placed = shown
            for run in runs where run.isFolded {
                for index in run.folded {
                    shown[index] = false
                    placed[index] = index == run.folded.lowerBound
                }
            }
            texts = EventTexts(events)
            let end = max(trace.outcome.time, events.last?.time ?? 0, 0)
            let span = end > 0 ? end : 1
            plotLeft = TimelineSVG.labelWidth
            plotRight = TimelineSVG.width - TimelineSVG.rightPadding
            let scale = TimeScale(times: events.indices.map { events[$0].time }, placed: placed, span: span, left: plotLeft, right: plotRight)
            let eventX = scale.eventPositions
            breaks = Self.axisBreaks(events: events, eventX: eventX)
            let endX = max(scale.x(end), eventX.last ?? plotLeft)

            let lanes = Lanes(events, shown: shown)
            hiddenTasks = lanes.hiddenTasks
            hiddenThreads = lanes.hiddenThreads
            let plotBottom = Self.laneY(lanes.names.count)
            height = plotBottom + TimelineSVG.axisHeight
            axisY = plotBottom
            summaries = lanes.summaries
            laneRows = lanes.names.enumerated().map { index, name in
                // A name of more than 20 Characters is cut to 19 and an ellipsis. Characters are
                // walked only when the bytes could exceed the limit (a name has at most as many
                // Characters as UTF-8 bytes), and only as far as the 21st: one walk finds both.
                var label = name
                if name.utf8.count > 20, let cut = name.index(name.startIndex, offsetBy: 19, limitedBy: name.endIndex),
                   cut != name.endIndex, name.index(after: cut) != name.endIndex {
                    label = String(name[..<cut]) + "…"
                }
                return LaneRow(y: Self.laneY(index) + 2, height: TimelineSVG.laneHeight - 4,
                               textY: Self.laneY(index) + 19, label: label, fullLabel: name)
            }
            ticks = Self.ticks(span: span, plotBottom: plotBottom, x: scale.x)
            segments = Self.stateSegments(events, eventX: eventX, endX: endX)
            var leaked: [String] = []
            (bars, leaked) = Self.taskBars(events, shown: shown, eventX: eventX, lanes: lanes, endX: endX)
            (expiries, dots) = Self.marks(events, shown: shown, eventX: eventX, lanes: lanes)
            folds = Self.folds(runs, events: events, eventX: eventX, lanes: lanes)
            dots = Self.merged(dots)
            ends = Self.endMark(trace.outcome, x: endX, plotRight: plotRight, plotBottom: plotBottom)
            descriptionHTML = Self.describe(trace: trace, taskCount: lanes.allTaskCount, leaked: leaked, runs: runs,
                                        outcome: outcome ?? OutcomeTone.sentenceHTML(trace))
        }

        static func laneY(_ index: Int) -> Double { TimelineSVG.topPadding + Double(index) * TimelineSVG.laneHeight }

        /// The events in time order. The sort is stable (events at one instant keep the engine's
        /// order) and skipped when the engine's events already come in time order, as they do.
        static func inTimeOrder(_ events: [TraceEvent]) -> [TraceEvent] {
            if events.indices.dropFirst().allSatisfy({ events[$0 - 1].time <= events[$0].time }) { return events }
            return events.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
        }

        /// Each event's time (as `Format.seconds` writes it), lane and detail (HTML-escaped) in one array of
        /// bytes and found by where they lie in it: the tooltips and the text list copy them
        /// instead of escaping each again, and no String is made or retained per event.
        struct EventTexts {
            struct Ranges { var time: Range<Int>, lane: Range<Int>, detail: Range<Int> }
            private var html: [UInt8] = []
            private var ranges: [Ranges] = []

            init() {}

            init(_ events: [TraceEvent]) {
                var buffer = ByteBuffer(capacity: 64 * events.count)
                ranges.reserveCapacity(events.count)
                func escaped(_ text: String) -> Range<Int> {
                    let start = buffer.count
                    buffer.appendHTMLEscaped(text)
                    return start..<buffer.count
                }
                // A time is written as it is: `Format` writes nothing that escaping would change.
                func seconds(_ time: Double) -> Range<Int> {
                    let start = buffer.count
                    Format.append(time, unit: true, to: &buffer)
                    return start..<buffer.count
                }
                // Events come in runs at one instant and on one lane: each run's time and lane is
                // escaped once.
                for index in events.indices {
                    let time = index > 0 && events[index].time == events[index - 1].time
                        ? ranges[index - 1].time : seconds(events[index].time)
                    let lane = index > 0 && events[index].lane == events[index - 1].lane ? ranges[index - 1].lane : escaped(events[index].lane)
                    ranges.append(Ranges(time: time, lane: lane, detail: escaped(events[index].detail)))
                }
                html = buffer.array
            }

            func time(_ event: Int) -> ArraySlice<UInt8> { html[ranges[event].time] }
            func lane(_ event: Int) -> ArraySlice<UInt8> { html[ranges[event].lane] }
            func detail(_ event: Int) -> ArraySlice<UInt8> { html[ranges[event].detail] }
        }

        /// The rows of the chart: the app, each task in order of first appearance, each thread that
        /// ran a step. A run with hundreds of tasks or threads draws the first few lanes of each and
        /// one row that says how many more there are: a thousand identical bars say nothing more
        /// than four.
        struct Lanes {
            var tasks: [String] = []
            var threads: [String] = []
            var allTaskCount = 0
            var allTaskSubjects: Set<String> = []
            var hiddenTasks = 0
            var hiddenThreads = 0
            /// Every row's label, top to bottom (a summary row's is empty).
            var names = ["App"]
            var threadStart = 0
            var summaries: [Summary] = []

            /// Lanes for the events `shown`; `allTaskCount` counts the tasks of every event.
            init(_ events: [TraceEvent], shown: [Bool]) {
                // Events are read field by field in place: a loop over the events would copy each one.
                var everyTask: Set<String> = []
                for index in events.indices {
                    switch events[index].kind {
                    case .taskBegan:
                        let subject = events[index].subject ?? "task"
                        if everyTask.insert(subject).inserted, shown[index] { tasks.append(subject) }
                    case .step, .log, .crash, .expiry:
                        let lane = events[index].lane
                        if shown[index], lane != "system", !threads.contains(lane) { threads.append(lane) }
                    default: break
                    }
                }
                allTaskCount = everyTask.count
                allTaskSubjects = everyTask
                hiddenTasks = Layout.capLanes(&tasks)
                hiddenThreads = Layout.capLanes(&threads)
                names.reserveCapacity(tasks.count + threads.count + 3)
                for name in tasks { names.append(Layout.startsWithTask(name) ? name : "task \(name)") }
                // The summary rows take a row each, below the lanes they stand for.
                addSummary(hiddenTasks, "task")
                threadStart = names.count
                names.append(contentsOf: threads)
                addSummary(hiddenThreads, "thread")
            }

            private mutating func addSummary(_ hidden: Int, _ what: String) {
                guard hidden > 0 else { return }
                summaries.append(Summary(y: Layout.laneY(names.count) + 19,
                                         text: "…and \(Format.count(hidden, "more " + what)) like these, not drawn"))
                names.append("")
            }

            /// The row of a task's bar, if its lane is drawn.
            func taskRow(_ subject: String) -> Int? { tasks.firstIndex(of: subject).map { $0 + 1 } }
            /// The row of a thread's dots, if its lane is drawn.
            func threadRow(_ lane: String) -> Int? { threads.firstIndex(of: lane).map { threadStart + $0 } }
        }

        /// App state segments on the first row, from one state change to the next.
        /// Each segment is closed when the next state change is met: no list of the changes is made.
        static func stateSegments(_ events: [TraceEvent], eventX: [Double], endX: Double) -> [Segment] {
            func segment(_ index: Int, to right: Double) -> Segment {
                let detail = events[index].detail
                let left = eventX[index]
                let width = max(2, right - left)
                return Segment(x: left, y: laneY(0) + 6, w: width, h: TimelineSVG.laneHeight - 12,
                               state: TimelineSVG.stateClass(detail), event: index,
                               showLabel: width >= Double(detail.utf8.count) * 7 + 8 || width >= Double(detail.count) * 7 + 8,
                               textX: left + 5, textY: laneY(0) + 19)
            }
            var segments: [Segment] = []
            segments.reserveCapacity(events.indices.reduce(0) { events[$1].kind == .appState ? $0 + 1 : $0 })
            // The last state change met, whose segment is not yet closed.
            var open: Int?
            for index in events.indices where events[index].kind == .appState {
                if let open { segments.append(segment(open, to: eventX[index])) }
                open = index
            }
            if let open { segments.append(segment(open, to: endX)) }
            return segments
        }

        /// Task bars: each begin pairs with the next end of the same subject; a task still open at
        /// the end (`endX`) is drawn to it as leaked. Also returns the leaked subjects in natural order.
        static func taskBars(_ events: [TraceEvent], shown: [Bool], eventX: [Double], lanes: Lanes,
                             endX: Double) -> (bars: [Bar], leaked: [String]) {
            var bars: [Bar] = []
            // The tasks begun and not yet ended, in the order begun: a timeline has one or two, so
            // a list searched from the end does.
            // `begun`: the event that began it.
            struct OpenTask { var subject: String, begun: Int, x: Double, shown: Bool }
            var open: [OpenTask] = []
            func bar(_ start: OpenTask, to stopX: Double, ended: Int?) {
                // A task begun in a folded turn is not drawn, though it counts as leaked.
                guard start.shown, let row = lanes.taskRow(start.subject) else { return }
                bars.append(Bar(x: start.x, y: laneY(row) + 8, w: max(3, stopX - start.x), h: TimelineSVG.laneHeight - 16,
                                begun: start.begun, ended: ended))
            }
            for index in events.indices {
                let kind = events[index].kind
                guard kind == .taskBegan || kind == .taskEnded else { continue }
                let subject = events[index].subject ?? "task"
                let found = open.lastIndex { $0.subject == subject }
                if kind == .taskBegan {
                    // A second begin of a subject still open replaces the first.
                    if let found {
                        open[found].begun = index
                        open[found].x = eventX[index]
                        open[found].shown = shown[index]
                    } else {
                        open.append(OpenTask(subject: subject, begun: index, x: eventX[index], shown: shown[index]))
                    }
                } else if let found {
                    bar(open.remove(at: found), to: eventX[index], ended: index)
                }
            }
            open.sort {
                let (a, b) = (events[$0.begun].time, events[$1.begun].time)
                return a != b ? a < b : TimelineSVG.naturalLess($0.subject, $1.subject)
            }
            for start in open {
                bar(start, to: endX, ended: nil)
            }
            bars.sort { ($0.y, $0.x) < ($1.y, $1.x) }
            return (bars, open.map(\.subject).sorted(by: TimelineSVG.naturalLess))
        }

        /// Expiry triangles on the app's or a task's row, and dots for steps, logs and crashes on
        /// the threads' rows (not yet merged).
        static func marks(_ events: [TraceEvent], shown: [Bool], eventX: [Double], lanes: Lanes) -> (expiries: [Expiry], dots: [Dot]) {
            // The engine reports a call-in on the system lane and the handler starting on main; an
            // engine that reports only one of them still gets its triangle.
            // Read by index, in place: a closure over the events would copy each one.
            var hasSystemExpiry = false
            for index in events.indices where events[index].kind == .expiry && events[index].lane == "system" {
                hasSystemExpiry = true
                break
            }
            var expiries: [Expiry] = []
            var dots: [Dot] = []
            // Most events are steps: room for them all at once.
            dots.reserveCapacity(events.count)
            for index in events.indices where shown[index] {
                let kind = events[index].kind
                switch kind {
                case .expiry where events[index].lane == "system" || !hasSystemExpiry:
                    // A task whose lane is not drawn (one of hundreds) gets no mark of its own.
                    var row = 0
                    if let subject = events[index].subject, lanes.allTaskSubjects.contains(subject) {
                        guard let drawn = lanes.taskRow(subject) else { break }
                        row = drawn
                    }
                    expiries.append(Expiry(x: eventX[index], y1: laneY(row) + 12, y2: laneY(row) + TimelineSVG.laneHeight - 4, event: index))
                case .step, .log, .crash, .expiry:
                    guard let row = lanes.threadRow(events[index].lane) else { break }
                    dots.append(Dot(x: eventX[index], y: laneY(row) + TimelineSVG.laneHeight / 2, kind: kind, event: index))
                default: break
                }
            }
            return (expiries, dots)
        }

        /// The red line where the app was killed or crashed, labelled with the code or reason (or
        /// where the simulator stopped an undecided run).
        static func endMark(_ outcome: SimulationOutcome, x: Double, plotRight: Double, plotBottom: Double) -> [End] {
            switch outcome {
            case let .terminated(code, _, _), let .crashed(code, _):
                let nearRight = x > plotRight - 120
                let label = isTermination(outcome) ? "killed: \(code)" : "crash: \(code)"
                return [End(x: x, top: TimelineSVG.topPadding - 4, bottom: plotBottom,
                            label: label.count > 48 ? String(label.prefix(47)) + "…" : label,
                            textX: nearRight ? x - 4 : x + 4, anchor: nearRight ? "end" : "start",
                            mark: isTermination(outcome) ? .killed : .crashed)]
            case .undecided:
                // Not the app's end: the simulator's own limit stopped the run here.
                let nearRight = x > plotRight - 120
                return [End(x: x, top: TimelineSVG.topPadding - 4, bottom: plotBottom, label: "undecided (the simulator's limit)",
                            textX: nearRight ? x - 4 : x + 4, anchor: nearRight ? "end" : "start", mark: .undecided)]
            case .suspended, .stillRunning:
                return []
            }
        }

        /// The SVG, element for element.
        /// `example`: the example's number on its rule's page, which names the chart's ids
        /// (`tl-` and the number) and its title, with the rule's id.
        func write(example: Int, rule: String, into w: inout HTMLWriter) {
            let width = TimelineSVG.width
            w.markup("<svg class=\"timeline\" role=\"img\" aria-labelledby=\"tl-"); w.number(example); w.markup("-title tl-"); w.number(example)
            w.markup("-desc\" viewBox=\"0 0 "); w.coordinate(width); w.markup(" "); w.coordinate(height)
            w.markup("\" preserveAspectRatio=\"xMinYMin meet\" xmlns=\"http://www.w3.org/2000/svg\">\n<title id=\"tl-")
            w.number(example); w.markup("-title\">Timeline of example "); w.number(example); w.markup(" of rule "); w.text(rule)
            w.markup("</title>\n<desc id=\"tl-"); w.number(example); w.markup("-desc\">")
            w.escaped(descriptionHTML[...]); w.markup("</desc>\n")
            for row in laneRows {
                w.markup("<rect class=\"tl-row\" x=\"0\" y=\""); w.coordinate(row.y); w.markup("\" width=\""); w.coordinate(width)
                w.markup("\" height=\""); w.coordinate(row.height); w.markup("\" fill=\"#8881\"/>\n<text class=\"tl-label\" x=\"8\" y=\"")
                w.coordinate(row.textY); w.markup("\" fill=\"#666\">"); w.text(row.label); w.markup("<title>"); w.text(row.fullLabel)
                w.markup("</title></text>\n")
            }
            for summary in summaries {
                w.markup("<text class=\"tl-summary\" x=\"8\" y=\""); w.coordinate(summary.y); w.markup("\" fill=\"#666\">")
                w.text(summary.text); w.markup("</text>\n")
            }
            for tick in ticks {
                w.markup("<line class=\"tl-grid\" x1=\""); w.coordinate(tick.x); w.markup("\" y1=\""); w.coordinate(tick.top)
                w.markup("\" x2=\""); w.coordinate(tick.x); w.markup("\" y2=\""); w.coordinate(tick.bottom)
                w.markup("\" stroke=\"#8884\"/>\n<text class=\"tl-tick\" x=\""); w.coordinate(tick.x); w.markup("\" y=\""); w.coordinate(tick.textY)
                w.markup("\" text-anchor=\"middle\" fill=\"#666\">"); w.duration(tick.time); w.markup("</text>\n")
            }
                for segment in segments {
                    w.markup("<rect class=\"tl-state tl-"); w.markup(segment.state.stateClass); w.markup("\" x=\""); w.coordinate(segment.x)
                    w.markup("\" y=\""); w.coordinate(segment.y); w.markup("\" width=\""); w.coordinate(segment.w); w.markup("\" height=\"")
                    w.coordinate(segment.h); w.markup("\" rx=\"3\" fill=\"#7a9\"><title>"); w.escaped(texts.detail(segment.event)); w.markup(" from ")
                    w.escaped(texts.time(segment.event)); w.markup("</title></rect>\n")
                    if segment.showLabel {
                        w.markup("<text class=\"tl-state-label\" x=\""); w.coordinate(segment.textX); w.markup("\" y=\""); w.coordinate(segment.textY)
                        w.markup("\" fill=\"#fff\">"); w.escaped(texts.detail(segment.event)); w.markup("</text>\n")
                    }
                }
                for bar in bars {
                    // The second class only when there is one: `class="tl-task "` kept a stray space.
                    w.markup("<rect class=\"tl-task")
                    if bar.leaked { w.markup(" tl-leaked") }
                    w.markup("\" x=\""); w.coordinate(bar.x); w.markup("\" y=\""); w.coordinate(bar.y); w.markup("\" width=\""); w.coordinate(bar.w)
                    w.markup("\" height=\""); w.coordinate(bar.h); w.markup("\" rx=\"3\" fill=\"#48c\"><title>"); w.text(events[bar.begun].subject ?? "task")
                    if let ended = bar.ended {
                        w.markup(": "); w.escaped(texts.time(bar.begun)); w.markup(" to "); w.escaped(texts.time(ended))
                    } else {
                        w.markup(": begun at "); w.escaped(texts.time(bar.begun)); w.markup(", never ended")
                    }
                    w.markup("</title></rect>\n")
                }
                for dot in dots {
                    // A dot's kind adds its class, except a step's, which the base class already is.
                    w.markup("<circle class=\"tl-step")
                    if dot.kind != .step { w.markup(" tl-"); w.markup(TimelineSVG.kindNames(dot.kind).class) }
                    w.markup("\" cx=\""); w.coordinate(dot.x); w.markup("\" cy=\"")
                    w.coordinate(dot.y); w.markup("\" r=\"4\" fill=\"#666\"><title>"); w.escaped(texts.time(dot.event)); w.markup(" on ")
                    w.escaped(texts.lane(dot.event)); w.markup(": "); w.escaped(texts.detail(dot.event))
                    if dot.more > 0 { w.markup(" (and "); w.text(Format.count(dot.more, "more step")); w.markup(" here)") }
                    w.markup("</title></circle>\n")
                }
                for expiry in expiries {
                    // A halo in the row's colour under the line keeps it readable on a bar of any
                    // colour; the triangle, drawn last, has one too (its stroke, in the stylesheet).
                    w.markup("<line class=\"tl-halo\" x1=\""); w.coordinate(expiry.x); w.markup("\" y1=\"")
                    w.coordinate(expiry.y1); w.markup("\" x2=\""); w.coordinate(expiry.x); w.markup("\" y2=\""); w.coordinate(expiry.y2)
                    w.markup("\" stroke=\"#fff\" stroke-width=\"5\"/>\n<line class=\"tl-expiry-line\" x1=\""); w.coordinate(expiry.x); w.markup("\" y1=\"")
                    w.coordinate(expiry.y1); w.markup("\" x2=\""); w.coordinate(expiry.x); w.markup("\" y2=\""); w.coordinate(expiry.y2)
                    w.markup("\" stroke=\"#d80\" stroke-width=\"2\"/>\n<path class=\"tl-expiry\" d=\"M"); w.coordinate(expiry.x); w.markup(" "); w.coordinate(expiry.y1)
                    w.markup(" l-6 -9 h12 z\" fill=\"#d80\"><title>"); w.escaped(texts.time(expiry.event)); w.markup(": ")
                    w.escaped(texts.detail(expiry.event))
                    w.markup("</title></path>\n")
                }
            writeFolds(into: &w)
            for end in ends {
                w.markup("<line class=\"tl-end tl-"); w.markup(end.kind); w.markup("\" x1=\""); w.coordinate(end.x); w.markup("\" y1=\"")
                w.coordinate(end.top); w.markup("\" x2=\""); w.coordinate(end.x); w.markup("\" y2=\""); w.coordinate(end.bottom)
                w.markup("\" stroke=\"#c33\" stroke-width=\"2.5\" stroke-dasharray=\"5 3\"/>\n<text class=\"tl-end-label tl-")
                w.markup(end.kind); w.markup("\" x=\""); w.coordinate(end.textX); w.markup("\" y=\"16\" text-anchor=\""); w.markup(end.anchor)
                w.markup("\" fill=\"#c33\">"); w.text(end.label); w.markup("</text>\n")
            }
            for mark in breaks {
                // Two slanted strokes across the axis, in the middle of the stretch not to scale.
                w.markup("<path class=\"tl-break\" d=\"M"); w.coordinate(mark.x + mark.width / 2 - 4); w.markup(" "); w.coordinate(axisY + 5)
                w.markup(" l5 -10 m3 10 l5 -10\" stroke=\"#666\" stroke-width=\"1.5\"><title>not to scale: events at one instant, spread apart</title></path>\n")
            }
            w.markup("<line class=\"tl-axis\" x1=\""); w.coordinate(plotLeft); w.markup("\" y1=\""); w.coordinate(axisY)
            w.markup("\" x2=\""); w.coordinate(plotRight); w.markup("\" y2=\""); w.coordinate(axisY); w.markup("\" stroke=\"#888\"/>\n</svg>")
        }

        /// About six ticks across `span`, each labelled; a tick too close to the previous one
        /// (instants stretched apart crowd them) is left out.
        static func ticks(span: Double, plotBottom: Double, x: (Double) -> Double) -> [Tick] {
            let step = TimelineSVG.tickStep(for: span)
            var ticks: [Tick] = []
            ticks.reserveCapacity(8)
            var tick = 0.0
            var lastTickX = -100.0
            while tick <= span + step * 0.001 {
                let tickX = x(tick)
                if tickX - lastTickX >= 34 {
                    ticks.append(Tick(x: tickX, top: TimelineSVG.topPadding, bottom: (plotBottom + 4), textY: (plotBottom + 18),
                                      time: tick))
                    lastTickX = tickX
                }
                tick += step
                if ticks.count > 50 { break }
            }
            return ticks
        }

        /// Keeps the first `maxLanes - 1` lanes of a list longer than `maxLanes`; returns how
        /// many it dropped (0 when the list fits).
        static func capLanes(_ lanes: inout [String]) -> Int {
            guard lanes.count > TimelineSVG.maxLanes else { return 0 }
            let dropped = lanes.count - (TimelineSVG.maxLanes - 1)
            lanes.removeLast(dropped)
            return dropped
        }

        /// Where events at one instant are spread apart: the axis is marked broken there.
        static func axisBreaks(events: [TraceEvent], eventX: [Double]) -> [AxisBreak] {
            var breaks: [AxisBreak] = []
            // A break spans two events or more: room for the most there can be, allocated once.
            breaks.reserveCapacity(events.count / 2)
            var runStart = 0
            for index in events.indices.dropFirst() where events[index].time != events[index - 1].time || index == events.count - 1 {
                let last = events[index].time == events[index - 1].time ? index : index - 1
                if last > runStart, eventX[last] - eventX[runStart] >= 1 {
                    breaks.append(AxisBreak(x: eventX[runStart], width: eventX[last] - eventX[runStart]))
                }
                runStart = index
            }
            return breaks
        }

        /// Dots closer than 2 px to the last one kept on their lane, of the same kind, merge into it.
        static func merged(_ dots: [Dot]) -> [Dot] {
            var merged: [Dot] = []
            merged.reserveCapacity(dots.count)
            // Each lane's row (its `y`) and the last dot kept on it: a chart has a few lanes, so
            // a short list searched in order does.
            var lastOnLane: [(y: Double, dot: Int)] = []
            // Dots lie on the threads' rows, of which at most `maxLanes` are drawn.
            lastOnLane.reserveCapacity(TimelineSVG.maxLanes)
            for dot in dots {
                let lane = lastOnLane.firstIndex { $0.y == dot.y }
                if let lane, merged[lastOnLane[lane].dot].kind == dot.kind, dot.x - merged[lastOnLane[lane].dot].x < 2 {
                    merged[lastOnLane[lane].dot].more += 1
                } else {
                    if let lane { lastOnLane[lane].dot = merged.count } else { lastOnLane.append((dot.y, merged.count)) }
                    merged.append(dot)
                }
            }
            return merged
        }

        private static func isTermination(_ outcome: SimulationOutcome) -> Bool {
            if case .terminated = outcome { return true }
            return false
        }

        /// Whether the lowercased name starts with `task` (by Characters): by bytes when the
        /// first five are ASCII (lowercasing anything else cannot make them `task`'s, and no
        /// combining mark joins the `k`), else by lowercasing.
        static func startsWithTask(_ name: String) -> Bool {
            var bytes = name.utf8.makeIterator()
            for expected in "task".utf8 {
                guard let byte = bytes.next() else { return false }
                guard byte < 0x80 else { return name.lowercased().hasPrefix("task") }
                if byte | 0x20 != expected { return false }
            }
            if let next = bytes.next(), next >= 0x80 { return name.lowercased().hasPrefix("task") }
            return true
        }

        /// The paragraph written as HTML once, as the page writes it, rather than a String
        /// appended to and escaped where it is written.
        static func describe(trace: SimulationTrace, taskCount: Int, leaked: [String], runs: [RepeatedRun], outcome: [UInt8]) -> [UInt8] {
            var w = HTMLWriter(capacity: 256)
            if taskCount == 0 {
                w.markup("No background task is begun.")
            } else {
                w.number(taskCount)
                w.markup(taskCount == 1 ? " background task begun." : " background tasks begun.")
            }
            if !leaked.isEmpty {
                if leaked.count == 1 {
                    w.markup(" Never ended: ")
                } else {
                    w.markup(" Never ended ("); w.number(leaked.count); w.markup("): ")
                }
                // A long list names its first and last few: the rest are like them.
                let shown = leaked.count > 8 ? Array(leaked.prefix(3)) + ["…"] + Array(leaked.suffix(2)) : leaked
                for (index, name) in shown.enumerated() {
                    if index > 0 { w.markup(", ") }
                    w.text(name)
                }
                w.markup(".")
            }
            var systemExpiries = 0
            var allExpiries = 0
            for index in trace.events.indices where trace.events[index].kind == .expiry {
                allExpiries += 1
                if trace.events[index].lane == "system" { systemExpiries += 1 }
            }
            let expiries = systemExpiries > 0 ? systemExpiries : allExpiries
            if expiries > 0 {
                w.markup(" The system calls the expiry handler ")
                if expiries == 1 { w.markup("once.") } else { w.number(expiries); w.markup(" times.") }
            }
            let folded = runs.reduce(0) { $0 + $1.turns - 1 }
            if folded > 0 {
                w.markup(" Repeated turns are folded: the chart and the list show the first of each and count the ")
                w.number(folded)
                w.markup(folded == 1 ? " turn after it." : " turns after it.")
            }
            // The outcome as the example's verdict box says it: one sentence for both.
            w.markup(" ")
            w.escaped(outcome[...])
            return w.bytes.array
        }

        /// The same events as the drawing, as list items (`<li>`), each time, lane, kind, subject
        /// and detail read in place; a run's folded turns are one item that counts them.
        func writeTextList(into w: inout HTMLWriter) {
            // Items in order: an event's index, or a run whose later turns one item stands for.
            enum Item { case event(Int), fold(RepeatedRun) }
            var items: [Item] = []
            // A folded run hides two events or more and adds one item: never more items than events.
            items.reserveCapacity(events.count)
            for run in runs {
                for index in run.shown { items.append(.event(index)) }
                if run.isFolded { items.append(.fold(run)) }
            }
            // A long run lists its first and last items and counts the events between by kind:
            // thousands of items like their neighbours made a page of hundreds of kilobytes.
            let keep = TimelineSVG.listedEvents / 2
            let skipped = items.count > TimelineSVG.listedEvents ? keep..<(items.count - keep) : 0..<0
            func covered(_ item: Item) -> Range<Int> {
                switch item {
                case let .event(index): return index..<(index + 1)
                case let .fold(run): return run.folded
                }
            }
            for (number, item) in items.enumerated() {
                if skipped.contains(number) {
                    if number == skipped.lowerBound {
                        writeOmitted(covered(items[skipped.lowerBound]).lowerBound..<covered(items[skipped.upperBound - 1]).upperBound, into: &w)
                    }
                    continue
                }
                guard case let .event(index) = item else {
                    if case let .fold(run) = item { writeFoldItem(run, into: &w) }
                    continue
                }
                w.markup("<li><span class=\"t\">"); w.escaped(texts.time(index)); w.markup("</span> <span class=\"lane\">"); w.escaped(texts.lane(index))
                w.markup("</span> <span class=\"ev\">"); w.markup(TimelineSVG.kindNames(events[index].kind).label); w.markup("</span>")
                if let subject = events[index].subject { w.markup(" <code>"); w.text(subject); w.markup("</code>") }
                w.markup(": "); w.escaped(texts.detail(index)); w.markup("</li>\n")
            }
        }

        /// One item for the events a long list leaves out: how many, from when to when, of which kinds.
        private func writeOmitted(_ range: Range<Int>, into w: inout HTMLWriter) {
            var counts: [TraceEvent.Kind: Int] = [:]
            for index in range { counts[events[index].kind, default: 0] += 1 }
            w.markup("<li class=\"tl-omitted\">…"); w.text(Format.count(range.count, "more event"))
            w.markup(" from "); w.escaped(texts.time(range.lowerBound)); w.markup(" to "); w.escaped(texts.time(range.upperBound - 1))
            w.markup(", like those around them: ")
            let kinds = TraceEvent.Kind.allCases.filter { counts[$0] != nil }
            for (n, kind) in kinds.enumerated() {
                if n > 0 { w.markup(", ") }
                w.number(counts[kind] ?? 0); w.markup(" "); w.markup(TimelineSVG.kindNames(kind).label)
            }
            w.markup(".</li>\n")
        }
    }
}
