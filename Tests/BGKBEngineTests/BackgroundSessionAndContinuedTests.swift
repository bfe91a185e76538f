import BGKBEngine
import BGKBModel
import Testing

/// Background URLSession (S18) and continued processing (S19): each scenario is explored as a
/// `follows` or `breaks` example, so a pass means the explorer found (or ruled out) the failure.
@Suite struct BackgroundSessionAndContinuedTests {
    struct Case: Sendable, CustomStringConvertible {
        var name: String
        var text: String
        var intent: Example.Intent
        /// Text the verdict's failing run (for `breaks`) must show, in an event or its failure.
        var shows: String?
        var description: String { name }
    }

    static let session = """
        var savedHandler: (() -> Void)?
        let session = URLSession(configuration: .background(withIdentifier: "com.example.bg"), delegate: self, delegateQueue: nil)

        on applicationDidEnterBackground {
          session.downloadTask(with: url).resume()
        }
        on handleEventsForBackgroundURLSession {
          savedHandler = completionHandler
        }

        """

    static let continued = """
        Info.plist BGTaskSchedulerPermittedIdentifiers: ["com.example.export.*"]

        func export() {
          BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.export.*", using: nil) { task in
            task.expirationHandler = {
              task.setTaskCompleted(success: false)
            }
            task.progress.totalUnitCount = 10
            for _ in 1...10 {
              work 5s
              task.progress.completedUnitCount += 1
            }
            task.setTaskCompleted(success: true)
          }
          let request = BGContinuedProcessingTaskRequest(identifier: "com.example.export.1", title: "Exporting", subtitle: "Photos")

        """

