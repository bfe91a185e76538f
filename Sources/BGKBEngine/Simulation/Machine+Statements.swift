import BGKBModel

/// Values, conditions and the statements a thread executes.
extension Machine {
    @inline(__always)
    mutating func cellIndex(_ ref: VariableRef, thread t: Int) -> Int {
        switch ref {
        case let .global(index): return Int(index)
        case let .local(slot):
            let scratch = scenario.globals.count
            guard let frame = threads[t].frames.last else { return scratch }
            let position = Int(frame.origin + slot)
            return position < threads[t].env.count ? Int(threads[t].env[position]) : scratch
        }
    }

    mutating func remaining() -> Double {
        switch state {
        case .foreground, .launching: return Double.greatestFiniteMagnitude
        default:
            budgetMatters = true
            guard let start = periodStart else { return schedule.budget }
            return max(0, start + schedule.budget - now)
        }
    }

    /// Evaluates an expression that reads state (one step). Returns nil when it crashed.
    mutating func evaluate(_ expression: Expression, thread t: Int) -> Value? {
        switch expression {
        case let .literal(value): return value
        case let .read(ref): return cells[cellIndex(ref, thread: t)]
        case let .unwrap(ref):
            let value = cells[cellIndex(ref, thread: t)]
            if case .none = value {
                if case let .global(index) = ref { crash(.forceUnwrapNil(variable: index)) } else { crash(.forceUnwrapNil(variable: -1)) }
                return nil
            }
            return value
        case .backgroundTimeRemaining:
            return .int(clampedInt(remaining()))
        case let .begin(name, handler):
            return begin(name: name, handler: handler, thread: t)
        case let .refreshRequest(identifier):
            requests.append(Request(identifier: identifier, processing: false))
            return .request(Int32(requests.count - 1))
        case let .processingRequest(identifier):
            requests.append(Request(identifier: identifier, processing: true))
            return .request(Int32(requests.count - 1))
        case let .dateFromNow(seconds):
            return .int(clampedInt(now + seconds))
        case let .object(object):
            return make(object, thread: t)
        }
    }

    mutating func compare(_ left: Value, _ op: Comparison, _ right: Value) -> Bool {
        func number(_ v: Value) -> Int? {
            switch v {
            case let .int(n): return n
            case let .identifier(n): return Int(n)
            default: return nil
            }
        }
        switch op {
        case .equal: return left == right
        case .notEqual: return left != right
        default:
            guard let l = number(left), let r = number(right) else { return false }
            switch op {
            case .less: return l < r
            case .greater: return l > r
            case .lessOrEqual: return l <= r
            case .greaterOrEqual: return l >= r
            default: return false
            }
        }
    }

    mutating func test(_ condition: Condition, thread t: Int) -> Bool? {
        switch condition {
        case let .compare(l, op, r):
            guard let left = evaluate(l, thread: t), let right = evaluate(r, thread: t) else { return nil }
            return compare(left, op, right)
        case let .truthy(e):
            guard let value = evaluate(e, thread: t) else { return nil }
            if case let .bool(b) = value { return b }
            if case .none = value { return false }
            return true
        case let .not(inner):
            return test(inner, thread: t).map { !$0 }
        case let .and(l, r):
            guard let left = test(l, thread: t) else { return nil }
            return left ? test(r, thread: t) : false
        case let .or(l, r):
            guard let left = test(l, thread: t) else { return nil }
            return left ? true : test(r, thread: t)
        }
    }

    /// Whether evaluating this expression is a read that a later write may race with.
    mutating func isTwoStep(_ expression: Expression) -> Bool {
        switch expression {
        case .read, .unwrap, .begin: return true
        default: return false
        }
    }

    // MARK: Statements

    mutating func advance(_ t: Int, _ frameIndex: Int) {
        threads[t].frames[frameIndex].pc += 1
        threads[t].frames[frameIndex].phase = 0
    }

