import Foundation
import MediaCore
import Serving
import Testing

/// `BreakStitcher.value(of:within:)`, how a viewer waits for a break's build: the build's value when it comes in
/// time, nil when it does not, and no timer left behind once answered (a server with a long `--stitch-wait` would
/// otherwise hold one sleeping task per session for that long: the memory that grew under `serve-scale`).
@Suite struct StitchWaitTests {
    /// A clock whose sleepers wait until they are cancelled or `fire()` wakes them, and say which.
    final class ManualClock: Clock, @unchecked Sendable {
        typealias Duration = Swift.Duration
        struct Instant: InstantProtocol {
            var offset: Swift.Duration
            func advanced(by duration: Swift.Duration) -> Instant { Instant(offset: offset + duration) }
            func duration(to other: Instant) -> Swift.Duration { other.offset - offset }
            static func < (a: Instant, b: Instant) -> Bool { a.offset < b.offset }
        }
        private let state = LockedState((sleepers: [Int: CheckedContinuation<Void, any Error>](), next: 0, cancelled: 0))
        var now: Instant { Instant(offset: .zero) }
        var minimumResolution: Swift.Duration { .nanoseconds(1) }
        var sleeping: Int { state.withLock { $0.sleepers.count } }
        var cancelled: Int { state.withLock { $0.cancelled } }

        func sleep(until deadline: Instant, tolerance: Swift.Duration?) async throws {
            let id = state.withLock { s -> Int in
                s.next += 1
                return s.next
            }
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                    let cancelledAlready = state.withLock { s -> Bool in
                        if Task.isCancelled { return true }
                        s.sleepers[id] = continuation
                        return false
                    }
                    if cancelledAlready { continuation.resume(throwing: CancellationError()) }
                }
            } onCancel: {
                let found = state.withLock { s -> CheckedContinuation<Void, any Error>? in
                    s.cancelled += 1
                    return s.sleepers.removeValue(forKey: id)
                }
                found?.resume(throwing: CancellationError())
            }
        }

        /// Wakes every sleeper, as if its time had come.
        func fire() {
            let all = state.withLock { s -> [CheckedContinuation<Void, any Error>] in
                defer { s.sleepers.removeAll() }
                return Array(s.sleepers.values)
            }
            for sleeper in all { sleeper.resume() }
        }
    }

    /// Waits for `condition` (an event the code under test causes), failing after a safety net.
    static func eventually(_ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(60)
        while !condition(), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        #expect(condition())
    }

    @Test func aValueInTimeIsAnsweredAndItsTimerEnds() async throws {
        let clock = ManualClock()
        let build = Task { 42 }
        let value = await BreakStitcher.value(of: build, within: .seconds(3600), clock: clock)
        #expect(value == 42)
        // The timer was cancelled once the value came: nothing sleeps on for the hour.
        try await Self.eventually { clock.cancelled == 1 && clock.sleeping == 0 }
    }

    @Test func aLateValueIsNilAndTheBuildGoesOn() async throws {
        let clock = ManualClock()
        let release = LockedState<CheckedContinuation<Void, Never>?>(nil)
        let build = Task { () -> Int in
            await withCheckedContinuation { continuation in release.withLock { $0 = continuation } }
            return 7
        }
        async let waited = BreakStitcher.value(of: build, within: .seconds(1), clock: clock)
        try await Self.eventually { clock.sleeping == 1 && release.withLock { $0 != nil } }
        clock.fire()
        #expect(await waited == nil)
        release.withLock { $0 }?.resume()
        #expect(await build.value == 7)
    }
}
