@testable import BGKBExamples
import Testing

/// `--timings` gives the examples the share of a stretch's wall time that their CPU time is of
/// all the CPU time spent in it.
@Suite struct BuildMarkTests {
    @Test(arguments: [
        (wall: 100, cpu: 200, engine: 150, expected: 75),
        (wall: 100, cpu: 200, engine: 0, expected: 0),
        (wall: 100, cpu: 50, engine: 50, expected: 100),
        (wall: 100, cpu: 0, engine: 5, expected: 100),
        (wall: 80, cpu: 100, engine: 400, expected: 80),
    ])
    func examplesGetTheirShareOfTheCPU(wall: Int, cpu: Int, engine: Int, expected: Int) {
        let start = BuildMark(wall: .now, cpu: .milliseconds(1_000))
        let end = BuildMark(wall: start.wall + .milliseconds(wall), cpu: start.cpu + .milliseconds(cpu))
        let share = start.share(of: .milliseconds(engine), to: end)
        // Scaling a Duration by a Double rounds at the attosecond.
        #expect(share > .milliseconds(expected) - .nanoseconds(1) && share < .milliseconds(expected) + .nanoseconds(1))
    }
}
