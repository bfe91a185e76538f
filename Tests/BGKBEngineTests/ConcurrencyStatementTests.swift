import BGKBEngine
import BGKBModel
import Testing

/// The Swift apps actually contain (issue 35): Dispatch timers, semaphores and groups, `while`,
/// Swift tasks. Each case runs one scenario on the nominal schedule (or the one given) and checks
/// the outcome and one event of its trace; the verdict tests run the explorer.
@Suite struct ConcurrencyStatementTests {
    struct Case: Sendable, CustomStringConvertible {
        var name: String
        var text: String
        var schedule: Schedule?
        /// Words the outcome's description must contain.
        var outcome: String
        /// Text one trace event's detail must contain, and the time it happens at, if given.
        var event: String?
        var at: Double?
        var description: String { name }
    }

    static let cases: [Case] = [
        Case(name: "asyncAfter on main runs its block after the delay", text: """
            on didFinishLaunching {
              DispatchQueue.main.asyncAfter(deadline: .now() + 5) {
                print("later")
              }
            }
            at 0s: app launches
            at 60s: app enters background
            expect printed "later"
            """, outcome: "suspended", event: "print(\"later\")", at: 5),
        Case(name: "asyncAfter on a global queue with .seconds", text: """
            on didFinishLaunching {
              DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(3)) {
                print("later")
              }
            }
            at 0s: app launches
            at 60s: app enters background
            expect printed "later"
            """, outcome: "suspended", event: "print(\"later\")", at: 3),
        Case(name: "asyncAfter on a declared queue with milliseconds", text: """
            let queue = DispatchQueue(label: "sync")
            on didFinishLaunching {
              queue.asyncAfter(deadline: .now() + .milliseconds(1500)) {
                print("later")
              }
            }
            at 0s: app launches
            at 60s: app enters background
            expect printed "later"
            """, outcome: "suspended", event: "print(\"later\")", at: 1.5),
        Case(name: "an asyncAfter block does not run while the app is suspended", text: """
            on applicationDidEnterBackground {
              DispatchQueue.main.asyncAfter(deadline: .now() + 5) {
                print("later")
              }
            }
            at 0s: app launches
            at 1s: app enters background
            expect suspended
            """, outcome: "suspended", event: "suspended", at: 1),
        Case(name: "an asyncAfter delay stands still while the app is suspended", text: """
            on didFinishLaunching {
              DispatchQueue.main.asyncAfter(deadline: .now() + 10) {
                print("later")
              }
            }
            at 0s: app launches
            at 1s: app enters background
            at 5s: app enters foreground
            at 60s: app enters background
            expect printed "later"
            """, outcome: "suspended", event: "print(\"later\")", at: 14),
        Case(name: "a wait's timeout stands still while the app is suspended", text: """
            on didFinishLaunching {
              DispatchQueue.global().async {
                let sem = DispatchSemaphore(value: 0)
                _ = sem.wait(timeout: .now() + 10)
                print("gave up")
              }
            }
            at 0s: app launches
            at 1s: app enters background
            at 5s: app enters foreground
            at 60s: app enters background
            expect printed "gave up"
            """, outcome: "suspended", event: "print(\"gave up\")", at: 14),
        Case(name: "a semaphore signalled from a queue releases main", text: """
            on applicationDidEnterBackground {
              let sem = DispatchSemaphore(value: 0)
              DispatchQueue.global().async {
                work 2s
                sem.signal()
              }
              sem.wait()
              print("done")
            }
            expect suspended
            """, outcome: "suspended", event: "print(\"done\")", at: 3),
        Case(name: "a semaphore wait on main past five seconds is a watchdog kill", text: """
            let sem = DispatchSemaphore(value: 0)
            on applicationDidEnterBackground {
              DispatchQueue.global().async {
                work 10s
                sem.signal()
              }
              sem.wait()
            }
            expect suspended
            """, outcome: "0x8badf00d", event: "applicationDidEnterBackground did not return"),
        Case(name: "a semaphore wait with a timeout times out", text: """
            on applicationDidEnterBackground {
              let sem = DispatchSemaphore(value: 0)
              _ = sem.wait(timeout: .now() + 2)
              print("gave up")
            }
            expect suspended
            """, outcome: "suspended", event: "times out", at: 3),
        Case(name: "a group notifies main once every member left", text: """
            let group = DispatchGroup()
            on applicationDidEnterBackground {
              let id = beginBackgroundTask(withName: "sync")
              group.enter()
              DispatchQueue.global().async {
                work 2s
                group.leave()
              }
              group.enter()
              DispatchQueue.global().async {
                work 4s
                group.leave()
              }
              group.notify(queue: .main) {
                print("all done")
                endBackgroundTask(id)
              }
            }
            expect suspended
            """, outcome: "suspended", event: "print(\"all done\")", at: 5),
        Case(name: "group.wait blocks until the group is empty", text: """
            on applicationDidEnterBackground {
              let id = beginBackgroundTask(withName: "sync")
              DispatchQueue.global().async {
                let group = DispatchGroup()
                group.enter()
                DispatchQueue.global().async {
                  work 3s
                  group.leave()
                }
                group.wait()
                print("waited")
                endBackgroundTask(id)
              }
            }
            expect suspended
            """, outcome: "suspended", event: "print(\"waited\")", at: 4),
        Case(name: "an unbalanced leave crashes", text: """
            on applicationDidEnterBackground {
              let group = DispatchGroup()
              group.leave()
            }
            expect suspended
            """, outcome: "Unbalanced call to dispatch_group_leave", event: nil),
        Case(name: "while runs until its condition is false", text: """
            var n = 0
            on applicationDidEnterBackground {
              while n < 3 {
                work 1s
                n += 1
              }
              print("looped")
            }
            expect n == 3
            """, outcome: "suspended", event: "print(\"looped\")", at: 4),
        Case(name: "a Task from a UIKit delegate method runs on main", text: """
            on applicationDidEnterBackground {
              Task {
                print("in task")
              }
            }
            expect printed "in task"
            """, outcome: "suspended", event: "print(\"in task\")"),
        Case(name: "Task.sleep on the main actor lets main run other work", text: """
            on didFinishLaunching {
              Task {
                try await Task.sleep(for: .seconds(5))
                print("woke")
              }
              DispatchQueue.main.async {
                print("main is free")
              }
            }
            at 0s: app launches
            at 60s: app enters background
            expect printed "woke"
            """, outcome: "suspended", event: "print(\"woke\")", at: 5),
        Case(name: "await of an async function and Task.detached", text: """
            func sync() async {
              try await Task.sleep(nanoseconds: 2_000_000_000)
              print("synced")
            }
            on didFinishLaunching {
              Task.detached {
                await sync()
              }
            }
            at 0s: app launches
            at 60s: app enters background
            expect printed "synced"
            """, outcome: "suspended", event: "print(\"synced\")", at: 2),
    ]