    mutating func execute(_ statementIndex: Int32, thread t: Int, frameIndex: Int) {
        let lane = Int32(t)
        record(lane, .step(statement: statementIndex, phase: threads[t].frames[frameIndex].phase))
        switch statementTable.kinds[Int(statementIndex)] {
        case let .declare(slot, initial):
            declare(slot: slot, initial: initial, thread: t, frameIndex: frameIndex)
        case let .assign(ref, expression):
            if isTwoStep(expression) && threads[t].frames[frameIndex].phase == 0 {
                guard let value = evaluate(expression, thread: t) else { return }
                threads[t].accumulator = value
                threads[t].frames[frameIndex].phase = 1
                return
            }
            let value: Value
            if threads[t].frames[frameIndex].phase == 1 {
                value = threads[t].accumulator
            } else {
                guard let v = evaluate(expression, thread: t) else { return }
                value = v
            }
            cells[cellIndex(ref, thread: t)] = value
            advance(t, frameIndex)
        case let .add(ref, amount):
            let index = cellIndex(ref, thread: t)
            if threads[t].frames[frameIndex].phase == 0 {
                threads[t].accumulator = cells[index]
                threads[t].frames[frameIndex].phase = 1
                return
            }
            if case let .int(n) = threads[t].accumulator { cells[index] = .int(n &+ amount) }
            advance(t, frameIndex)
        case let .evaluate(expression):
            guard evaluate(expression, thread: t) != nil else { return }
            advance(t, frameIndex)
        case let .end(expression):
            guard let value = evaluate(expression, thread: t) else { return }
            end(value, thread: t)
            advance(t, frameIndex)
        case let .work(seconds):
            advance(t, frameIndex)
            threads[t].wake = now + seconds
        case .print:
            advance(t, frameIndex)
        case let .dispatch(queue, block, sync):
            dispatch(block, on: queue, sync: sync, thread: t, frameIndex: frameIndex)
        case let .withLock(lock, block):
            let owner = locks[Int(lock)]
            if owner >= 0 {
                threads[t].blocked = owner == lane ? .forever : .lock(lock)
                return
            }
            threads[t].blocked = .none
            locks[Int(lock)] = lane
            threads[t].frames.append(Frame(block: block, origin: threads[t].frames[frameIndex].origin, context: .lock(lock), boundary: true))
        case let .call(function):
            let block = scenario.functions[Int(function)].block
            guard block >= 0 else { advance(t, frameIndex); return }
            threads[t].frames.append(Frame(block: block, origin: Int32(threads[t].env.count), context: .call, boundary: true))
        case let .branch(condition, thenBlock, elseBlock):
            guard let result = test(condition, thread: t) else { return }
            let origin = threads[t].frames[frameIndex].origin
            if result {
                threads[t].frames.append(Frame(block: thenBlock, origin: origin, context: .branch, boundary: false))
            } else if let elseBlock {
                threads[t].frames.append(Frame(block: elseBlock, origin: origin, context: .branch, boundary: false))
            } else {
                advance(t, frameIndex)
            }
        case let .loop(count, block):
            guard count > 0 else { advance(t, frameIndex); return }
            var frame = Frame(block: block, origin: threads[t].frames[frameIndex].origin, context: .branch, boundary: false)
            frame.loopsLeft = Int32(min(count - 1, Int(Int32.max)))
            threads[t].frames.append(frame)
        case .returnFromBlock:
            while let frame = threads[t].frames.last {
                if frame.boundary {
                    threads[t].frames[threads[t].frames.count - 1].pc = Int32(scenario.blocks[Int(frame.block)].statements.count)
                    threads[t].frames[threads[t].frames.count - 1].loopsLeft = 0
                    break
                }
                threads[t].frames.removeLast()
            }
        case let .register(identifier, queue, block):
            register(identifier: identifier, queue: queue, block: block, thread: t)
            if outcome == nil { advance(t, frameIndex) }
        case let .submit(expression):
            guard let value = evaluate(expression, thread: t) else { return }
            if case let .request(index) = value { submit(index, thread: t) }
            advance(t, frameIndex)
        case let .setRequest(ref, property, expression):
            guard let value = evaluate(expression, thread: t) else { return }
            if case let .request(index) = cells[cellIndex(ref, thread: t)] {
                switch (property, value) {
                case let (.earliestBeginDate, .int(time)): requests[Int(index)].earliest = Double(time)
                case let (.requiresExternalPower, .bool(b)): requests[Int(index)].power = b
                case let (.requiresNetworkConnectivity, .bool(b)): requests[Int(index)].network = b
                default: break
                }
            }
            advance(t, frameIndex)
        case let .setTaskCompleted(expression, success):
            guard let value = evaluate(expression, thread: t) else { return }
            if case let .task(index) = value { completeBGTask(index, success: success, thread: t) }
            advance(t, frameIndex)
        case let .setExpirationHandler(expression, block):
            guard let value = evaluate(expression, thread: t) else { return }
            if case let .task(index) = value {
                bgTasks[Int(index)].expirationHandler = block
                bgTasks[Int(index)].captured = block.map { capture(lane, block: $0) } ?? .none
            }
            advance(t, frameIndex)
        case let .completePush(expression):
            guard let value = evaluate(expression, thread: t) else { return }
            if case let .push(index) = value, !pushes[Int(index)] {
                pushes[Int(index)] = true
                pendingPushes -= 1
                record(lane, .pushCompleted(push: index))
                checkSuspend()
            }
            advance(t, frameIndex)
        case let .performExpiringActivity(_, block):
            startActivity(block, thread: t)
            advance(t, frameIndex)
        case let .concurrency(statement):
            execute(statement, thread: t, frameIndex: frameIndex)
        }
    }

