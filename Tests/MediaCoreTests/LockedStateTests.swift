import Foundation
import MediaCore
import Testing

@Suite struct LockedStateTests {
    /// Four threads each add 1 a hundred thousand times: only mutual exclusion gives exactly 400 000.
    @Test func excludesConcurrentWriters() {
        let counter = LockedState(0)
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for _ in 0..<100_000 { counter.withLock { $0 += 1 } }
        }
        #expect(counter.withLock { $0 } == 400_000)
    }

    @Test func passesErrorsAndResultsThrough() {
        struct Refused: Error {}
        let state = LockedState([1, 2])
        #expect(throws: Refused.self) { try state.withLock { (_: inout [Int]) throws(Refused) in throw Refused() } }
        let count = state.withLock { value -> Int in value.append(3); return value.count }
        #expect(count == 3)
    }
}