    @Test(arguments: cases)
    func statement(_ c: Case) throws {
        let s = try #require(scenario(c.text))
        let explorer = Explorer(scenario: s)
        let trace = explorer.trace(c.schedule ?? explorer.nominalSchedule)
        let rendered = TimelineRenderer.render(trace)
        #expect(trace.outcome.description.contains(c.outcome), "\(rendered)")
        if let event = c.event {
            let found = trace.events.first { $0.detail.contains(event) }
            #expect(found != nil || trace.outcome.description.contains(event), "\(rendered)")
            if let at = c.at, let found { #expect(abs(found.time - at) < 1e-9, "\(rendered)") }
        }
    }

    struct Unmodelled: Sendable, CustomStringConvertible {
        var code: String
        /// Words the error must contain, and where it must point (line and column in the block).
        var message: String
        var line: Int
        var column: Int
        var description: String { code }
    }

    static let unmodelled: [Unmodelled] = [
        Unmodelled(code: "  break", message: "`break` is not modelled", line: 3, column: 3),
        Unmodelled(code: "  DispatchQueue.global().async(group: g) {\n  }", message: "async(group:) is not modelled", line: 3, column: 26),
        Unmodelled(code: "  let s = URLSession.shared", message: "URLSession.shared is not modelled", line: 3, column: 11),
        Unmodelled(code: "  guard let x = y else { return }", message: "`guard let` is not modelled", line: 3, column: 3),
        Unmodelled(code: "  DispatchQueue.main.asyncAfter(deadline: later) {\n  }", message: "write the deadline as .now() + 5", line: 3, column: 43),
        Unmodelled(code: "  let sem = DispatchSemaphore(value: 0)\n  sem.resume()", message: "sem.resume(...) is not modelled", line: 4, column: 7),
        Unmodelled(code: "  try await Task.sleep(until: later)", message: "write Task.sleep(for: .seconds(5))", line: 3, column: 18),
    ]

    /// What the engine does not model stays an error that names the construct, at its place.
    @Test(arguments: unmodelled)
    func unmodelledConstructsAreErrors(_ u: Unmodelled) {
        let text = "let g = DispatchGroup()\non applicationDidEnterBackground {\n\(u.code)\n}\nexpect suspended"
        let (parsed, diagnostics) = ScenarioParser.parse(text, at: BGKBModel.SourceLocation(path: "x.md", line: 1, column: 1))
        #expect(parsed == nil)
        let found = diagnostics.all.first { $0.message.contains(u.message) }
        #expect(found != nil, "\(diagnostics.all.map(\.description))")
        #expect(found?.location?.line == u.line && found?.location?.column == u.column, "\(diagnostics.all.map(\.description))")
    }

    /// A loop whose condition another thread clears ends; the wait for it takes simulated time.
    @Test func aWhileLoopPollingAFlagEnds() throws {
        let text = """
            var done = false
            on applicationDidEnterBackground {
              let id = beginBackgroundTask(withName: "poll")
              DispatchQueue.global().async {
                work 3s
                done = true
              }
              DispatchQueue.global().async {
                while !done {
                  work 1s
                }
                endBackgroundTask(id)
              }
            }
            system budget 30s
            system grants beginBackgroundTask
            system expires tasks only when time runs out
            expect suspended
            """
        let (verdict, _) = check(example(text, .follows))
        let v = try #require(verdict)
        #expect(v.passed, "\(v.summary)")
    }

    struct Isolation: Sendable, CustomStringConvertible {
        var name: String
        var text: String
        /// The lane `print("here")` must run on.
        var lane: String
        var description: String { name }
    }

    static let isolations: [Isolation] = [
        Isolation(name: "Task in a UIKit delegate method", text: "on applicationDidEnterBackground {\n  Task {\n    print(\"here\")\n  }\n}", lane: "main"),
        Isolation(name: "Task in an app delegate method called from one", text: "func save() {\n  Task {\n    print(\"here\")\n  }\n}\non applicationDidEnterBackground {\n  save()\n}", lane: "main"),
        Isolation(name: "Task.detached", text: "on applicationDidEnterBackground {\n  Task.detached {\n    print(\"here\")\n  }\n}", lane: "global #1"),
        Isolation(name: "Task in a global queue's block", text: "on applicationDidEnterBackground {\n  DispatchQueue.global().async {\n    Task {\n      print(\"here\")\n    }\n  }\n}", lane: "global #2"),
        Isolation(name: "Task in a nonisolated method", text: "nonisolated func save() {\n  Task {\n    print(\"here\")\n  }\n}\non applicationDidEnterBackground {\n  save()\n}", lane: "global #1"),
        Isolation(name: "Task in a block on main", text: "on applicationDidEnterBackground {\n  DispatchQueue.global().async {\n    DispatchQueue.main.async {\n      Task {\n        print(\"here\")\n      }\n    }\n  }\n}", lane: "main"),
    ]

    /// `Task { }` keeps the isolation it starts in, as Swift decides it.
    @Test(arguments: isolations)
    func taskIsolation(_ c: Isolation) throws {
        let s = try #require(scenario(c.text + "\nsystem budget 30s\nexpect printed \"here\""))
        let explorer = Explorer(scenario: s)
        let trace = explorer.trace(Schedule(budget: 30, refusal: .none))
        let printed = trace.events.first { $0.kind == .step && $0.detail.contains("print(\"here\")") }
        #expect(printed?.lane == c.lane, "\(TimelineRenderer.render(trace))")
    }
}
