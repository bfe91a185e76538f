@testable import BGKBEngine
import BGKBModel
import Testing

/// `performExpiringActivity` (SIMULATION.md S13, S20): the `expired == true` call is the app's
/// notice that it is about to be suspended. The activity ends when either call returns, and the
/// app is suspended with any work still under way frozen; a `true` call that keeps the task
/// assertion past `expiredActivityReturnLimit` (an assumption) gets the app killed.
@Suite struct ExpiringActivityTests {
    /// The `true` call does `seconds` of work before it returns. The activity expires at 6 s
    /// (background at 1 s, a budget of 5 s).
    static func stopping(after seconds: String) -> String {
        """
        system budget 5s
        system grants beginBackgroundTask
        system expires tasks only when time runs out
        on applicationDidEnterBackground {
          ProcessInfo.processInfo.performExpiringActivity(withReason: "Save") { expired in
            if expired {
              work \(seconds)
              print("stopped")
              return
            }
            work 10s
          }
        }
        expect suspended
        """
    }

    /// Past the limit (1 s after the `true` call starts, at 7 s) the app is killed; within it,
    /// it is suspended when the call returns.
    @Test(arguments: [("3s", 7.0, true), ("60s", 7.0, true), ("500ms", 6.5, false), ("0s", 6.0, false)])
    func theExpiredCallMustReturnPromptly(seconds: String, endsAt: Double, killed: Bool) throws {
        let s = try #require(scenario(Self.stopping(after: seconds)))
        let explorer = Explorer(scenario: s)
        let outcome = explorer.outcome(explorer.nominalSchedule)
        if killed {
            guard case let .terminated(code, reason, at) = outcome else {
                Issue.record("\(seconds): \(outcome)")
                return
            }
            #expect(code == "0x8badf00d")
            #expect(reason.contains("expired = true did not return within 1s"), "\(reason)")
            #expect(at == endsAt)
        } else {
            #expect(outcome == .suspended(at: endsAt), "\(seconds)")
        }
    }

    /// The `false` call's work does not go on past the expiry: once the `true` call returns the
    /// app is suspended and the work is frozen until the app runs again (here the user opens it
    /// at 20 s, and the 10 s of work begun at `start` finishes with the time it still had).
    @Test(arguments: [("didFinishLaunching", 0.0), ("applicationDidEnterBackground", 1.0)])
    func workPastTheExpiryIsFrozen(handler: String, start: Double) throws {
        let s = try #require(scenario("""
            system budget 5s
            system grants beginBackgroundTask
            system expires tasks only when time runs out
            at 0s: app launches
            at 1s: app enters background
            at 20s: app enters foreground
            on \(handler) {
              ProcessInfo.processInfo.performExpiringActivity(withReason: "Save") { expired in
                if expired {
                  return
                }
                work 10s
                print("saved")
              }
            }
            expect printed "saved"
            """))
        let explorer = Explorer(scenario: s)
        let trace = explorer.trace(explorer.nominalSchedule)
        // Begun in the foreground, the activity's clock starts when the app enters the background.
        let expiry = try #require(trace.events.first { $0.detail.contains("expired = true") })
        #expect(expiry.time == 6)
        let suspended = try #require(trace.events.first { $0.kind == .appState && $0.detail == "suspended" })
        #expect(suspended.time == 6)
        let saved = try #require(trace.events.first { $0.detail == "print(\"saved\")" })
        // Frozen from 6 s to 20 s: it ends 14 s later than it would have.
        #expect(saved.time == start + 10 + 14)
    }

    /// Begun once the background time is up (here in a task's expiry handler), the activity gets
    /// no time of its own: its block is told at once that it expired, and the app is suspended
    /// when the handler has ended the task, with the block's work frozen.
    @Test(arguments: ["20s", "1s"])
    func anActivityBegunAfterTheTimeIsUpGetsNone(work: String) throws {
        let s = try #require(scenario("""
            var id: UIBackgroundTaskIdentifier = .invalid
            system budget 5s
            system grants beginBackgroundTask
            system expires tasks only when time runs out
            on applicationDidEnterBackground {
              id = beginBackgroundTask(withName: "Upload") {
                ProcessInfo.processInfo.performExpiringActivity(withReason: "Finish") { expired in
                  if expired {
                    return
                  }
                  work \(work)
                  print("finished")
                }
                endBackgroundTask(id)
              }
            }
            expect suspended
            """))
        let explorer = Explorer(scenario: s)
        let trace = explorer.trace(explorer.nominalSchedule)
        #expect(trace.outcome == .suspended(at: 6), "\(trace.outcome)")
        #expect(!trace.events.contains { $0.detail == "print(\"finished\")" })
        #expect(!trace.events.contains { $0.detail.contains("calls its block with expired = false") })
    }

    /// Refused (no task assertion), the block is told at once that it expired and nothing keeps
    /// the app running for it: the app is suspended when `applicationDidEnterBackground` returns
    /// and the block's work stands still with everything else.
    @Test(arguments: [Conditions.Refusal.returnsInvalid, .callsExpirationHandler])
    func aRefusedActivityHoldsNothingUp(refusal: Conditions.Refusal) throws {
        let s = try #require(scenario("""
            system expires tasks only when time runs out
            on applicationDidEnterBackground {
              ProcessInfo.processInfo.performExpiringActivity(withReason: "Save") { expired in
                if expired {
                  work 2s
                  print("cleaned up")
                  return
                }
              }
            }
            expect suspended
            """))
        let explorer = Explorer(scenario: s)
        let trace = explorer.trace(Schedule(budget: 30, refusal: refusal))
        #expect(trace.outcome == .suspended(at: 1), "\(trace.outcome)")
        #expect(!trace.events.contains { $0.detail == "print(\"cleaned up\")" })
        #expect(trace.events.contains { $0.detail.contains("cannot take a task assertion") })
    }
}