    static let cases: [Case] = [
        Case(name: "completion handler stored, then called on main after the events", text: session + """
            on urlSessionDidFinishEvents {
              DispatchQueue.main.async {
                savedHandler?()
                savedHandler = nil
              }
            }
            at 0s: app launches
            at 1s: app enters background
            at 60s: background URLSession "com.example.bg" finishes
            expect completion handler called
            expect suspended
            """, intent: .follows),
        Case(name: "the app is relaunched for its session's events", text: session + """
            on urlSessionDidFinishEvents {
              DispatchQueue.main.async {
                savedHandler?()
              }
            }
            at 0s: app launches
            at 1s: app enters background
            at 30s: system terminates app
            at 60s: background URLSession "com.example.bg" finishes
            expect completion handler called
            expect log "handleEventsForBackgroundURLSession"
            """, intent: .follows),
        Case(name: "calling the handler from the delegate queue is off main", text: session + """
            on urlSessionDidFinishEvents {
              savedHandler?()
            }
            at 0s: app launches
            at 1s: app enters background
            at 60s: background URLSession "com.example.bg" finishes
            expect completion handler called
            """, intent: .breaks, shows: "off the main thread"),
        Case(name: "calling the handler at once, before the events are delivered, is too early", text: """
            let session = URLSession(configuration: .background(withIdentifier: "com.example.bg"), delegate: self, delegateQueue: nil)
            on applicationDidEnterBackground {
              session.downloadTask(with: url).resume()
            }
            on handleEventsForBackgroundURLSession {
              completionHandler()
            }
            on urlSessionDidFinishEvents {
              print("processed")
            }
            at 0s: app launches
            at 1s: app enters background
            at 60s: background URLSession "com.example.bg" finishes
            expect completion handler called
            """, intent: .breaks, shows: "called before the session delivered its events"),
        Case(name: "called at once, the handler lets the system suspend the app before the delegate runs", text: """
            let session = URLSession(configuration: .background(withIdentifier: "com.example.bg"), delegate: self, delegateQueue: nil)
            on applicationDidEnterBackground {
              session.downloadTask(with: url).resume()
            }
            on handleEventsForBackgroundURLSession {
              completionHandler()
            }
            on urlSessionDidFinishEvents {
              work 1s
              print("processed")
            }
            at 0s: app launches
            at 1s: app enters background
            at 60s: background URLSession "com.example.bg" finishes
            expect printed "processed"
            """, intent: .breaks, shows: "too early"),
        Case(name: "without urlSessionDidFinishEvents, a handler called inside handleEventsForBackgroundURLSession is still early", text: """
            let session = URLSession(configuration: .background(withIdentifier: "com.example.bg"), delegate: self, delegateQueue: nil)
            on applicationDidEnterBackground {
              session.downloadTask(with: url).resume()
            }
            on handleEventsForBackgroundURLSession {
              completionHandler()
            }
            at 0s: app launches
            at 1s: app enters background
            at 60s: background URLSession "com.example.bg" finishes
            expect completion handler called
            """, intent: .breaks, shows: "called before the session delivered its events"),
        Case(name: "a handler never called is logged when its time is up", text: session + """
            at 0s: app launches
            at 1s: app enters background
            at 60s: background URLSession "com.example.bg" finishes
            expect suspended
            """, intent: .breaks, shows: "the completion handler was never called"),
        Case(name: "the transfer goes on while the app is suspended", text: session + """
            on urlSessionDidFinishEvents {
              DispatchQueue.main.async {
                savedHandler?()
              }
            }
            at 0s: app launches
            at 1s: app enters background
            at 60s: background URLSession "com.example.bg" finishes
            expect suspended around 60s
            expect log "carries it on outside the app"
            """, intent: .follows),
        Case(name: "an upload from Data fails when the app is no longer running", text: """
            let session = URLSession(configuration: .background(withIdentifier: "com.example.bg"), delegate: self, delegateQueue: nil)
            on applicationDidEnterBackground {
              session.uploadTask(with: request, from: data).resume()
            }
            at 0s: app launches
            at 1s: app enters background
            at 60s: background URLSession "com.example.bg" finishes
            expect suspended
            """, intent: .breaks, shows: "carries on only uploads from a file"),
        Case(name: "a force quit cancels the session's transfers", text: session + """
            at 0s: app launches
            at 1s: app enters background
            at 10s: user force quits app
            at 60s: background URLSession "com.example.bg" finishes
            expect log "cancels the session's transfers"
            expect log "nothing finishes"
            expect suspended
            """, intent: .follows),
        Case(name: "after a force quit the app is not relaunched for its session", text: session + """
            on urlSessionDidFinishEvents {
              DispatchQueue.main.async {
                savedHandler?()
              }
            }
            at 0s: app launches
            at 1s: app enters background
            at 10s: user force quits app
            at 60s: background URLSession "com.example.bg" finishes
            expect completion handler called
            """, intent: .breaks, shows: "never called it"),
        Case(name: "a force quit drops a queued continued request", text: continued + """
              try? BGTaskScheduler.shared.submit(request)
            }
            system cannot run continued processing now
            at 0s: app launches
            at 2s: export()
            at 5s: app enters background
            at 10s: user force quits app
            at 20s: system launches "com.example.export.1"
            expect log "force quit"
            expect suspended
            """, intent: .follows),
        Case(name: "no refresh launch after a force quit until the user opens the app", text: """
            Info.plist BGTaskSchedulerPermittedIdentifiers: ["com.example.refresh"]
            on didFinishLaunching {
              BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.refresh", using: nil) { task in
                print("refreshed")
                task.setTaskCompleted(success: true)
              }
            }
            on applicationDidEnterBackground {
              try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.refresh"))
            }
            at 0s: app launches
            at 1s: app enters background
            at 10s: user force quits app
            at 1h: system launches "com.example.refresh"
            expect printed "refreshed"
            """, intent: .breaks, shows: "force quit the app"),
        Case(name: "continued processing submitted in the foreground reports progress and completes", text: continued + """
              try? BGTaskScheduler.shared.submit(request)
            }
            system runs continued processing now
            system expires tasks only when time runs out
            at 0s: app launches
            at 2s: export()
            at 10s: app enters background
            expect task completed
            """, intent: .follows),
        Case(name: "the system may not be able to run the task now (explored)", text: continued + """
              try? BGTaskScheduler.shared.submit(request)
            }
            system expires tasks only when time runs out
            at 0s: app launches
            at 2s: export()
            at 10s: app enters background
            expect task completed
            """, intent: .breaks, shows: "queued"),
        Case(name: ".fail answers immediateRunIneligible", text: continued + """
              request.strategy = .fail
              try? BGTaskScheduler.shared.submit(request)
            }
            system cannot run continued processing now
            at 0s: app launches
            at 2s: export()
            at 60s: app enters background
            expect warning "immediateRunIneligible"
            """, intent: .follows),
        Case(name: "a queued request starts when the system launches it", text: continued + """
              try? BGTaskScheduler.shared.submit(request)
            }
            system cannot run continued processing now
            system expires tasks only when time runs out
            at 0s: app launches
            at 2s: export()
            at 20s: system launches "com.example.export.1"
            expect task completed
            """, intent: .follows),
        Case(name: "a request submitted from the background fails", text: continued + """
              try? BGTaskScheduler.shared.submit(request)
            }
            on applicationDidEnterBackground {
              export()
            }
            system runs continued processing now
            expect task completed
            """, intent: .breaks, shows: "accepted only from the foreground"),
        Case(name: "a task that reports no progress is ended", text: """
            Info.plist BGTaskSchedulerPermittedIdentifiers: ["com.example.export.*"]
            func export() {
              BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.export.*", using: nil) { task in
                work 60s
                task.setTaskCompleted(success: true)
              }
              try? BGTaskScheduler.shared.submit(BGContinuedProcessingTaskRequest(identifier: "com.example.export.7", title: "Export", subtitle: ""))
            }
            system runs continued processing now
            system expires tasks only when time runs out
            at 0s: app launches
            at 2s: export()
            at 10s: app enters background
            expect task completed
            """, intent: .breaks, shows: "reported no progress"),
        Case(name: "an identifier outside the permitted pattern is refused", text: """
            Info.plist BGTaskSchedulerPermittedIdentifiers: ["com.example.export.*"]
            func export() {
              try? BGTaskScheduler.shared.submit(BGContinuedProcessingTaskRequest(identifier: "com.example.import.1", title: "Import", subtitle: ""))
            }
            system runs continued processing now
            at 0s: app launches
            at 2s: export()
            at 60s: app enters background
            expect suspended
            """, intent: .breaks, shows: "notPermitted"),
    ]

