import BGKBModel

/// The cases the sources hand us, as scenario text. Tests check that each comes out as the
/// sources say; the benchmark times them. Content carries its own examples; these are the
/// engine's fixed reference set.
public enum ScenarioSamples {
    public struct Sample: Sendable, Hashable, CustomStringConvertible {
        public var name: String
        public var intent: Example.Intent
        public var text: String
        public var description: String { name }

        public var example: Example {
            Example(rule: "sample", name: name, intent: intent, text: text,
                    location: SourceLocation(path: "samples/\(name).scenario", line: 1, column: 1))
        }
    }

    /// Apple's listing (seed 002): begin on a background queue, identifier in a shared Optional,
    /// force-unwrapped by both the queue and the expiry handler.
    public static let applesListing = Sample(name: "apples-listing", intent: .breaks, text: """
        var backgroundTaskID: UIBackgroundTaskIdentifier?

        func sendDataToServer() {
          DispatchQueue.global().async {
            backgroundTaskID = UIApplication.shared.beginBackgroundTask(withName: "Finish Network Tasks") {
              UIApplication.shared.endBackgroundTask(backgroundTaskID!)
              backgroundTaskID = UIBackgroundTaskInvalid
            }
            work 10s   // send the data synchronously
            UIApplication.shared.endBackgroundTask(backgroundTaskID!)
            backgroundTaskID = UIBackgroundTaskInvalid
          }
        }

        on applicationDidEnterBackground {
          sendDataToServer()
        }

        expect suspended
        """)

    /// The same listing called twice: the second identifier overwrites the first.
    public static let applesListingTwice = Sample(name: "apples-listing-called-twice", intent: .breaks, text: """
        var backgroundTaskID: UIBackgroundTaskIdentifier?

        func sendDataToServer() {
          DispatchQueue.global().async {
            backgroundTaskID = UIApplication.shared.beginBackgroundTask(withName: "Finish Network Tasks") {
              UIApplication.shared.endBackgroundTask(backgroundTaskID!)
              backgroundTaskID = UIBackgroundTaskInvalid
            }
            work 40s
            UIApplication.shared.endBackgroundTask(backgroundTaskID!)
            backgroundTaskID = UIBackgroundTaskInvalid
          }
        }

        on applicationDidEnterBackground {
          sendDataToServer()
          sendDataToServer()
        }

        expect suspended
        """)

    /// Apple's listing corrected: begin on main before handing work to a queue; every use of
    /// the identifier happens on main, so the handler and the normal path cannot interleave.
    public static let applesListingCorrected = Sample(name: "apples-listing-corrected", intent: .follows, text: """
        var backgroundTaskID: UIBackgroundTaskIdentifier = .invalid

        func sendDataToServer() {
          backgroundTaskID = beginBackgroundTask(withName: "Finish Network Tasks") {
            endTaskIfNeeded()
          }
          DispatchQueue.global().async {
            work 10s   // send the data synchronously
            DispatchQueue.main.async {
              endTaskIfNeeded()
            }
          }
        }

        // Only ever called on the main thread.
        func endTaskIfNeeded() {
          if backgroundTaskID != .invalid {
            endBackgroundTask(backgroundTaskID)
            backgroundTaskID = .invalid
          }
        }

        on applicationDidEnterBackground {
          sendDataToServer()
        }

        expect suspended
        """)

    /// Quinn's "number one cause": a second begin stored over an identifier not yet ended.
    public static let overwrite = Sample(name: "overwrite-unended-identifier", intent: .breaks, text: """
        var taskID: UIBackgroundTaskIdentifier = .invalid

        func startSaving() {
          taskID = beginBackgroundTask(withName: "Save") {
            endBackgroundTask(taskID)
            taskID = .invalid
          }
        }

        on applicationDidEnterBackground {
          startSaving()
          startSaving()   // the first identifier is lost
        }

        expect suspended
        """)

