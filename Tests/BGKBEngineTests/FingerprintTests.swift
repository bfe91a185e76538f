@testable import BGKBEngine
import BGKBModel
import Testing

/// The state cache's fingerprint (`Machine.fingerprint`) is the project's stable hash of the
/// state, so it is the same in every process: a state's key, and so which runs the cache leaves
/// and how many schedules a verdict counts, cannot change from one run of `bgkb` to the next.
@Suite struct FingerprintTests {
    /// A sample's machine paused before its decision `pause` (counting from 0) of the default
    /// schedule, as the explorer pauses a run before looking its state up.
    static func paused(_ sample: ScenarioSamples.Sample, at pause: Int) throws -> Machine {
        var machine = Machine(scenario: try #require(scenario(sample.text)), constants: .standard)
        machine.reset(Schedule(budget: 30))
        let paused = machine.proceed(pausingAt: pause)
        #expect(paused, "\(sample.name) has no decision \(pause)")
        return machine
    }

    /// Values written down once: a fingerprint that moves with the process (a seeded hash) or
    /// with a change to what it hashes fails here. A deliberate change to the state or to the
    /// hashing updates them.
    @Test(arguments: [
        (ScenarioSamples.applesListing, 1, "40e5662307bfa231", "722fecece349711e"),
        (ScenarioSamples.applesListingTwice, 2, "592bc61f1451bce6", "8349cf692eb77a8f"),
        (ScenarioSamples.legacyBackgroundSync, 0, "15e60a6457cd361a", "5bc1ae82e3be62fe"),
    ])
    func aPausedStatesFingerprintIsPinned(sample: ScenarioSamples.Sample, pause: Int, state: String, events: String) throws {
        var machine = try Self.paused(sample, at: pause)
        let fingerprint = machine.fingerprint()
        #expect(Self.hex(fingerprint.state) == state)
        #expect(Self.hex(fingerprint.eventsAgain) == events)
        // The same state reached again, in a machine of its own, has the same key.
        var again = try Self.paused(sample, at: pause)
        #expect(again.fingerprint() == fingerprint)
    }

    static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// Every stored field of each part of the state changes its hash: `fields` names one change
    /// per field, and the part's fields (by reflection) must be exactly those names, so a field
    /// added to a part and not hashed fails here.
    static func expectEveryFieldHashed<T: StateHashable>(_ base: T, _ fields: [String: (inout T) -> Void],
                                                        sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        let labels = Set(Mirror(reflecting: base).children.compactMap(\.label))
        #expect(labels == Set(fields.keys), "\(T.self): fields \(labels.sorted()), changes for \(fields.keys.sorted())", sourceLocation: sourceLocation)
        var plain = StableHash()
        plain.combine(base)
        for (name, change) in fields {
            var changed = base
            change(&changed)
            var hash = StableHash()
            hash.combine(changed)
            #expect(hash.value != plain.value, "\(T.self).\(name) is not hashed", sourceLocation: sourceLocation)
        }
    }

    @Test func everyFieldOfEveryPartIsHashed() {
        typealias M = Machine
        let captures = M.Captures(start: 1, count: 2)
        Self.expectEveryFieldHashed(captures, ["start": { $0.start += 1 }, "count": { $0.count += 1 }])
        Self.expectEveryFieldHashed(M.WorkItem(block: 1, captured: captures, parameter: .none, context: .plain), [
            "block": { $0.block += 1 }, "captured": { $0.captured.count += 1 }, "parameter": { $0.parameter = .int(1) },
            "context": { $0.context = .call },
        ])
        let frame = M.Frame(block: 1, origin: 2, context: .plain, boundary: false)
        Self.expectEveryFieldHashed(frame, [
            "block": { $0.block += 1 }, "pc": { $0.pc += 1 }, "phase": { $0.phase += 1 }, "origin": { $0.origin += 1 },
            "loopsLeft": { $0.loopsLeft += 1 }, "context": { $0.context = .branch }, "boundary": { $0.boundary.toggle() },
        ])
        Self.expectEveryFieldHashed(M.Thread(lane: 1), [
            "lane": { $0.lane += 1 }, "pending": { $0.pending.append(M.WorkItem(block: 1, captured: .none, parameter: .none, context: .plain)) },
            "pendingHead": { $0.pendingHead += 1 }, "frames": { $0.frames.append(frame) }, "env": { $0.env.append(0) },
            "wake": { $0.wake += 1 }, "blocked": { $0.blocked = .sync }, "accumulator": { $0.accumulator = .bool(false) },
            "finished": { $0.finished.toggle() },
        ])
        Self.expectEveryFieldHashed(M.Task(name: nil, handler: nil, captured: .none), [
            "name": { $0.name = 0 }, "handler": { $0.handler = 0 }, "captured": { $0.captured = captures },
            "ended": { $0.ended.toggle() }, "expiring": { $0.expiring.toggle() }, "handlerRunning": { $0.handlerRunning.toggle() },
        ])
        Self.expectEveryFieldHashed(M.SystemEvent(time: 1, kind: .forcedExpiry), [
            "time": { $0.time += 1 }, "kind": { $0.kind = .suspendCheck },
        ])
        Self.expectEveryFieldHashed(M.Request(identifier: 1, processing: false), [
            "identifier": { $0.identifier += 1 }, "processing": { $0.processing.toggle() }, "earliest": { $0.earliest += 1 },
            "power": { $0.power.toggle() }, "network": { $0.network.toggle() },
        ])
        Self.expectEveryFieldHashed(M.BGTaskState(identifier: 1, processing: false), [
            "identifier": { $0.identifier += 1 }, "processing": { $0.processing.toggle() }, "expirationHandler": { $0.expirationHandler = 0 },
            "captured": { $0.captured = captures }, "queue": { $0.queue = .main }, "completed": { $0.completed.toggle() },
            "success": { $0.success.toggle() }, "expiring": { $0.expiring.toggle() }, "launched": { $0.launched.toggle() },
        ])
        Self.expectEveryFieldHashed(M.Registration(identifier: 1, queue: nil, block: 2, captured: .none), [
            "identifier": { $0.identifier += 1 }, "queue": { $0.queue = .global }, "block": { $0.block += 1 },
            "captured": { $0.captured = captures },
        ])
        Self.expectEveryFieldHashed(M.Activity(block: 1, captured: .none), [
            "block": { $0.block += 1 }, "captured": { $0.captured = captures }, "active": { $0.active.toggle() },
            "expiredCalled": { $0.expiredCalled.toggle() },
        ])
        Self.expectEveryFieldHashed(M.PendingDecision(total: 2, currentRunnable: false, firstOther: 1, systemDue: false), [
            "total": { $0.total += 1 }, "currentRunnable": { $0.currentRunnable.toggle() }, "firstOther": { $0.firstOther += 1 },
            "systemDue": { $0.systemDue.toggle() },
        ])
        Self.expectEveryFieldHashed(RawEvent(time: 1, lane: 0, note: .forcedExpiry), [
            "time": { $0.time += 1 }, "lane": { $0.lane += 1 }, "note": { $0.note = .ended(task: 1) },
        ])
        Self.expectEveryFieldHashed(MachineObjects(), [
            "semaphores": { $0.semaphores.append(0) }, "groups": { $0.groups.append(MachineObjects.Group()) },
            "continuations": { $0.continuations.append(MachineObjects.Continuation(frames: [], env: [], accumulator: .none)) },
            "sessions": { $0.sessions.append(0) }, "connected": { $0.connected.append(0) },
            "transfers": { $0.transfers.append(MachineObjects.Transfer(identifier: 0, count: 0)) },
            "deliveries": { $0.deliveries.append(MachineObjects.Delivery(identifier: 0)) }, "urlSessionHolds": { $0.urlSessionHolds += 1 },
            "forceQuit": { $0.forceQuit.toggle() }, "continuedRequests": { $0.continuedRequests.append(MachineObjects.ContinuedRequest(request: 0)) },
            "continuedTasks": { $0.continuedTasks.append(MachineObjects.ContinuedTask(task: 0, lastProgress: 0)) },
        ])
        Self.expectEveryFieldHashed(MachineObjects.Group(), [
            "count": { $0.count += 1 },
            "notifications": { $0.notifications.append(MachineObjects.Notification(queue: .main, block: 0, captured: .none)) },
        ])
        Self.expectEveryFieldHashed(MachineObjects.Notification(queue: .main, block: 1, captured: .none), [
            "queue": { $0.queue = .named(0) }, "block": { $0.block += 1 }, "captured": { $0.captured = captures },
        ])
        Self.expectEveryFieldHashed(MachineObjects.Continuation(frames: [], env: [], accumulator: .none), [
            "frames": { $0.frames.append(frame) }, "env": { $0.env.append(1) }, "accumulator": { $0.accumulator = .identifier(1) },
        ])
        Self.expectEveryFieldHashed(MachineObjects.Transfer(identifier: 1, count: 1), [
            "identifier": { $0.identifier += 1 }, "count": { $0.count += 1 }, "fromData": { $0.fromData += 1 },
        ])
        Self.expectEveryFieldHashed(MachineObjects.Delivery(identifier: 1), [
            "identifier": { $0.identifier += 1 }, "handleEventsCalled": { $0.handleEventsCalled.toggle() },
            "delegateCalled": { $0.delegateCalled.toggle() }, "handlerCalled": { $0.handlerCalled.toggle() },
            "calledOffMain": { $0.calledOffMain.toggle() }, "open": { $0.open.toggle() },
            "handleEventsReturned": { $0.handleEventsReturned.toggle() }, "eventsDelivered": { $0.eventsDelivered.toggle() },
            "calledEarly": { $0.calledEarly.toggle() },
        ])
        Self.expectEveryFieldHashed(MachineObjects.ContinuedRequest(request: 1), [
            "request": { $0.request += 1 }, "fail": { $0.fail.toggle() },
        ])
        Self.expectEveryFieldHashed(MachineObjects.ContinuedTask(task: 1, lastProgress: 1), [
            "task": { $0.task += 1 }, "lastProgress": { $0.lastProgress += 1 },
        ])
    }

    /// Enum payloads are hashed, and equal cases with different payloads differ.
    @Test func payloadsAreHashed() {
        func hash(_ value: some StateHashable) -> UInt64 {
            var h = StableHash()
            h.combine(value)
            return h.value
        }
        #expect(hash(Value.int(1)) != hash(Value.int(2)))
        #expect(hash(Value.task(1)) != hash(Value.request(1)))
        #expect(hash(Note.step(statement: 1, phase: 0)) != hash(Note.step(statement: 1, phase: 1)))
        #expect(hash(Machine.Blocked.semaphore(0, until: 1)) != hash(Machine.Blocked.semaphore(0, until: 2)))
        #expect(hash(Machine.Outcome.terminated(.leakedTask(task: 1), 3)) != hash(Machine.Outcome.terminated(.leakedTask(task: 2), 3)))
        #expect(hash(Note.objects(.taskSuspended(1))) != hash(Note.objects(.taskResumed(1))))
        // Zero of either sign is one time, as `==` has it.
        #expect(hash(RawEvent(time: 0, lane: 0, note: .forcedExpiry)) == hash(RawEvent(time: -0.0, lane: 0, note: .forcedExpiry)))
    }
}
