import BGKBModel

/// A trace event as the hot path records it: no strings, no allocation. `Trace.materialize`
/// turns it into a `TraceEvent` with words only for the runs someone will read.
struct RawEvent: Sendable, Hashable {
    var time: Double
    var lane: Int32
    var note: Note
}

enum AppState: String, Sendable {
    case notRunning = "not running"
    case launching, foreground, background, suspended, terminated
}

/// Why the system killed the app or the app crashed.
enum Reason: Sendable, Hashable {
    case leakedTask(task: Int32)
    case expiryHandlerTooSlow(task: Int32)
    case expiryHandlersBlocked
    case didEnterBackgroundTooSlow
    case tooManyAssertions
    case forceUnwrapNil(variable: Int32)
    case registerAfterLaunch(identifier: Int32)
    case registerTwice(identifier: Int32)
    case noLaunchHandler(identifier: Int32)
    case bgTaskNotCompleted(task: Int32)
    case pushNotCompleted
    case mainSyncOnMain
    case unbalancedGroupLeave
    /// An expiring activity still held its task assertion when its `expired == true` call's time
    /// was up (`SystemConstants.expiredActivityReturnLimit`).
    case expiredActivityHeld(activity: Int32)

    /// Every code `code` gives: an expectation of any other can never hold.
    static let terminationCodes = ["0x8badf00d", "0xbada5e47"]

    var code: String? {
        switch self {
        case .leakedTask, .expiryHandlerTooSlow, .expiryHandlersBlocked, .didEnterBackgroundTooSlow,
             .bgTaskNotCompleted, .pushNotCompleted, .expiredActivityHeld:
            return "0x8badf00d"
        case .tooManyAssertions: return "0xbada5e47"
        default: return nil
        }
    }
}

enum Note: Sendable, Hashable {
    case state(AppState)
    case step(statement: Int32, phase: UInt8)
    case began(task: Int32)
    case refused(invalid: Bool)
    /// A begin the schedule grants when the background time is already up: the task is made and
    /// called in at once.
    case grantedAfterTimeIsUp(task: Int32)
    case ended(task: Int32)
    case expiry(task: Int32)
    case handlerStarted(task: Int32)
    case warningEndUnknown(identifier: Int32)
    case terminated(Reason)
    case crashed(Reason)
    case registered(identifier: Int32, permitted: Bool)
    case submitted(request: Int32)
    case submitFailed(request: Int32, error: SubmitError)
    case bgLaunched(task: Int32)
    case bgNotLaunched(identifier: Int32, why: NotLaunched)
    case bgExpiry(task: Int32, hasHandler: Bool)
    case bgCompleted(task: Int32, success: Bool)
    case pushArrived(push: Int32)
    case pushCompleted(push: Int32)
    case activityStarted(activity: Int32, expired: Bool)
    case activityEnded(activity: Int32)
    /// `performExpiringActivity` could not take a task assertion: the block is told at once that
    /// it expired, and nothing keeps the app running for it.
    case activityRefused(activity: Int32)
    case forcedExpiry
    /// Dispatch objects, Swift tasks, URLSession and continued processing (Machine+Dispatch.swift).
    case objects(ObjectNote)
    /// A timeline event that cannot apply in the app's state when it comes: it does nothing.
    case timelineSkipped(item: Int32, state: AppState)
    /// The simulator stopped the run at one of its own limits (`Machine.giveUp`).
    case undecided(EngineLimit)

    /// Logged by iOS: counts as a warning the scenario must expect.
    var isWarning: Bool {
        switch self {
        case .warningEndUnknown, .submitFailed: return true
        case let .objects(note): return note.isWarning
        case let .registered(_, permitted): return !permitted
        default: return false
        }
    }
}

enum SubmitError: String, Sendable {
    case unavailable, tooManyPendingTaskRequests, notPermitted, immediateRunIneligible
}

enum NotLaunched: String, Sendable {
    case noPendingRequest = "no request for it is pending"
    case tooEarly = "its earliestBeginDate has not come"
    case needsPower = "it requires external power"
    case needsNetwork = "it requires network connectivity"
    case inForeground = "the app is in the foreground"
    case terminated = "the app was terminated"
    case forceQuit = "the user force quit the app and has not opened it since"
}