    /// Two tasks in a row share one budget: the second does not add 30 s.
    public static let twoTasks = Sample(name: "two-tasks-share-one-budget", intent: .follows, text: """
        system budget 30s
        system grants beginBackgroundTask
        system expires tasks only when time runs out

        on applicationDidEnterBackground {
          let first = beginBackgroundTask(withName: "first")
          DispatchQueue.global().async {
            work 25s
            let second = beginBackgroundTask(withName: "second")
            endBackgroundTask(first)
            work 25s
            endBackgroundTask(second)
          }
        }

        expect terminated 0x8badf00d around 31s
        """)

    /// A task begun while launching is dormant until the app enters the background at 10 s.
    public static let dormant = Sample(name: "foreground-task-is-dormant", intent: .follows, text: """
        system budget 30s
        system grants beginBackgroundTask
        system expires tasks only when time runs out
        at 0s: app launches
        at 10s: app enters background

        var taskID: UIBackgroundTaskIdentifier = .invalid

        on didFinishLaunching {
          taskID = beginBackgroundTask(withName: "never ended")
        }

        expect terminated 0x8badf00d around 40s
        """)

    /// An expiry handler that does 2 s of work.
    public static let slowHandler = Sample(name: "slow-expiry-handler", intent: .follows, text: """
        system grants beginBackgroundTask
        system expires tasks only when time runs out
        var taskID: UIBackgroundTaskIdentifier = .invalid

        on applicationDidEnterBackground {
          taskID = beginBackgroundTask(withName: "Upload") {
            work 2s   // saving state synchronously
            endBackgroundTask(taskID)
            taskID = .invalid
          }
          DispatchQueue.global().async {
            work 60s
          }
        }

        expect terminated 0x8badf00d
        """)

    /// 1,001 outstanding tasks.
    public static let tooManyTasks = Sample(name: "too-many-assertions", intent: .follows, text: """
        system budget 30s
        system grants beginBackgroundTask
        system expires tasks only when time runs out

        on applicationDidEnterBackground {
          for _ in 1...1001 {
            beginBackgroundTask(withName: "one more")
          }
        }

        expect terminated 0xbada5e47
        """)

    /// Deciding how much work to do from backgroundTimeRemaining.
    public static let branchOnRemaining = Sample(name: "branch-on-time-remaining", intent: .breaks, text: """
        var taskID: UIBackgroundTaskIdentifier = .invalid

        on applicationDidEnterBackground {
          taskID = beginBackgroundTask(withName: "Upload") {
            endBackgroundTask(taskID)
            taskID = .invalid
          }
          DispatchQueue.global().async {
            if UIApplication.shared.backgroundTimeRemaining > 20 {
              work 15s
              print("uploaded")
            }
            DispatchQueue.main.async {
              if taskID != .invalid {
                endBackgroundTask(taskID)
                taskID = .invalid
              }
            }
          }
        }

        expect printed "uploaded"
        """)

    /// Registering a BGTask launch handler once launching is over.
    public static let lateRegistration = Sample(name: "register-after-launch", intent: .follows, text: """
        on applicationDidEnterBackground {
          BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.refresh", using: nil) { task in
            task.setTaskCompleted(success: true)
          }
        }

        expect crash "All launch handlers must be registered before application finishes launching"
        """)

    /// A refresh task whose code never calls setTaskCompleted.
    public static let refreshNeverCompleted = Sample(name: "refresh-never-completed", intent: .follows, text: """
        system expires tasks only when time runs out
        Info.plist BGTaskSchedulerPermittedIdentifiers: ["com.example.refresh"]
        at 0s: app launches
        at 1s: app enters background
        at 2h: system launches "com.example.refresh"

        on didFinishLaunching {
          BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.refresh", using: nil) { task in
            task.expirationHandler = {
              print("cancelled")
            }
            work 60s
          }
        }

        on applicationDidEnterBackground {
          let request = BGAppRefreshTaskRequest(identifier: "com.example.refresh")
          try? BGTaskScheduler.shared.submit(request)
        }

        expect terminated 0x8badf00d around 7231s
        """)

