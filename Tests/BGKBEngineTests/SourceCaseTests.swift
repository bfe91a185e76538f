import BGKBEngine
import BGKBModel
import Testing

/// The cases the sources hand us must come out as the sources say, found by exploration.
@Suite struct SourceCaseTests {
    @Test(arguments: ScenarioSamples.all)
    func behavesAsItsIntentSays(_ sample: ScenarioSamples.Sample) throws {
        let (verdict, diagnostics) = check(sample.example)
        #expect(diagnostics.isEmpty, "\(diagnostics.all.map(\.description))")
        let v = try #require(verdict)
        #expect(v.passed, "\(sample.name): \(v.summary)\n\(v.counterexample.map(TimelineRenderer.render) ?? "")")
        #expect(v.schedulesExplored > 0)
    }

    private func explorer(_ sample: ScenarioSamples.Sample) throws -> Explorer {
        Explorer(scenario: try #require(scenario(sample.text)))
    }

    private func isCrash(_ trace: SimulationTrace, containing text: String) -> Bool {
        if case let .crashed(reason, _) = trace.outcome { return reason.contains(text) }
        return false
    }

    private func isTermination(_ trace: SimulationTrace, code: String, containing text: String = "") -> Bool {
        if case let .terminated(c, reason, _) = trace.outcome { return c == code && (text.isEmpty || reason.contains(text)) }
        return false
    }

    @Test func applesListingCrashesOnNilBetweenBeginAndStore() throws {
        let trace = try #require(try explorer(ScenarioSamples.applesListing).firstTrace { isCrash($0, containing: "nil") })
        // The handler read the variable after begin returned and before the queue stored it.
        let steps = trace.events.map(\.detail)
        let began = try #require(steps.firstIndex { $0.contains("returns identifier") })
        let crash = try #require(trace.events.lastIndex { $0.kind == .crash })
        #expect(began < crash)
        #expect(!steps[began..<crash].contains { $0.contains("(stores the value)") })
    }

    @Test func applesListingEndsAnIdentifierTwice() throws {
        let trace = try explorer(ScenarioSamples.applesListing).firstTrace { trace in
            trace.events.contains { $0.kind == .log && $0.detail.contains("no background task exists") }
        }
        #expect(trace != nil)
    }

    @Test func applesListingCalledTwiceLeaksATask() throws {
        let trace = try #require(try explorer(ScenarioSamples.applesListingTwice).firstTrace {
            isTermination($0, code: "0x8badf00d", containing: "leaked")
        })
        #expect(trace.events.filter { $0.kind == .taskBegan }.count == 2)
    }

    @Test func overwritingAnUnendedIdentifierIsKilledWhenTimeRunsOut() throws {
        let e = try explorer(ScenarioSamples.overwrite)
        let nominal = e.trace(e.nominalSchedule)
        #expect(isTermination(nominal, code: "0x8badf00d", containing: "task 1"))
        #expect(abs(nominal.outcome.time - 31) < 0.01)
    }

    @Test func twoTasksEndAtTheFirstTasksBudget() throws {
        let e = try explorer(ScenarioSamples.twoTasks)
        let nominal = e.trace(e.nominalSchedule)
        #expect(isTermination(nominal, code: "0x8badf00d", containing: "second"))
        #expect(abs(nominal.outcome.time - 31) < 0.01, "not 61 s: \(nominal.outcome)")
    }

    @Test func aForegroundTaskStartsItsClockInTheBackground() throws {
        let e = try explorer(ScenarioSamples.dormant)
        let nominal = e.trace(e.nominalSchedule)
        #expect(isTermination(nominal, code: "0x8badf00d"))
        #expect(abs(nominal.outcome.time - 40) < 0.01, "\(nominal.outcome)")
    }

    @Test func aTwoSecondHandlerIsKilledAfterOneSecond() throws {
        let e = try explorer(ScenarioSamples.slowHandler)
        let nominal = e.trace(e.nominalSchedule)
        #expect(isTermination(nominal, code: "0x8badf00d", containing: "expiration handler"))
        #expect(abs(nominal.outcome.time - 32) < 0.01, "\(nominal.outcome)")
    }

    @Test func theThousandAndFirstTaskCrashes() throws {
        let e = try explorer(ScenarioSamples.tooManyTasks)
        let nominal = e.trace(e.nominalSchedule)
        #expect(isTermination(nominal, code: "0xbada5e47"))
        #expect(nominal.events.filter { $0.kind == .taskBegan }.count == 1000)
    }

    @Test func branchingOnTimeRemainingBreaksUnderAShortBudget() throws {
        let e = try explorer(ScenarioSamples.branchOnRemaining)
        #expect(e.failure(e.nominalSchedule) == nil, "the nominal 30 s budget lets it upload")
        let result = e.explore(stopAtFirstFailure: true)
        let failure = try #require(result.failure)
        #expect(failure.schedule.budget < 30 || failure.schedule.forcedExpiry != nil || failure.schedule.refusal != .none)
    }

    @Test func registeringAfterLaunchCrashes() throws {
        let e = try explorer(ScenarioSamples.lateRegistration)
        #expect(isCrash(e.trace(e.nominalSchedule), containing: "NSInternalInconsistencyException"))
    }

    @Test func aRefreshTaskThatNeverCompletesIsKilled() throws {
        let e = try explorer(ScenarioSamples.refreshNeverCompleted)
        let nominal = e.trace(e.nominalSchedule)
        #expect(isTermination(nominal, code: "0x8badf00d", containing: "setTaskCompleted"))
        #expect(nominal.events.contains { $0.detail.contains("the system launches BGAppRefreshTask") })
    }

    @Test func legacyBackgroundSyncEndsTwiceUnderSomeInterleaving() throws {
        let e = try explorer(ScenarioSamples.legacyBackgroundSync)
        #expect(e.failure(e.nominalSchedule) == nil, "safe when nothing interleaves")
        let trace = try #require(e.firstTrace { trace in
            trace.events.contains { $0.kind == .log && $0.detail.contains("no background task exists") }
        })
        // The second end came from the other thread than the first.
        let ends = trace.events.filter { $0.detail.contains("UIApplication.shared.endBackgroundTask(backgroundTaskID)") }
        #expect(Set(ends.map(\.lane)).count == 2)
    }
}
