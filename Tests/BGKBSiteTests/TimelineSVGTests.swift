import BGKBModel
import Testing
@testable import BGKBSite

@Suite struct TimelineSVGTests {
    let templates = Templates()

    @Test func leakedTaskIsDrawnToTheEndAndTerminationIsMarked() {
        let drawing = TimelineSVG.render(SampleCorpus.leakTrace, id: "t", title: "Leak")
        #expect(drawing.svg.contains("tl-task tl-leaked"))
        #expect(drawing.svg.contains("killed: 0x8badf00d"))
        #expect(drawing.svg.contains("class=\"tl-expiry\""))
        #expect(drawing.svg.contains("aria-labelledby=\"t-title t-desc\""))
        #expect(drawing.description.contains("Never ended: A."))
        #expect(drawing.textEvents.count == SampleCorpus.leakTrace.events.count)
    }

    @Test func endedTaskIsNotLeaked() {
        let drawing = TimelineSVG.render(SampleCorpus.safeTrace, id: "t", title: "Safe")
        #expect(drawing.svg.contains("tl-leaked") == false)
        #expect(drawing.svg.contains("tl-end") == false)
        #expect(drawing.description.contains("suspended cleanly"))
    }

    @Test func emptyTraceStillDraws() {
        let trace = SimulationTrace(events: [], outcome: .stillRunning(at: 0), schedule: "")
        let drawing = TimelineSVG.render(trace, id: "t", title: "Empty")
        #expect(drawing.svg.hasPrefix("<svg"))
        #expect(drawing.svg.contains("nan") == false)
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