    /// A refresh task done right: registered at launch, the work off the registration queue,
    /// completed on both paths.
    public static let refreshCompleted = Sample(name: "refresh-completed", intent: .follows, text: """
        Info.plist BGTaskSchedulerPermittedIdentifiers: ["com.example.refresh"]
        at 0s: app launches
        at 1s: app enters background
        at 2h: system launches "com.example.refresh"

        on didFinishLaunching {
          BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.refresh", using: nil) { task in
            task.expirationHandler = {
              task.setTaskCompleted(success: false)
            }
            DispatchQueue.global().async {
              work 10s
              task.setTaskCompleted(success: true)
            }
          }
        }

        on applicationDidEnterBackground {
          let request = BGAppRefreshTaskRequest(identifier: "com.example.refresh")
          try? BGTaskScheduler.shared.submit(request)
        }

        expect suspended
        """)

    /// The work runs on the serial queue given to register, so the expiration handler, queued
    /// on the same queue, cannot run until the work is done: too late.
    public static let refreshBlocksItsQueue = Sample(name: "refresh-blocks-its-queue", intent: .breaks, text: """
        at 0s: app launches
        at 1s: app enters background
        at 2h: system launches "com.example.refresh"

        let queue = DispatchQueue(label: "refresh")

        on didFinishLaunching {
          BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.refresh", using: queue) { task in
            task.expirationHandler = {
              task.setTaskCompleted(success: false)
            }
            work 10s
            task.setTaskCompleted(success: true)
          }
        }

        on applicationDidEnterBackground {
          let request = BGAppRefreshTaskRequest(identifier: "com.example.refresh")
          try? BGTaskScheduler.shared.submit(request)
        }

        expect suspended
        """)

    /// The blog's LegacyBackgroundSync: both paths end the task, guarded by `!= .invalid`, with
    /// nothing ordering the handler (main) against the Task (a global executor thread).
    public static let legacyBackgroundSync = Sample(name: "legacy-background-sync", intent: .breaks, text: """
        var backgroundTaskID: UIBackgroundTaskIdentifier = .invalid

        // A method of a plain class: its Task is not isolated to the main actor.
        nonisolated func syncInBackground() {
          backgroundTaskID = UIApplication.shared.beginBackgroundTask(withName: "DataSync") {
            self.endBackgroundTask()
          }
          Task {
            work 10s   // await performSync()
            endBackgroundTask()
          }
        }

        func endBackgroundTask() {
          if backgroundTaskID != .invalid {
            UIApplication.shared.endBackgroundTask(backgroundTaskID)
            backgroundTaskID = .invalid
          }
        }

        on applicationDidEnterBackground {
          syncInBackground()
        }

        expect suspended
        """)

    /// QRunInBackgroundAssertion's idea: one object begins in init and ends exactly once, from
    /// whichever path comes first, with every use of the identifier on main.
    public static let assertionObject = Sample(name: "assertion-object-ends-once", intent: .follows, text: """
        var assertionID: UIBackgroundTaskIdentifier = .invalid

        // init: begin at once, on main.
        func startAssertion() {
          assertionID = beginBackgroundTask(withName: "QRunInBackgroundAssertion") {
            endAssertion()
          }
        }

        // Ends exactly once: whichever path comes first finds the identifier, the other finds .invalid.
        func endAssertion() {
          if assertionID != .invalid {
            endBackgroundTask(assertionID)
            assertionID = .invalid
          }
        }

        on applicationDidEnterBackground {
          startAssertion()
          DispatchQueue.global().async {
            work 20s
            DispatchQueue.main.async {
              endAssertion()
            }
          }
        }

        expect suspended
        """)

    public static let all: [Sample] = [
        applesListing, applesListingTwice, applesListingCorrected, overwrite, twoTasks, dormant, slowHandler,
        tooManyTasks, branchOnRemaining, lateRegistration, refreshNeverCompleted, refreshCompleted, refreshBlocksItsQueue,
        legacyBackgroundSync, assertionObject,
    ]
}
