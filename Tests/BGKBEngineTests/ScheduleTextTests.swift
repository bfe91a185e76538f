@testable import BGKBEngine
import Testing

@Suite struct ScheduleTextTests {
    /// The printed schedule is appended piece by piece; it must read as the interpolated version
    /// it replaced (kept here as the reference) for whole, fractional, negative and long times.
    @Test(arguments: [0.0, -0.0, 1, 30, -2, 10.999, 10.9990001, 7.318202627, 0.1 + 0.2, 1e-7, 123_456.789_012_345, 1e15, 4e15, -1e16])
    func printedSchedulesReadAsInterpolatingThem(time: Double) {
        func reference(_ schedule: Schedule) -> String {
            func exact(_ seconds: Double) -> String {
                let short = formatSeconds(seconds)
                if Double(short.dropLast()) == seconds { return short }
                return "\(seconds)s"
            }
            var text = "budget=\(exact(schedule.budget)) refusal=\(schedule.refusal.rawValue)"
            text += " expire=" + (schedule.forcedExpiry.map(exact) ?? "never")
            text += " choices=" + (schedule.choices.isEmpty ? "-" : schedule.choices.map { "\($0.index):\($0.choice)" }.joined(separator: ","))
            return text
        }
        for schedule in [Schedule(budget: time), Schedule(budget: 30, refusal: .returnsInvalid, forcedExpiry: time),
                         Schedule(budget: time, forcedExpiry: time, choices: [.init(index: 2, choice: 1), .init(index: -9, choice: 255)])] {
            #expect(schedule.description == reference(schedule), "\(time)")
        }
    }
}
