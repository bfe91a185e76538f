import BGKBModel
import Testing
@testable import BGKBSite

@Suite struct TimelineSVGTests {
    /// A timeline laid out and written as a rule page writes it.
    static func drawn(_ trace: SimulationTrace) -> (svg: String, list: String, description: String) {
        let layout = TimelineSVG.Layout(trace: trace)
        var svg = HTMLWriter()
        layout.write(example: 1, rule: "r", into: &svg)
        var list = HTMLWriter()
        layout.writeTextList(into: &list)
        return (svg.string, list.string, String(decoding: layout.descriptionHTML, as: UTF8.self))
    }

    @Test func leakedTaskIsDrawnToTheEndAndTerminationIsMarked() {
        let drawing = Self.drawn(SampleCorpus.leakTrace)
        #expect(drawing.svg.contains("tl-task tl-leaked"))
        #expect(drawing.svg.contains("killed: 0x8badf00d"))
        #expect(drawing.svg.contains("class=\"tl-expiry\""))
        #expect(drawing.svg.contains("aria-labelledby=\"tl-1-title tl-1-desc\""))
        #expect(drawing.svg.contains("<title id=\"tl-1-title\">Timeline of example 1 of rule r</title>"))
        #expect(drawing.description.contains("Never ended: A."))
        #expect(drawing.list.components(separatedBy: "<li>").count - 1 == SampleCorpus.leakTrace.events.count)
    }

    @Test func endedTaskIsNotLeaked() {
        let drawing = Self.drawn(SampleCorpus.safeTrace)
        #expect(drawing.svg.contains("tl-leaked") == false)
        #expect(drawing.svg.contains("tl-end") == false)
        #expect(drawing.description.contains("The app is suspended at 2\u{00A0}s with every task ended."))
    }

    @Test func emptyTraceStillDraws() {
        let trace = SimulationTrace(events: [], outcome: .stillRunning(at: 0), schedule: "")
        let drawing = Self.drawn(trace)
        #expect(drawing.svg.hasPrefix("<svg"))
        #expect(drawing.svg.contains("nan") == false)
    }

    /// Every class attribute in a drawing lists its names once each, one space apart: a bar that
    /// did not leak wrote `class="tl-task "`, and a step's dot `class="tl-step tl-step"`.
    @Test(arguments: [(SampleCorpus.leakTrace, "tl-step"), (SampleCorpus.safeTrace, "tl-task")])
    func classAttributesHaveNoStraySpacesOrRepeats(_ trace: SimulationTrace, _ plain: String) {
        let svg = Self.drawn(trace).svg
        let attributes = svg.components(separatedBy: "class=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
        // The leak's step dot and the safe run's ended task: the element with only its base class.
        #expect(attributes.contains(plain))
        for attribute in attributes {
            let names = attribute.split(separator: " ", omittingEmptySubsequences: false)
            #expect(!names.contains(""), "stray space in \(attribute.debugDescription)")
            #expect(Set(names).count == names.count, "repeated class in \(attribute.debugDescription)")
        }
    }

    /// The state names the engine writes take a switch; it must give the class the word search
    /// gives them.
    @Test(arguments: ["foreground", "background", "suspended", "terminated", "launching", "not running", "Foreground", "inactive"])
    func stateClassesMatchTheSearch(_ state: String) {
        #expect("\(TimelineSVG.stateClass(state))" == "\(TimelineSVG.stateClassBySearch(state))")
    }

    /// Whether a task's lane needs `task ` in front: when its lowercased name does not start with `task`.
    @Test(arguments: [("task 1", true), ("Task", true), ("TASK x", true), ("tasks", true), ("tas", false), ("", false),
                      ("upload", false), ("\u{130}task", false), ("t\u{0430}sk", false)])
    func taskLanesAreNamedAsLowercasingNamesThem(_ name: String, _ startsWithTask: Bool) {
        #expect(TimelineSVG.Layout.startsWithTask(name) == startsWithTask, "\(name.debugDescription)")
    }

    /// A dot's class is written as a literal; it must be the kind's raw value.
    @Test(arguments: TraceEvent.Kind.allCases)
    func dotClassesAreTheKindsRawValues(_ kind: TraceEvent.Kind) {
        #expect("\(TimelineSVG.kindNames(kind).class)" == kind.rawValue)
    }

    /// A legend swatch's classes are written as a literal; they must name the item's raw value.
    /// Its label is markup: escaping what it says must give it back.
    @Test(arguments: LegendItem.allCases)
    func legendLiteralsMatchTheItems(_ item: LegendItem) {
        #expect("\(item.swatchClass)" == "sw sw-" + item.rawValue)
        let text = "\(item.label)".replacing("&#39;", with: "'")
        var escaped = HTMLWriter()
        escaped.text(text)
        #expect(escaped.string == "\(item.label)")
    }

    @Test(arguments: [(1.0, 0.2), (36.0, 10.0), (0.3, 0.1), (600.0, 120.0)])
    func tickSpacing(_ span: Double, _ expected: Double) {
        #expect(TimelineSVG.tickStep(for: span) == expected)
    }

    @Test(arguments: [(30.0, "30"), (0.5, "0.5"), (1.25, "1.25"), (-2.0, "-2"), (0.001, "0"), (1e20, "1e+20"), (-.infinity, "?")])
    func numbersAreFormattedWithoutLocale(_ value: Double, _ text: String) {
        #expect(Format.number(value) == text)
    }
}

/// `Format.number` and `Format.seconds` write digits into a buffer; they must give what
/// interpolating the parts gave (the version below, kept as the reference) for every value.
@Suite struct FormatTests {
    static func interpolated(_ value: Double) -> String {
        guard value.isFinite else { return "?" }
        guard abs(value) < 1e13 else { return String(value) }
        let hundredths = Int((abs(value) * 100).rounded())
        let sign = value < 0 && hundredths != 0 ? "-" : ""
        let whole = hundredths / 100
        let fraction = hundredths % 100
        if fraction == 0 { return "\(sign)\(whole)" }
        if fraction % 10 == 0 { return "\(sign)\(whole).\(fraction / 10)" }
        return "\(sign)\(whole).\(fraction < 10 ? "0" : "")\(fraction)"
    }