    /// `let x = e`: a value that reads state takes two steps (read, then bind), so a write by
    /// another thread can fall between them.
    mutating func declare(slot: Int32, initial: Expression?, thread t: Int, frameIndex: Int) {
        if let initial, isTwoStep(initial), threads[t].frames[frameIndex].phase == 0 {
            guard let value = evaluate(initial, thread: t) else { return }
            threads[t].accumulator = value
            threads[t].frames[frameIndex].phase = 1
            return
        }
        var value: Value = .none
        if let initial {
            if threads[t].frames[frameIndex].phase == 1 {
                value = threads[t].accumulator
            } else {
                guard let v = evaluate(initial, thread: t) else { return }
                value = v
            }
        }
        cells.append(value)
        let frame = threads[t].frames[frameIndex]
        let position = Int(frame.origin + slot)
        if position < threads[t].env.count {
            threads[t].env[position] = Int32(cells.count - 1)
        } else {
            threads[t].env.append(Int32(cells.count - 1))
        }
        advance(t, frameIndex)
    }

    /// `queue.async { }` and `queue.sync { }`: a sync onto the thread's own serial queue crashes,
    /// as it deadlocks on a device; a sync onto a global queue runs the block in place.
    mutating func dispatch(_ block: Int32, on queue: QueueRef, sync: Bool, thread t: Int, frameIndex: Int) {
        let lane = Int32(t)
        if sync {
            switch queue {
            case .main where t == 0:
                crash(.mainSyncOnMain)
            case .global:
                threads[t].frames.append(Frame(block: block, origin: threads[t].frames[frameIndex].origin, context: .branch, boundary: true))
            case let .named(index) where Int(namedQueueThread[Int(index)]) == t:
                crash(.mainSyncOnMain)
            default:
                let captured = capture(lane, block: block)
                enqueue(on: queue, WorkItem(block: block, captured: captured, parameter: .none, context: .sync(waiter: lane)))
                threads[t].blocked = .sync
                // The waiter's pc moves on when the block finishes (see `finish`).
            }
            return
        }
        let captured = capture(lane, block: block)
        enqueue(on: queue, WorkItem(block: block, captured: captured, parameter: .none, context: .plain))
        advance(t, frameIndex)
    }

    /// `performExpiringActivity` (S13, S20): the block runs on a worker of its own. Granted, the
    /// activity holds the app up as a task does (sharing the background period's budget) until
    /// its `expired == false` call returns, or until the system calls it in and its
    /// `expired == true` call returns. Refused (no task assertion can be taken, or the background
    /// time is already up, as in an expiry handler), the block is told at once that it expired
    /// and holds nothing up: the app may be suspended while it runs.
    mutating func startActivity(_ block: Int32, thread t: Int) {
        let lane = Int32(t)
        let captured = capture(lane, block: block)
        refusalRead = true
        let refused = schedule.refusal != .none || (state == .background && periodExpired)
        activities.append(Activity(block: block, captured: captured, active: !refused, expiredCalled: refused))
        let index = Int32(activities.count - 1)
        if refused {
            record(lane, .activityRefused(activity: index))
        } else {
            activeActivities += 1
            if state == .background && periodStart == nil { startPeriod() }
            record(lane, .activityStarted(activity: index, expired: false))
        }
        spawnWorker(WorkItem(block: block, captured: captured, parameter: .bool(refused), context: .activity(index, expired: refused)), name: .activity)
    }
}
