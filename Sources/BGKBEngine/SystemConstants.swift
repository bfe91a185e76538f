/// Every number the simulator uses, in one table. A run takes a value of this type, so the
/// explorer (and a reader who doubts a number) can vary any of them; nothing else in the engine
/// hard-codes a duration or a limit.
///
/// | constant | default | unit | firmness | source |
/// |---|---|---|---|---|
/// | `backgroundTaskBudget` | 30 | s | about, not guaranteed, depends on system state | 85066 (Quinn) |
/// | `expiryHandlerLimit` | 1 | s | about ("well under a second") | 85066; Apple doc |
/// | `expiryHandlersTotalLimit` | 5 | s | vague ("a few seconds") | 85066 |
/// | `didEnterBackgroundLimit` | 5 | s | about | Apple doc (applicationDidEnterBackground) |
/// | `assertionLimit` | 1000 | count | about | 85066 (0xbada5e47) |
/// | `refreshTaskBudget` | 30 | s | about | Apple doc ("Choosing background strategies") |
/// | `processingTaskBudget` | 300 | s | vague ("minutes"; WWDC notes "several minutes") | BGTask.h; secondary |
/// | `bgTaskCompletionGrace` | 1 | s | guess: the doc only says "before time runs out" | Apple doc (BGTask.h), value assumed |
/// | `pushCompletionLimit` | 30 | s | about ("up to 30 seconds of wall-clock time") | Apple doc |
/// | `pendingRefreshLimit` | 1 | count | exact | Apple doc (submit(_:)) |
/// | `pendingProcessingLimit` | 10 | count | exact | Apple doc (submit(_:)) |
/// | `urlSessionEventsLimit` | 30 | s | assumption: no source gives the time to call handleEventsForBackgroundURLSession's completion handler | ours, labelled as an assumption |
/// | `continuedProgressLimit` | 30 | s | assumption: the sources say a task reporting no progress may be expired, without a number | iOS 26 BGTask.h; WWDC25 227 (no number) |
/// | `expiredActivityReturnLimit` | 1 | s | assumption: the sources say only that a `performExpiringActivity` block called with `expired == true` must stop its work "as quickly as possible"; the second of UIKit's expiry handlers is taken for it, and so is the consequence of holding the task assertion past it (0x8badf00d, as for a UIKit task ended too late) | Apple doc (performExpiringActivity(withReason:using:); NSProcessInfo.h); 85066 by analogy; ours, labelled as an assumption |
/// | `suspendedBackgroundTimeRemaining` | 1.8e308 | s | exact: `DBL_MAX` in the foreground | observed |
///
/// The codes: `0x8badf00d` (watchdog: leaked task, slow expiry handler, blocked main thread,
/// didEnterBackground overrun, BGTask or push not completed in time) is Apple's ("Addressing
/// watchdog terminations"); `0xbada5e47` (too many assertions) is from 85066 only. Using
/// 0x8badf00d for an uncompleted push is our assumption: the doc says only "terminated".
public struct SystemConstants: Hashable, Sendable, Codable {
    public var backgroundTaskBudget: Double
    public var expiryHandlerLimit: Double
    public var expiryHandlersTotalLimit: Double
    public var didEnterBackgroundLimit: Double
    public var assertionLimit: Int
    public var refreshTaskBudget: Double
    public var processingTaskBudget: Double
    public var bgTaskCompletionGrace: Double
    public var pushCompletionLimit: Double
    public var pendingRefreshLimit: Int
    public var pendingProcessingLimit: Int
    public var urlSessionEventsLimit: Double
    public var continuedProgressLimit: Double
    /// How long a `performExpiringActivity` block called with `expired == true` (after it was
    /// granted time) has to return before the app is killed for holding its task assertion past
    /// its time. An assumption in value and in consequence: no source gives either (see the table).
    public var expiredActivityReturnLimit: Double