    @Test(arguments: cases)
    func verdict(_ c: Case) throws {
        let (verdict, diagnostics) = check(example(c.text, c.intent))
        let v = try #require(verdict, "\(diagnostics.all.map(\.description))")
        let failure = v.counterexample.map { TimelineRenderer.render($0) } ?? ""
        #expect(v.passed, "\(v.summary)\n\(failure)")
        if let shows = c.shows, let trace = v.counterexample {
            #expect(trace.events.contains { $0.detail.contains(shows) } || failure.contains(shows) || v.summary.contains(shows), "\(v.summary)\n\(failure)")
        }
    }
}

/// A trace names the kind of request submitted: a continued processing request is not shown as
/// an app refresh request.
@Suite struct SubmittedRequestKindTests {
    @Test(arguments: [
        ("BGContinuedProcessingTaskRequest(identifier: \"com.example.export.7\", title: \"Export\", subtitle: \"\")",
         "submit(BGContinuedProcessingTaskRequest \"com.example.export.7\")"),
        ("BGAppRefreshTaskRequest(identifier: \"com.example.refresh\")", "submit(BGAppRefreshTaskRequest \"com.example.refresh\")"),
    ])
    func theSubmitNamesItsRequestKind(_ request: String, _ shown: String) throws {
        let text = """
            Info.plist BGTaskSchedulerPermittedIdentifiers: ["com.example.export.*", "com.example.refresh"]

            on didFinishLaunching {
              BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.export.*", using: nil) { task in
                task.setTaskCompleted(success: true)
              }
              BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.refresh", using: nil) { task in
                task.setTaskCompleted(success: true)
              }
            }
            func submit() {
              try? BGTaskScheduler.shared.submit(\(request))
            }
            at 0s: app launches
            at 0.5s: submit()
            at 1s: app enters background
            expect suspended
            """
        let scenario = try #require(ScenarioParser.parse(text, at: SourceLocation(path: "t.md", line: 1, column: 1)).0)
        let trace = Explorer(scenario: scenario).trace(Explorer(scenario: scenario).nominalSchedule)
        #expect(trace.events.contains { $0.detail == shown }, "\(trace.events.map(\.detail))")
    }
}
