import BGKBScan
import Foundation
import Testing

/// What the scan lowers into the engine beyond UIKit's callbacks: an expiring activity's block
/// (its work explored against the activity's end), an object's `init` and `deinit`, and a
/// background session's handler called before the session's events are delivered.
@Suite struct LoweringEntryTests {
    static func scan(_ text: String) -> ScanResult {
        Scanner.scan([SwiftSource(path: "App/Code.swift", text: text)])
    }

    /// An expiring activity whose block holds `body` (`expired` is the block's parameter).
    static func activity(_ body: String, extra: String = "") -> String {
        """
        import Foundation

        final class Saver {
            private let queue = DispatchQueue(label: "save")
            private var saved = false
        \(extra)
            func save() {
                ProcessInfo.processInfo.performExpiringActivity(withReason: "Save") { expired in
                    if expired { return }
        \(body)
                }
            }
        }
        """
    }

    struct Block: Sendable, CustomStringConvertible {
        var name: String
        var body: String
        var extra = ""
        var finds: Bool
        var description: String { name }
    }

    static let blocks: [Block] = [
        Block(name: "dispatches the work and returns", body: """
                    DispatchQueue.global().async { Store.write() }
        """, finds: true),
        Block(name: "starts a task and returns", body: """
                    Task.detached { await Store.upload() }
        """, finds: true),
        Block(name: "a request whose callback outlives the block", body: """
                    URLSession.shared.dataTask(with: Store.request) { _, _, _ in Store.markSent() }.resume()
        """, finds: true),
        Block(name: "a group's notify after the block returns", body: """
                    let group = DispatchGroup()
                    group.enter()
                    DispatchQueue.global().async { Store.write(); group.leave() }
                    group.notify(queue: .main) { Store.reload() }
        """, finds: true),
        Block(name: "waits on a semaphore the work signals", body: """
                    let done = DispatchSemaphore(value: 0)
                    DispatchQueue.global().async { Store.write(); done.signal() }
                    done.wait()
        """, finds: false),
        Block(name: "waits with a timeout", body: """
                    let done = DispatchSemaphore(value: 0)
                    URLSession.shared.dataTask(with: Store.request) { _, _, _ in done.signal() }.resume()
                    _ = done.wait(timeout: .now() + 20)
        """, finds: false),
        Block(name: "tests the timed wait's result", body: """
                    let done = DispatchSemaphore(value: 0)
                    queue.async { Store.write(); done.signal() }
                    if done.wait(timeout: .now() + .seconds(20)) == .timedOut { Store.cancel() }
        """, finds: false),
        Block(name: "waits on a group", body: """
                    let group = DispatchGroup()
                    for _ in 0..<2 {
                        group.enter()
                        DispatchQueue.global().async { defer { group.leave() }; Store.write() }
                    }
                    group.wait()
        """, finds: false),
        Block(name: "does the work in the block", body: """
                    Store.write()
                    Store.upload()
        """, finds: false),
        Block(name: "signals, then tidies up after", body: """
                    let done = DispatchSemaphore(value: 0)
                    DispatchQueue.global().async { Store.write(); done.signal(); Store.log() }
                    done.wait()
        """, finds: false),
        Block(name: "a property's semaphore", body: """
                    DispatchQueue.global().async { [self] in Store.write(); finished.signal() }
                    finished.wait()
        """, extra: "    private let finished = DispatchSemaphore(value: 0)", finds: false),
        Block(name: "operations the block waits for", body: """
                    operations.addOperation { Store.write() }
                    operations.waitUntilAllOperationsAreFinished()
        """, extra: "    private let operations = OperationQueue()", finds: false),
        Block(name: "operations left running", body: """
                    operations.addOperation { Store.write() }
        """, extra: "    private let operations = OperationQueue()", finds: true),
        Block(name: "a task the block waits for", body: """
                    let done = DispatchSemaphore(value: 0)
                    Task {
                        await Store.upload()
                        done.signal()
                    }
                    done.wait()
        """, finds: false),
        Block(name: "only a flag set on the queue afterwards", body: """
                    Store.write()
                    queue.async { self.saved = true }
        """, finds: false),
    ]

