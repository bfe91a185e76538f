/// The rules `bgkb scan` checks in an app's Swift code, one entry per kind of mistake it finds
/// (the scanner's "family"). The list lives in the model, not in the scanner, so that the site's
/// rule pages can say which rules the scan checks without depending on swift-syntax; the
/// scanner takes each family's rule from here, and a scan test asserts that its families and
/// this list agree and that every rule exists in Content.
public struct ScanCheck: Hashable, Sendable {
    /// The scanner's name for the mistake (`never-ended`), also accepted by `// bgkb:ignore`.
    public var family: String
    /// The id of the Content rule the mistake breaks.
    public var rule: String
    /// What the scan finds, as a phrase.
    public var finds: String

    public init(family: String, rule: String, finds: String) {
        self.family = family
        self.rule = rule
        self.finds = finds
    }
}

public enum ScanChecks {
    public static let all: [ScanCheck] = [
        ScanCheck(family: "never-ended", rule: "end-every-task-you-begin",
                  finds: "a background task begun and, on some path (an early return, a thrown error), never ended"),
        ScanCheck(family: "ended-twice", rule: "end-each-identifier-exactly-once",
                  finds: "an identifier ended twice, or ended after the expiration handler ended it"),
        ScanCheck(family: "identifier-race", rule: "listing-identifier-read-before-stored",
                  finds: "an identifier stored off the main thread while the expiration handler, on main, can read it"),
        ScanCheck(family: "overwritten-identifier", rule: "listing-second-call-overwrites-identifier",
                  finds: "a second begin storing over an identifier whose task is still running"),
        ScanCheck(family: "no-expiration-handler", rule: "every-task-needs-an-expiry-handler",
                  finds: "beginBackgroundTask with no expiration handler"),
        ScanCheck(family: "bgtask-not-completed", rule: "set-task-completed-on-every-path",
                  finds: "a BGTask launch handler with a path that never calls setTaskCompleted"),
        ScanCheck(family: "bgtask-no-expiration-handler", rule: "no-expiration-handler-marks-task-failed",
                  finds: "a launch handler that starts asynchronous work and never sets expirationHandler"),
        ScanCheck(family: "late-registration", rule: "register-launch-handlers-before-launch-ends",
                  finds: "a launch handler registered after launch has finished"),
        ScanCheck(family: "push-completion-skipped", rule: "call-fetch-completion-within-30-seconds",
                  finds: "a path of the background push callback that never calls its completion handler"),
        ScanCheck(family: "session-completion-not-called", rule: "store-background-session-completion-handler",
                  finds: "a background URLSession's completion handler never called"),
        ScanCheck(family: "session-completion-off-main", rule: "call-background-session-handler-on-main",
                  finds: "a background URLSession's completion handler called off the main thread"),
        ScanCheck(family: "session-completion-called-early", rule: "store-background-session-completion-handler",
                  finds: "a background URLSession's completion handler called before the session has delivered its events"),
        ScanCheck(family: "expiring-activity-returns-early", rule: "expiring-activity-ends-when-block-returns",
                  finds: "a performExpiringActivity block that returns before the work it started is done"),
    ]

    /// What the scan checks of one rule (usually one entry; none for most rules).
    public static func checks(ofRule id: String) -> [ScanCheck] { all.filter { $0.rule == id } }

    /// The rule a family breaks.
    public static func rule(ofFamily family: String) -> String? { all.first { $0.family == family }?.rule }
}
