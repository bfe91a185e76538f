@testable import BGKBEngine
import BGKBModel
import Testing

/// The machine's event queue keeps events in time order, an event after every one due at the
/// same time or earlier (first posted, first handled); a stable sort is the reference.
@Suite struct EventQueueTests {
    @Test(arguments: 0..<24)
    func postKeepsTimeOrderAndPostingOrderForTies(seed: Int) {
        var generator = SeededGenerator(seed: UInt64(seed))
        // Few distinct times, so ties are common.
        let times: [Double] = [0, 0.5, 1, 1, 2, 30, 30.001]
        var queue = EventQueue()
        var posted: [Machine.SystemEvent] = []
        for index in 0..<(5 + seed) {
            let event = Machine.SystemEvent(time: times[Int(generator.next() % UInt64(times.count))], kind: .timeline(Int32(index)))
            queue.post(event)
            posted.append(event)
            // Some events are handled while others are still being posted.
            if index % 4 == 3 {
                let first = posted.enumerated().min { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }!
                #expect(queue.removeFirst().time == first.element.time)
                posted.remove(at: first.offset)
            }
        }
        func timelineIndex(_ event: Machine.SystemEvent) -> Int32 {
            if case let .timeline(index) = event.kind { return index }
            return -1
        }
        let expected = posted.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map { timelineIndex($0.element) }
        #expect(queue.pending.map(timelineIndex) == expected)
    }
}

/// The explorer's (parent key, decision, choice) → key table: open addressing that doubles when
/// half full. Started small, it grows several times; every key inserted must still be found, and
/// no key never inserted (neighbours in each field) may be.
@Suite struct ChildKeyTableTests {
    @Test(arguments: [1, 2, 64, 1024])
    func everyKeyIsFoundAfterGrowing(capacity: Int) {
        var table = KeyTable(capacity: capacity, placeholder: ChildKey(parent: 0, index: 0, choice: 0))
        var inserted: [(parent: Int32, index: Int32, choice: UInt8, key: Int32)] = []
        var next: Int32 = 1
        for parent in Int32(0)..<40 {
            for index in Int32(0)..<6 where (parent + index) % 3 != 0 {
                for choice in UInt8(1)...2 {
                    table.insert(ChildKey(parent: parent, index: index, choice: choice), value: next)
                    inserted.append((parent, index, choice, next))
                    next += 1
                }
            }
        }
        for entry in inserted {
            #expect(table.find(ChildKey(parent: entry.parent, index: entry.index, choice: entry.choice)) == entry.key)
        }
        #expect(table.find(ChildKey(parent: 40, index: 1, choice: 1)) == nil)
        #expect(table.find(ChildKey(parent: 2, index: 1, choice: 1)) == nil)
        #expect(table.find(ChildKey(parent: 1, index: 1, choice: 3)) == nil)
        #expect(table.find(ChildKey(parent: 0, index: 6, choice: 1)) == nil)
    }
}

/// Forced expiry times → keys: found after growing, equal times (0 and -0) one key, times a
/// millisecond or an ulp apart distinct.
@Suite struct ForcedKeyTableTests {
    @Test(arguments: [1, 4, 256])
    func timesAreFoundAfterGrowing(capacity: Int) {
        var table = KeyTable(capacity: capacity, placeholder: ForcedExpiryKey(0))
        var times: [Double] = []
        for instant in stride(from: 0.0, through: 40.0, by: 0.5) {
            for t in [instant - 0.001, instant, instant + 0.001] where t >= 0 && !times.contains(t) { times.append(t) }
        }
        times.append(30.0.nextUp)
        for (key, time) in times.enumerated() { table.insert(ForcedExpiryKey(time), value: Int32(key)) }
        for (key, time) in times.enumerated() { #expect(table.find(ForcedExpiryKey(time)) == Int32(key), "\(time)") }
        #expect(table.find(ForcedExpiryKey(-0.0)) == table.find(ForcedExpiryKey(0.0)))
        #expect(table.find(ForcedExpiryKey(40.002)) == nil)
        #expect(table.find(ForcedExpiryKey(30.0.nextDown)) == nil)
        #expect(table.find(ForcedExpiryKey(30.0)) != table.find(ForcedExpiryKey(30.0.nextUp)))
    }
}
