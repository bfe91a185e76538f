import BGKBExamples
import BGKBModel

/// The generated site: every file by its path relative to the site's root, plus what each build
/// step produced and how long it took. Pure data: writing it to disk is `SiteWriter`'s job.
public struct SiteBuild: Sendable {
    /// Relative path (`rules/end-every-task.html`) → file contents (UTF-8 text).
    public var files: [String: String]
    /// Problems found while building (a related rule that does not exist, an example with no
    /// verdict). The site is still produced; the CLI decides whether they fail the build.
    public var diagnostics: Diagnostics
    /// One entry per named step, in the order they ran.
    public var steps: [StepReport]
    /// Files and bytes made; also set when the files went straight to disk and `files` is empty.
    public var fileCount: Int
    public var byteCount: Int
    /// The streaming build only: what running the examples reported, and the share of the rule
    /// pages' time the engine took (it ran inside that step).
    public var exampleDiagnostics = Diagnostics()
    public var examplesTime: Duration?
    /// The streaming build only: how many examples, schedules and simulated events ran.
    public var examplesWork = ExampleWork()
    /// The streaming build with a verdict cache only: the cache file's bytes
    /// (`VerdictCache.encodedRecords()`), encoded beside the last pages, where a core was free;
    /// the caller writes them (`VerdictCache.write`) once the site is in place.
    public var verdictCacheFile: [UInt8]?

    public init(files: [String: String] = [:], diagnostics: Diagnostics = Diagnostics(), steps: [StepReport] = []) {
        self.files = files
        self.diagnostics = diagnostics
        self.steps = steps
        fileCount = files.count
        byteCount = files.values.reduce(0) { $0 + $1.utf8.count }
    }

    /// Paths in byte order, so every listing of the site is the same on every machine.
    public var paths: [String] { files.keys.sorted() }

    public var totalBytes: Int { byteCount }
}

/// What one named step did: its name, the files it wrote and its wall-clock time.
public struct StepReport: Sendable, Hashable {
    public var name: String
    public var fileCount: Int
    public var duration: Duration
    /// Ran side by side with the other steps of its group (their durations overlap); the group's
    /// own report, which comes first, has the wall time.
    public var inGroup: Bool

    public init(name: String, fileCount: Int, duration: Duration, inGroup: Bool = false) {
        self.name = name
        self.fileCount = fileCount
        self.duration = duration
        self.inGroup = inGroup
    }
}
