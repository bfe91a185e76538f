#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// CPU time, for `--timings`: the examples run on the same cores as the pages, so their share of
/// a step's wall time is the share of the CPU they took, not the wall time each rule's run
/// spanned (that also counts the moments another step's thread had the core).
enum CPUClock {
    /// The calling thread's CPU time.
    static var thread: Duration { read(CLOCK_THREAD_CPUTIME_ID) }
    /// The process's CPU time, every thread.
    static var process: Duration { read(CLOCK_PROCESS_CPUTIME_ID) }

    private static func read(_ clock: clockid_t) -> Duration {
        var time = timespec()
        clock_gettime(clock, &time)
        return .seconds(Int64(time.tv_sec)) + .nanoseconds(Int64(time.tv_nsec))
    }
}

/// A moment of the build on both clocks: what a stretch of it took in wall time and in CPU time.
struct BuildMark: Sendable {
    var wall: ContinuousClock.Instant
    var cpu: Duration

    static var now: BuildMark { BuildMark(wall: .now, cpu: CPUClock.process) }

    /// The share of the wall time from `self` to `end` that `engineCPU` of the CPU time in it
    /// accounts for (all of it when the stretch used no CPU).
    func share(of engineCPU: Duration, to end: BuildMark) -> Duration {
        let wall = end.wall - self.wall, cpu = end.cpu - self.cpu
        guard engineCPU > .zero else { return .zero }
        guard cpu > .zero else { return wall }
        return wall * min(1, Self.seconds(engineCPU) / Self.seconds(cpu))
    }

    static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