    static let values: [Double] = {
        var values: [Double] = [0, -0.0, 0.001, -0.001, 0.004, 0.005, -0.005, 0.01, 0.05, 0.1, 0.09, 0.099, 0.995, 1, 1.5, 1.05,
                                1.25, -1.25, 9.99, 9.999, 10, 99.5, 100, 1234.56, 30, 60, 600, 3600, 86400, 999_999.99,
                                1e12, 9_999_999_999_999.99, 1e13, -1e13, 1e20, -1e20, .infinity, -.infinity, .nan,
                                .ulpOfOne, -.ulpOfOne, .leastNonzeroMagnitude, .greatestFiniteMagnitude]
        // A deterministic spread: every hundredth up to 20, and a walk through the magnitudes.
        for hundredths in 0...2000 { values.append(Double(hundredths) / 100) }
        var value = 0.000_123
        while value < 1e14 {
            values.append(value)
            values.append(-value)
            value *= 3.7
        }
        return values
    }()

    /// Coordinates in tenths, rounded half away from zero, without a trailing `.0`; what is not
    /// finite or is absurdly large is written `0`.
    @Test(arguments: [(0.0, "0"), (12.34, "12.3"), (12.36, "12.4"), (-3.14, "-3.1"), (760, "760"), (0.04, "0"), (-0.04, "0"),
                      (-0.06, "-0.1"), (99.96, "100"), (0.25, "0.3"), (-0.25, "-0.3"), (1e15, "0"), (-1e15, "0"),
                      (.infinity, "0"), (.nan, "0"), (123_456_789.01, "123456789")])
    func coordinatesAreWrittenInTenths(_ value: Double, _ written: String) {
        var writer = HTMLWriter()
        writer.markup(" x=\"")
        writer.coordinate(value)
        writer.markup("\"")
        #expect(writer.string == " x=\"" + written + "\"")
    }

    @Test func numbersMatchInterpolation() {
        for value in Self.values {
            #expect(Format.number(value) == Self.interpolated(value), "\(value)")
            #expect(Format.seconds(value) == Self.interpolated(value) + "\u{00A0}s", "\(value)")
        }
    }
}

/// The verdict line drops a trailing ` [schedule]`, and only that.
@Suite struct ShortSummaryTests {
    @Test(arguments: [
        ("breaks: terminated [expire@2]", "expire@2", "breaks: terminated"),
        ("é [ü]", "ü", "é"),
        (" [a]", "a", ""),
        ("breaks: terminated [expire@2] ", "expire@2", "breaks: terminated [expire@2] "),
        ("breaks: terminated[expire@2]", "expire@2", "breaks: terminated[expire@2]"),
        ("breaks: terminated [expire@1]", "expire@2", "breaks: terminated [expire@1]"),
        ("a\u{0301} [[x]]", "[x]", "a\u{0301}"),
    ])
    func dropsTheTrailingSchedule(_ summary: String, _ schedule: String, _ expected: String) {
        var trace = SampleCorpus.leakTrace
        trace.schedule = schedule
        let verdict = ExampleVerdict(example: SampleCorpus.leakExample, passed: false, schedulesExplored: 1,
                                     representative: SampleCorpus.safeTrace, counterexample: trace, summary: summary)
        #expect(RulePage.shortSummary(verdict) == expected)
    }
}
