import Foundation
import MediaCore
import Testing

@Suite(.timeLimit(.minutes(1))) struct WallClockTests {
    @Test func aManualClockStandsStillUntilAdvanced() {
        let start = ContinuousClock.now
        let clock = ManualClock(start: start)
        #expect(clock.now == start)
        clock.advance(by: .milliseconds(2_500))
        #expect(clock.now - start == .milliseconds(2_500))
    }

    @Test func advancingRunsWhatHasComeDueEarliestFirstAndNothingElse() {
        let clock = ManualClock()
        let start = clock.now
        let ran = LockedState<[String]>([])
        clock.schedule(at: start + .seconds(2)) { ran.withLock { $0.append("2 s") } }
        clock.schedule(at: start + .seconds(1)) { ran.withLock { $0.append("1 s") } }
        clock.schedule(at: start + .seconds(3)) { ran.withLock { $0.append("3 s") } }
        #expect(clock.sleepers == 3)
        clock.advance(by: .milliseconds(2_999))
        #expect(ran.withLock { $0 } == ["1 s", "2 s"])
        #expect(clock.sleepers == 1)
        clock.advance(by: .milliseconds(1))
        #expect(ran.withLock { $0 } == ["1 s", "2 s", "3 s"])
        // A deadline already reached runs at once.
        clock.schedule(at: start) { ran.withLock { $0.append("past") } }
        #expect(ran.withLock { $0.last } == "past")
    }

    @Test func aCancelledTimerNeverRuns() {
        let clock = ManualClock()
        let ran = LockedState(false)
        let timer = clock.schedule(at: clock.now + .seconds(1)) { ran.withLock { $0 = true } }
        timer.cancel()
        #expect(clock.sleepers == 0)
        clock.advance(by: .seconds(5))
        #expect(!ran.withLock { $0 })
    }

    @Test func aSleepingTaskWakesWhenTheClockReachesItsDeadlineNotBefore() async throws {
        let clock = ManualClock()
        let woke = LockedState<ContinuousClock.Instant?>(nil)
        let sleeper = Task { [clock] in
            try await clock.sleep(for: .seconds(10))
            woke.withLock { $0 = clock.now }
        }
        await clock.waitUntilSleeping()
        clock.advance(by: .seconds(9))
        #expect(clock.sleepers == 1 && woke.withLock { $0 } == nil)
        let deadline = clock.now + .seconds(1)
        clock.advance(by: .seconds(1))
        try await sleeper.value
        #expect(woke.withLock { $0 } == deadline)
    }

    @Test func aSleepingTaskThatIsCancelledThrowsAndLeavesNoSleeper() async {
        let clock = ManualClock()
        let sleeper = Task { [clock] in try await clock.sleep(for: .seconds(10)) }
        await clock.waitUntilSleeping()
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(clock.sleepers == 0)
    }

    /// A manual clock whose `schedule` holds the caller after parking its work, until the test lets it go: the
    /// window in which a cancellation finds no timer stored yet.
    final class HeldClock: WallClock {
        let clock = ManualClock()
        let release = DispatchSemaphore(value: 0)
        var now: ContinuousClock.Instant { clock.now }
        func schedule(at deadline: ContinuousClock.Instant, _ work: @escaping @Sendable () -> Void) -> ClockTimer {
            let timer = clock.schedule(at: deadline, work)
            release.wait()
            return timer
        }
    }

    @Test func aTaskCancelledWhileItsSleepIsBeingScheduledLeavesNoSleeper() async {
        let held = HeldClock()
        let sleeper = Task { [held] in try await held.sleep(for: .seconds(10)) }
        await held.clock.waitUntilSleeping()
        // The sleeper is parked and its `schedule` has not returned: the cancellation handler runs now, on this
        // thread, before the timer is stored.
        sleeper.cancel()
        held.release.signal()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(held.clock.sleepers == 0)
    }

    @Test func aBlockedThreadWaitsForTheClock() async {
        let clock = ManualClock()
        let deadline = clock.now + .milliseconds(40)
        let done = LockedState<ContinuousClock.Instant?>(nil)
        let thread = Thread { [clock] in
            clock.wait(until: deadline)
            done.withLock { $0 = clock.now }
        }
        thread.start()
        await clock.waitUntilSleeping()
        clock.advance(by: .milliseconds(40))
        while done.withLock({ $0 }) == nil { try? await Task.sleep(for: .milliseconds(1)) }
        #expect(done.withLock { $0 } == deadline)
    }

    /// Handed to real time, the clock goes on from where it stood, and what was waiting wakes on the system clock.
    @Test func aClockFollowingTheSystemClockGoesOnFromWhereItStood() async throws {
        let clock = ManualClock()
        clock.advance(by: .seconds(3_600))
        let stood = clock.now
        let waiting = Task { [clock] in try await clock.sleep(until: stood + .milliseconds(20)) }
        await clock.waitUntilSleeping()
        clock.followSystemClock()
        try await waiting.value
        #expect(clock.now >= stood + .milliseconds(20))
        #expect(clock.now - ContinuousClock.now > .seconds(3_500), "an hour ahead of the system clock still")
        clock.advance(by: .seconds(10))
        #expect(clock.now - stood < .seconds(10), "following the system clock, it is not moved by hand")
    }

    @Test func theSystemClockSleepsAtLeastUntilItsDeadline() async throws {
        let clock = SystemClock()
        let deadline = clock.now + .milliseconds(20)
        try await clock.sleep(until: deadline)
        #expect(clock.now >= deadline)
        let later = clock.now + .milliseconds(20)
        clock.wait(until: later)
        #expect(clock.now >= later)
    }
}
