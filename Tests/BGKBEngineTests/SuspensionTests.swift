import BGKBEngine
import BGKBModel
import Testing

/// Suspension freezes every thread (SIMULATION.md S7): work under way when the app is suspended
/// goes on only once it runs again, so the time spent suspended does not count toward it.
@Suite struct SuspensionTests {
    static let text = """
        on applicationDidEnterBackground {
          DispatchQueue.global().async {
            work 10s
            print("done")
          }
        }
        at 0s: app launches
        at 1s: app enters background
        at 3s: app enters foreground
        expect printed "done"
        """

    /// The job starts at 1 s as the app is suspended, and resumes at 3 s: it does its 10 s from
    /// there and prints at 13 s, not at 11 s.
    @Test func workFrozenWhileSuspendedFinishesLater() throws {
        let s = try #require(scenario(Self.text))
        let explorer = Explorer(scenario: s)
        let trace = explorer.trace(explorer.nominalSchedule)
        let printed = try #require(trace.events.first { $0.detail.contains("print(\"done\")") })
        #expect(printed.time == 13)
        #expect(trace.events.contains { $0.detail.contains("suspended") && $0.time == 1 })
    }

    /// Resumed later, it finishes later by as much.
    @Test(arguments: [(3, 13.0), (5, 15.0), (20, 30.0)])
    func theFinishMovesWithTheResume(resume: Int, finish: Double) throws {
        let s = try #require(scenario(Self.text.replacingOccurrences(of: "at 3s:", with: "at \(resume)s:")))
        let explorer = Explorer(scenario: s)
        let trace = explorer.trace(explorer.nominalSchedule)
        let printed = try #require(trace.events.first { $0.detail.contains("print(\"done\")") })
        #expect(printed.time == finish)
    }
}

/// An `around` expectation on a print that ran at another time says when it ran.
@Suite struct AroundMessageTests {
    @Test func aPrintAtAnotherTimeIsNamedWithItsTime() throws {
        let s = try #require(scenario("""
            on applicationDidEnterBackground {
              let id = beginBackgroundTask(withName: "x")
              work 5s
              print("saved")
              endBackgroundTask(id)
            }
            expect printed "saved" around 30s
            """))
        let explorer = Explorer(scenario: s)
        let reason = try #require(explorer.failure(explorer.nominalSchedule))
        #expect(reason.contains("around 30s, it ran at 6s"), "\(reason)")
        #expect(!reason.contains("did not"), "\(reason)")
    }

    @Test func aPrintThatNeverRanSaysSo() throws {
        let s = try #require(scenario("""
            var go = false
            on applicationDidEnterBackground {
              if go {
                print("saved")
              }
              go = false
            }
            expect printed "saved" around 30s
            """))
        let explorer = Explorer(scenario: s)
        let reason = try #require(explorer.failure(explorer.nominalSchedule))
        #expect(reason.contains("to run, it did not"), "\(reason)")
    }
}