    @Test(arguments: blocks)
    func anActivityOutlivedByItsWorkIsFound(_ block: Block) throws {
        let result = Self.scan(Self.activity(block.body, extra: block.extra))
        #expect(result.problems.isEmpty, "\(result.problems)")
        let findings = result.findings.filter { $0.family == .expiringActivityReturnsEarly }
        #expect(findings.count == (block.finds ? 1 : 0), "\(findings.map(\.message))")
        #expect(result.findings.count == findings.count)
        guard let finding = findings.first else { return }
        // The performExpiringActivity call, found by exploring: the schedule replays, and the
        // timeline tells what happened without the scan's own variables.
        #expect(finding.place.line == 8)
        #expect(finding.schedule != nil)
        #expect(finding.basis == .engine)
        #expect(finding.timeline.contains { $0.contains("the expiring activity ends") }, "\(finding.timeline)")
        #expect(!finding.timeline.contains { $0.contains("scanActivity") })
        #expect(finding.timeline.contains { $0.contains("performExpiringActivity(withReason: \"Save\")") })
        #expect(finding.timeline.contains { $0.contains("is not done: it stands still while the app is suspended") })
    }

    struct Initializer: Sendable, CustomStringConvertible {
        var name: String
        var text: String
        /// The line of the expected finding, nil for silence.
        var line: Int?
        var family: Family?
        var description: String { name }
    }

    static let initializers: [Initializer] = [
        Initializer(name: "begun in init through a helper and never ended", text: """
            import UIKit
            final class Lease {
                private var taskID: UIBackgroundTaskIdentifier = .invalid
                init() {
                    acquire()
                }
                private func acquire() {
                    taskID = UIApplication.shared.beginBackgroundTask(withName: "Lease") {
                        print("expired")
                    }
                }
            }
            """, line: 8, family: .neverEnded),
        Initializer(name: "begun in init, ended in deinit", text: """
            import UIKit
            final class Lease {
                private let lock = NSLock()
                private var taskID: UIBackgroundTaskIdentifier = .invalid
                init() {
                    taskID = UIApplication.shared.beginBackgroundTask(withName: "Lease") { [weak self] in self?.end() }
                }
                deinit { end() }
                private func end() {
                    lock.lock()
                    defer { lock.unlock() }
                    guard taskID != .invalid else { return }
                    UIApplication.shared.endBackgroundTask(taskID)
                    taskID = .invalid
                }
            }
            """),
        Initializer(name: "begun in init without a handler", text: """
            import UIKit
            struct Scoped {
                let id: UIBackgroundTaskIdentifier
                init() {
                    id = UIApplication.shared.beginBackgroundTask(expirationHandler: nil)
                }
            }
            """, line: 5, family: .noExpirationHandler),
    ]

    @Test(arguments: initializers)
    func anInitializerIsAnEntryPoint(_ example: Initializer) {
        let result = Self.scan(example.text)
        #expect(result.problems.isEmpty, "\(result.problems)")
        #expect(result.findings.map(\.place.line) == (example.line.map { [$0] } ?? []), "\(result.findings.map(\.message))")
        #expect(result.findings.map(\.family) == (example.family.map { [$0] } ?? []))
        #expect(result.findings.allSatisfy { $0.schedule != nil })
    }

