import Foundation
import Glibc
import MediaCore
import Testing
@testable import VideoPipeline

/// The threads that feed x264 run a few nice steps below it (issue 39): the transcode's decode thread, what it
/// starts, and the stage's audio thread; the caller's own thread keeps its priority.
@Suite struct FeederPriorityTests {
    /// The calling thread's nice value (per thread on Linux).
    private static func niceness() -> Int32 {
        errno = 0
        return getpriority(__priority_which_t(0), 0)
    }

    @Test func workRunsOnALoweredThreadAndTheCallerKeepsItsPriority() throws {
        let before = FeederPriorityTests.niceness()
        let caller = Thread.current
        let (own, started, other) = try FeederPriority.run("test feeder") { () throws(MediaError) -> (Int32, Int32, Bool) in
            // A thread started from the lowered one inherits its priority (as the decoder's threads do).
            let inherited = LockedState<Int32>(0)
            let gate = DispatchSemaphore(value: 0)
            let child = Thread { inherited.withLock { $0 = FeederPriorityTests.niceness() }; gate.signal() }
            child.start()
            gate.wait()
            return (FeederPriorityTests.niceness(), inherited.withLock { $0 }, Thread.current != caller)
        }
        #expect(other)
        #expect(own == min(19, before + FeederPriority.steps))
        #expect(started == own)
        #expect(FeederPriorityTests.niceness() == before)
    }

    @Test func whatTheWorkThrowsReachesTheCaller() {
        #expect(throws: MediaError.interrupted) {
            try FeederPriority.run("test feeder") { () throws(MediaError) -> Int in throw .interrupted }
        }
    }

    @Test func aLoweredEncodeThreadRunsItsJobsLowered() throws {
        let before = FeederPriorityTests.niceness()
        let thread = EncodeThread(capacity: 1, name: "test lowered", lowered: true)
        let seen = LockedState<Int32?>(nil)
        try thread.submit { () throws(MediaError) in seen.withLock { $0 = FeederPriorityTests.niceness() } }
        try thread.finish()
        #expect(seen.withLock { $0 } == min(19, before + FeederPriority.steps))
        #expect(FeederPriorityTests.niceness() == before)
    }
}
