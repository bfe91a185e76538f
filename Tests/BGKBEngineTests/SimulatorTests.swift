import BGKBEngine
import BGKBModel
import Testing

/// The simulator's own rules (SIMULATION.md S1–S16), each on a small scenario and the nominal
/// schedule or a schedule chosen to show it.
@Suite struct SimulatorTests {
    struct Case: Sendable, CustomStringConvertible {
        var name: String
        var text: String
        var schedule: Schedule?
        /// Words the outcome's description must contain.
        var outcome: String
        /// Text one trace event's detail must contain, if any.
        var event: String?
        var description: String { name }
    }

    static let cases: [Case] = [
        Case(name: "S7 suspended once every task has ended", text: """
            on applicationDidEnterBackground {
              let id = beginBackgroundTask(withName: "x")
              work 2s
              endBackgroundTask(id)
            }
            expect suspended
            """, outcome: "suspended", event: "endBackgroundTask(1)"),
        Case(name: "S1 refusal returns .invalid", text: """
            on applicationDidEnterBackground {
              let id = beginBackgroundTask(withName: "x")
              endBackgroundTask(id)
            }
            expect suspended
            """, schedule: Schedule(budget: 30, refusal: .returnsInvalid), outcome: "suspended", event: "no background task exists with identifier 0"),
        Case(name: "S1 refusal calls the expiration handler", text: """
            var id: UIBackgroundTaskIdentifier = .invalid
            on applicationDidEnterBackground {
              id = beginBackgroundTask(withName: "x") {
                print("handler")
                endBackgroundTask(id)
              }
            }
            expect suspended
            """, schedule: Schedule(budget: 30, refusal: .callsExpirationHandler), outcome: "suspended", event: "print(\"handler\")"),
        Case(name: "S3 budget zero expires at once", text: """
            on applicationDidEnterBackground {
              beginBackgroundTask(withName: "x")
            }
            expect suspended
            """, schedule: Schedule(budget: 0), outcome: "0x8badf00d", event: "leaked"),
        Case(name: "S5 a blocked main thread cannot run expiry handlers", text: """
            var id: UIBackgroundTaskIdentifier = .invalid
            on applicationDidEnterBackground {
              id = beginBackgroundTask(withName: "x") {
                endBackgroundTask(id)
              }
              DispatchQueue.main.async {
                work 100s
              }
            }
            expect suspended
            """, outcome: "0x8badf00d", event: "main thread blocked"),
        Case(name: "S11 didEnterBackground overrun", text: """
            on applicationDidEnterBackground {
              work 6s
            }
            expect suspended
            """, outcome: "0x8badf00d", event: "did not return within 5s"),
        Case(name: "S16 foreground ends the period", text: """
            system budget 30s
            at 1s: app enters background
            at 20s: app enters foreground
            at 100s: app enters background
            var id: UIBackgroundTaskIdentifier = .invalid
            on didFinishLaunching {
              id = beginBackgroundTask(withName: "long") {
                endBackgroundTask(id)
              }
            }
            expect suspended
            """, outcome: "suspended", event: "the system calls task 1"),
        Case(name: "S13 expiring activity called again with expired", text: """
            on applicationDidEnterBackground {
              ProcessInfo.processInfo.performExpiringActivity(withReason: "save") { expired in
                if expired {
                  print("cancel")
                } else {
                  work 60s
                  print("saved")
                }
              }
            }
            expect suspended
            """, outcome: "suspended", event: "print(\"cancel\")"),
        Case(name: "S14 resubmitting replaces, another refresh is too many", text: """
            on applicationDidEnterBackground {
              let a = BGAppRefreshTaskRequest(identifier: "a")
              try? BGTaskScheduler.shared.submit(a)
              try? BGTaskScheduler.shared.submit(a)
              let b = BGAppRefreshTaskRequest(identifier: "b")
              try? BGTaskScheduler.shared.submit(b)
            }
            expect suspended
            """, outcome: "suspended", event: "tooManyPendingTaskRequests"),
        Case(name: "S14 not permitted", text: """
            Info.plist BGTaskSchedulerPermittedIdentifiers: ["a"]
            on applicationDidEnterBackground {
              let b = BGProcessingTaskRequest(identifier: "b")
              try? BGTaskScheduler.shared.submit(b)
            }
            expect suspended
            """, outcome: "suspended", event: "notPermitted"),
        Case(name: "S14 earliestBeginDate means not before", text: """
            at 1s: app enters background
            at 100s: system launches "p"
            on didFinishLaunching {
              BGTaskScheduler.shared.register(forTaskWithIdentifier: "p", using: nil) { task in
                task.setTaskCompleted(success: true)
              }
            }
            on applicationDidEnterBackground {
              let r = BGProcessingTaskRequest(identifier: "p")
              r.earliestBeginDate = Date(timeIntervalSinceNow: 3600)
              try? BGTaskScheduler.shared.submit(r)
            }
            expect suspended
            """, outcome: "suspended", event: "earliestBeginDate has not come"),
        Case(name: "S14 requiresExternalPower on battery", text: """
            at 1s: app enters background
            at 100s: system launches "p"
            on didFinishLaunching {
              BGTaskScheduler.shared.register(forTaskWithIdentifier: "p", using: nil) { task in
                task.setTaskCompleted(success: true)
              }
            }
            on applicationDidEnterBackground {
              let r = BGProcessingTaskRequest(identifier: "p")
              r.requiresExternalPower = true
              try? BGTaskScheduler.shared.submit(r)
            }
            expect suspended
            """, outcome: "suspended", event: "requires external power"),
        Case(name: "S15 push without completion is killed", text: """
            at 1s: app enters background
            at 60s: push arrives
            on didReceiveRemoteNotification {
              DispatchQueue.global().async {
                work 40s
                completionHandler(.newData)
              }
            }
            expect suspended
            """, outcome: "0x8badf00d", event: "completion handler within 30s"),
        Case(name: "S15 push completed in time", text: """
            at 1s: app enters background
            at 60s: push arrives
            on didReceiveRemoteNotification {
              DispatchQueue.global().async {
                work 10s
                completionHandler(.newData)
              }
            }
            expect suspended
            """, outcome: "suspended", event: "completionHandler called"),
        Case(name: "relaunch after the system reclaims the app is a new process", text: """
            var registered = false
            at 1s: app enters background
            at 1h: system terminates app
            at 2h: system launches "r"
            on didFinishLaunching {
              if !registered {
                BGTaskScheduler.shared.register(forTaskWithIdentifier: "r", using: nil) { task in
                  print("ran")
                  task.setTaskCompleted(success: true)
                }
                registered = true
              }
            }
            on applicationDidEnterBackground {
              try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "r"))
            }
            expect task completed
            """, outcome: "suspended", event: "print(\"ran\")"),
        Case(name: "@AppStorage survives a relaunch, plain variables do not", text: """
            @AppStorage("launches") var launches = 0
            var inMemory = 0
            at 1s: app enters background
            at 1h: system terminates app
            at 2h: app launches
            on didFinishLaunching {
              launches += 1
              inMemory += 1
              if launches == 2 {
                if inMemory == 1 {
                  print("second launch, fresh memory")
                }
              }
            }
            expect running
            """, outcome: "still running", event: "print(\"second launch, fresh memory\")"),
        Case(name: "lock serialises two threads", text: """
            let lock = NSLock()
            var n = 0
            on applicationDidEnterBackground {
              let id = beginBackgroundTask(withName: "x")
              DispatchQueue.global().async {
                lock.withLock {
                  n += 1
                }
              }
              lock.withLock {
                n += 1
              }
              work 1s
              if n == 2 {
                print("both")
              }
              endBackgroundTask(id)
            }
            expect suspended
            """, outcome: "suspended", event: "print(\"both\")"),
    ]