    /// The handler called in `handleEventsForBackgroundURLSession` itself, with and without the
    /// delegate's `urlSessionDidFinishEvents` in the file; kept and called from there, silence.
    @Test(arguments: [
        ("completionHandler()", "    func urlSessionDidFinishEvents(forBackgroundURLSession session: URLSession) { }", 6),
        ("completionHandler()", "", 6),
        ("saved = completionHandler", """
            func urlSessionDidFinishEvents(forBackgroundURLSession session: URLSession) {
                DispatchQueue.main.async { self.saved?(); self.saved = nil }
            }
        """, nil),
    ] as [(String, String, Int?)])
    func aSessionHandlerCalledAtOnceIsEarly(statement: String, finisher: String, line: Int?) throws {
        let text = """
            import UIKit
            final class AppDelegate: UIResponder, UIApplicationDelegate, URLSessionDelegate {
                var saved: (() -> Void)?
                func application(_ application: UIApplication, handleEventsForBackgroundURLSession identifier: String,
                                 completionHandler: @escaping () -> Void) {
                    \(statement)
                }
            \(finisher)
            }
            """
        let result = Self.scan(text)
        #expect(result.problems.isEmpty, "\(result.problems)")
        #expect(result.findings.map(\.place.line) == (line.map { [$0] } ?? []), "\(result.findings.map(\.message))")
        guard line != nil else { return }
        let finding = try #require(result.findings.first)
        #expect(finding.family == .sessionCompletionCalledEarly)
        #expect(finding.rule == "store-background-session-completion-handler")
        #expect(finding.timeline.contains { $0.contains("too early") }, "\(finding.timeline)")
    }
}

/// Code written for the scan by another hand (a helper type with two activities, an app delegate
/// that checks the session's identifier): what it found there, kept.
@Suite struct LoweringRegressionTests {
    /// Two activities in one type are checked apart: the one that waits cannot keep the app
    /// running for the other's work. `async(execute:)` hands over work the scan cannot see.
    @Test func eachActivityIsCheckedOnItsOwn() {
        let result = LoweringEntryTests.scan("""
            import Foundation
            enum BackgroundWork {
                static func protect(_ reason: String, operation: @escaping (@escaping () -> Void) -> Void) {
                    ProcessInfo.processInfo.performExpiringActivity(withReason: reason) { expired in
                        guard !expired else { return }
                        let gate = DispatchSemaphore(value: 0)
                        operation { gate.signal() }
                        gate.wait()
                    }
                }
                static func quick(_ reason: String, _ block: @escaping () -> Void) {
                    ProcessInfo.processInfo.performExpiringActivity(withReason: reason) { expired in
                        if !expired {
                            DispatchQueue.global(qos: .background).async(execute: block)
                        }
                    }
                }
            }
            """)
        #expect(result.problems.isEmpty, "\(result.problems)")
        #expect(result.findings.map(\.place.line) == [12])
        #expect(result.findings.map(\.family) == [.expiringActivityReturnsEarly])
    }

    /// `identifier == Type.identifier` is the app's own session (the harness's), and
    /// `Type.identifier` is not the object whose `urlSessionDidFinishEvents` calls the handler.
    @Test func theSessionIdentifierTestHoldsForTheAppsSession() {
        let result = LoweringEntryTests.scan("""
            import UIKit
            class AppDelegate: UIResponder, UIApplicationDelegate {
                func application(_ application: UIApplication, handleEventsForBackgroundURLSession identifier: String, completionHandler: @escaping () -> Void) {
                    if identifier == EpisodeDownloader.identifier {
                        EpisodeDownloader.shared.backgroundCompletion = completionHandler
                    } else {
                        completionHandler()
                    }
                }
            }
            final class EpisodeDownloader: NSObject, URLSessionDownloadDelegate {
                static let identifier = "com.example.pods.episodes"
                static let shared = EpisodeDownloader()
                var backgroundCompletion: (() -> Void)?
                func urlSessionDidFinishEvents(forBackgroundURLSession session: URLSession) {
                    DispatchQueue.main.async {
                        self.backgroundCompletion?()
                        self.backgroundCompletion = nil
                    }
                }
            }
            """)
        #expect(result.problems.isEmpty, "\(result.problems)")
        #expect(result.findings.isEmpty, "\(result.findings.map(\.message))")
    }
}
