import Foundation
import Testing
@testable import pipctl
import MediaCore

@Suite(.serialized) struct InterruptFlagTests {
    @Test func aCaughtSignalSetsTheFlagRunsHandlersAndMakesCheckpointsThrow() async throws {
        let flag = InterruptFlag()
        let seen = LockedState<[Int32]>([])
        flag.onInterrupt { signal in seen.withLock { $0.append(signal) } }
        // SIGUSR2 stands for SIGINT: nothing else in the test process uses it.
        flag.catchSignals([SIGUSR2])
        defer { flag.stopCatching() }
        #expect(!flag.isSet)
        try flag.checkpoint()
        // Process-directed, as a Ctrl-C is: raise() would target this worker thread, where libdispatch blocks signals.
        kill(getpid(), SIGUSR2)
        #expect(await flag.waitForInterrupt() == SIGUSR2)
        #expect(flag.isSet)
        #expect(seen.withLock { $0 } == [SIGUSR2])
        #expect(throws: Interrupted(signal: SIGUSR2)) { try flag.checkpoint() }
    }

    @Test func onlyTheFirstSignalCountsAndLateHandlersRunAtOnce() {
        let flag = InterruptFlag()
        flag.trigger(SIGTERM)
        flag.trigger(SIGINT)
        #expect(flag.signal == SIGTERM)
        let seen = LockedState<Int32?>(nil)
        flag.onInterrupt { signal in seen.withLock { $0 = signal } }
        #expect(seen.withLock { $0 } == SIGTERM)
        #expect(Interrupted(signal: SIGTERM).exitStatus == 143)
    }
}
