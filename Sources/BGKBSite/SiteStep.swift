import BGKBModel

/// One named step of the build: it reads the shared context and returns the files it made.
/// Steps do not see each other's output, so they can be tested (and timed) one at a time.
public struct SiteStep: Sendable {
    public var name: String
    /// Shows facts from the examples' verdicts: when the rule pages run the examples, it must
    /// wait for them (the others are made while the rule pages are).
    var readsVerdicts: Bool
    /// Returns the files it made, or hands them to the sink as it makes them (rule pages).
    var run: @Sendable (SiteContext, SiteSink) -> StepOutput

    init(_ name: String, readsVerdicts: Bool = false, _ run: @escaping @Sendable (SiteContext) -> StepOutput) {
        self.name = name
        self.readsVerdicts = readsVerdicts
        self.run = { context, _ in run(context) }
    }

    init(_ name: String, readsVerdicts: Bool = false, streaming run: @escaping @Sendable (SiteContext, SiteSink) -> StepOutput) {
        self.name = name
        self.readsVerdicts = readsVerdicts
        self.run = run
    }
}

/// The files a step made and the problems it noticed.
struct StepOutput: Sendable {
    var files: [String: String] = [:]
    var diagnostics = Diagnostics()
    /// How many files the step already handed to the sink itself.
    var streamedCount = 0

    init(files: [String: String] = [:], diagnostics: Diagnostics = Diagnostics()) {
        self.files = files
        self.diagnostics = diagnostics
    }

    init(_ path: String, _ contents: String) {
        self.files = [path: contents]
    }

    /// Counts a file the step handed to the sink itself; `new` is what the sink answered (false:
    /// an earlier step wrote the same path), reported as `SiteBuilder` reports its duplicates.
    mutating func streamed(_ path: String, new: Bool) {
        streamedCount += 1
        if !new { diagnostics.error(Self.duplicateCode, Self.duplicateMessage(path), at: nil) }
    }

    static let duplicateCode = "site-duplicate-path"
    static func duplicateMessage(_ path: String) -> String { "two build steps wrote \(path)" }
}