    @Test(arguments: cases)
    func rule(_ c: Case) throws {
        let s = try #require(scenario(c.text))
        let explorer = Explorer(scenario: s)
        let trace = explorer.trace(c.schedule ?? explorer.nominalSchedule)
        let rendered = TimelineRenderer.render(trace)
        #expect(trace.outcome.description.contains(c.outcome), "\(rendered)")
        if let event = c.event {
            #expect(trace.events.contains { $0.detail.contains(event) } || trace.outcome.description.contains(event), "\(rendered)")
        }
    }

    /// A refresh request submitted on the way to the background and launched two hours later,
    /// with `handler` as its launch handler's body; the app expects "launched" printed.
    static func refreshLaunch(handler: String) -> String {
        let body = handler.split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 }.joined(separator: "\n")
        return """
            Info.plist BGTaskSchedulerPermittedIdentifiers: ["com.example.refresh"]
            at 0s: app launches
            at 1s: app enters background
            at 2h: system launches "com.example.refresh"

            on didFinishLaunching {
              BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.refresh", using: nil) { task in
            \(body)
              }
            }

            on applicationDidEnterBackground {
              try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.refresh"))
            }

            expect printed "launched"
            """
    }

    /// S14: a BGTask reaches the app through its launch handler, so an early expiry at the very
    /// instant of the launch cannot complete the task before that handler runs (the app would
    /// then be suspended with its launch handler never called). Explored three choices deep,
    /// beyond the explorer's usual two, the launch handler always runs.
    @Test func anEarlyExpiryNeverSkipsTheLaunchHandler() throws {
        let s = try #require(scenario(Self.refreshLaunch(handler: """
            print("launched")
            task.setTaskCompleted(success: true)
            """)))
        var options = Explorer.Options()
        options.preemptionBound = 3
        options.maxRuns = 100_000
        let result = Explorer(scenario: s, options: options).explore(stopAtFirstFailure: true)
        #expect(!result.capped)
        #expect(result.failure == nil, "\(result.failure.map { "\($0.schedule): \($0.reason)" } ?? "")")
    }

    /// Once the launch handler has begun, an early expiry reaches the task; before the handler sets
    /// `expirationHandler`, the task is marked complete and unsuccessful (BGTask.h).
    @Test func anEarlyExpiryBeforeTheExpirationHandlerIsSetCompletesTheTask() throws {
        let s = try #require(scenario(Self.refreshLaunch(handler: """
            print("launched")
            task.expirationHandler = {
              task.setTaskCompleted(success: false)
            }
            work 5s
            task.setTaskCompleted(success: true)
            """)))
        let trace = try #require(Explorer(scenario: s).firstTrace { trace in
            trace.events.contains { $0.detail.contains("no expirationHandler, so it is marked complete") }
        })
        let rendered = TimelineRenderer.render(trace)
        // The launch handler had begun: its first line ran before the expiry reached the task.
        let launched = try #require(trace.events.firstIndex { $0.detail.contains("print(\"launched\")") }, "\(rendered)")
        let expired = try #require(trace.events.firstIndex { $0.detail.contains("no expirationHandler") }, "\(rendered)")
        #expect(launched < expired, "\(rendered)")
    }

    @Test func runsAreDeterministicAndSchedulesReplay() throws {
        let sample = ScenarioSamples.legacyBackgroundSync
        let s = try #require(scenario(sample.text))
        let first = Explorer(scenario: s).explore(stopAtFirstFailure: false)
        let second = Explorer(scenario: s).explore(stopAtFirstFailure: false)
        #expect(first.runs == second.runs)
        #expect(first.events == second.events)
        let failure = try #require(first.failure)
        #expect(failure.schedule.description == second.failure?.schedule.description)
        // The printed schedule alone replays the failing run.
        let replayed = try #require(Schedule(parsing: failure.schedule.description))
        let explorer = Explorer(scenario: s)
        #expect(explorer.failure(replayed) == failure.reason)
        #expect(explorer.trace(replayed) == explorer.trace(failure.schedule))
    }

    /// A random schedule's early expiry has more digits than milliseconds: printed and read back,
    /// every schedule must come back exactly, or `bgkb check --replay` would run another one.
    @Test(arguments: [0.0, 1, 10.999, 10.9990001, 7.318202627, 0.1 + 0.2, 1e-7, 123_456.789_012_345])
    func printedSchedulesReadBackExactly(time: Double) throws {
        let schedule = Schedule(budget: time, refusal: .returnsInvalid, forcedExpiry: time,
                                choices: [.init(index: 2, choice: 1), .init(index: 9, choice: 3)])
        let read = try #require(Schedule(parsing: schedule.description), "\(schedule)")
        #expect(read.budget == schedule.budget, "\(schedule)")
        #expect(read.forcedExpiry == schedule.forcedExpiry, "\(schedule)")
        #expect(read.refusal == schedule.refusal)
        #expect(read.choices == schedule.choices)
    }
}

@Suite struct ExplorerTests {
    /// The nil-unwrap race in Apple's listing needs the system to step in between two steps of
    /// the queue and the handler to run before the store: no interleaving, no crash.
    @Test(arguments: [0, 2])
    func theListingsCrashNeedsInterleaving(bound: Int) throws {
        var options = Explorer.Options()
        options.preemptionBound = bound
        options.randomSchedules = 0
        let s = try #require(scenario(ScenarioSamples.applesListing.text))
        let crash = Explorer(scenario: s, options: options).firstTrace { trace in
            if case let .crashed(reason, _) = trace.outcome { return reason.contains("nil") }
            return false
        }
        #expect((crash != nil) == (bound > 0))
    }

    @Test func followsExamplesExploreEverySystemConfiguration() throws {
        let s = try #require(scenario(ScenarioSamples.applesListingCorrected.text))
        let result = Explorer(scenario: s).explore(stopAtFirstFailure: false)
        // 3 refusal modes × 4 budgets, each with early expiry at every background instant, plus interleavings.
        #expect(result.runs > 3 * 4 * 3)
        #expect(result.failure == nil)
        #expect(!result.capped)
    }
}