    public init(
        backgroundTaskBudget: Double = 30, expiryHandlerLimit: Double = 1, expiryHandlersTotalLimit: Double = 5,
        didEnterBackgroundLimit: Double = 5, assertionLimit: Int = 1000, refreshTaskBudget: Double = 30,
        processingTaskBudget: Double = 300, bgTaskCompletionGrace: Double = 1, pushCompletionLimit: Double = 30,
        pendingRefreshLimit: Int = 1, pendingProcessingLimit: Int = 10,
        urlSessionEventsLimit: Double = 30, continuedProgressLimit: Double = 30, expiredActivityReturnLimit: Double = 1
    ) {
        self.backgroundTaskBudget = backgroundTaskBudget
        self.expiryHandlerLimit = expiryHandlerLimit
        self.expiryHandlersTotalLimit = expiryHandlersTotalLimit
        self.didEnterBackgroundLimit = didEnterBackgroundLimit
        self.assertionLimit = assertionLimit
        self.refreshTaskBudget = refreshTaskBudget
        self.processingTaskBudget = processingTaskBudget
        self.bgTaskCompletionGrace = bgTaskCompletionGrace
        self.pushCompletionLimit = pushCompletionLimit
        self.pendingRefreshLimit = pendingRefreshLimit
        self.pendingProcessingLimit = pendingProcessingLimit
        self.urlSessionEventsLimit = urlSessionEventsLimit
        self.continuedProgressLimit = continuedProgressLimit
        self.expiredActivityReturnLimit = expiredActivityReturnLimit
    }

    /// The values the sources give (see the table above).
    public static let standard = SystemConstants()

    /// One row of the table, for `bgkb` and the site to print.
    public struct Row: Hashable, Sendable, Codable {
        public var name: String
        public var value: Double
        public var unit: String
        public var firmness: String
        public var source: String
    }

    /// The table as data, in the order of the doc comment.
    public var table: [Row] {
        [
            Row(name: "background task budget", value: backgroundTaskBudget, unit: "s", firmness: "about, not guaranteed", source: "85066"),
            Row(name: "expiry handler limit (each)", value: expiryHandlerLimit, unit: "s", firmness: "about", source: "85066; Apple doc"),
            Row(name: "expiry handlers total", value: expiryHandlersTotalLimit, unit: "s", firmness: "vague (a few seconds)", source: "85066"),
            Row(name: "applicationDidEnterBackground window", value: didEnterBackgroundLimit, unit: "s", firmness: "about", source: "Apple doc"),
            Row(name: "outstanding assertions", value: Double(assertionLimit), unit: "count", firmness: "about", source: "85066"),
            Row(name: "BGAppRefreshTask budget", value: refreshTaskBudget, unit: "s", firmness: "about", source: "Apple doc"),
            Row(name: "BGProcessingTask budget", value: processingTaskBudget, unit: "s", firmness: "vague (minutes)", source: "BGTask.h; WWDC notes (secondary)"),
            Row(name: "BGTask completion grace after expiry", value: bgTaskCompletionGrace, unit: "s", firmness: "guess", source: "BGTask.h (no number given)"),
            Row(name: "background push completion", value: pushCompletionLimit, unit: "s", firmness: "about", source: "Apple doc"),
            Row(name: "pending refresh requests", value: Double(pendingRefreshLimit), unit: "count", firmness: "exact", source: "Apple doc"),
            Row(name: "pending processing requests", value: Double(pendingProcessingLimit), unit: "count", firmness: "exact", source: "Apple doc"),
            Row(name: "background URLSession completion handler", value: urlSessionEventsLimit, unit: "s", firmness: "assumption (no source gives a number)", source: "ours; URLSession docs give no limit"),
            Row(name: "continued processing without progress", value: continuedProgressLimit, unit: "s", firmness: "assumption (no source gives a number)", source: "iOS 26 BGTask.h; WWDC25 227 (no number)"),
            Row(name: "expired performExpiringActivity block must return", value: expiredActivityReturnLimit, unit: "s", firmness: "assumption (no source gives a number or a consequence)", source: "ours; Apple doc says only \"as quickly as possible\""),
        ]
    }
}
