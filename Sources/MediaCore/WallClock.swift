import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The clock that time-dependent code reads and waits on: the real one (`SystemClock`), or one that tests and
/// `play --step` move by hand (`ManualClock`).
///
/// Instants are `ContinuousClock.Instant`s on every clock, so that durations stay exact and code written for the
/// continuous clock keeps its types; a manual clock starts at the real instant it was made and moves only when told.
public protocol WallClock: Sendable {
    /// The current instant.
    var now: ContinuousClock.Instant { get }

    /// Runs `work` once `deadline` has come, on another thread; when it has come already, possibly on the calling
    /// thread, before this returns (so never call it holding a lock that `work` takes). The timer cancels it.
    @discardableResult
    func schedule(at deadline: ContinuousClock.Instant, _ work: @escaping @Sendable () -> Void) -> ClockTimer

    /// Blocks the calling thread until `deadline` has come.
    func wait(until deadline: ContinuousClock.Instant)
}

extension WallClock {
    public func wait(until deadline: ContinuousClock.Instant) {
        guard deadline > now else { return }
        let semaphore = DispatchSemaphore(value: 0)
        schedule(at: deadline) { semaphore.signal() }
        semaphore.wait()
    }

    /// Suspends until `deadline` has come; throws `CancellationError` when the task is cancelled first.
    public func sleep(until deadline: ContinuousClock.Instant) async throws {
        let timer = LockedState<ClockTimer?>(nil)
        let resumed = LockedState<CheckedContinuation<Void, any Error>?>(nil)
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                resumed.withLock { $0 = continuation }
                let scheduled = schedule(at: deadline) {
                    resumed.withLock { $0.take() }?.resume()
                }
                timer.withLock { $0 = scheduled }
                // Cancelled before the timer was stored: the handler found none to cancel (a manual clock's sleeper,
                // or a dispatch timer until the deadline, would stay behind), so it is cancelled here.
                if Task.isCancelled {
                    scheduled.cancel()
                    resumed.withLock { $0.take() }?.resume(throwing: CancellationError())
                }
            }
        } onCancel: {
            timer.withLock { $0 }?.cancel()
            resumed.withLock { $0.take() }?.resume(throwing: CancellationError())
        }
    }

    /// Suspends for `duration` from now.
    public func sleep(for duration: Duration) async throws {
        try await sleep(until: now + duration)
    }
}

/// What `WallClock.schedule` returns: cancels the work if it has not started.
public struct ClockTimer: Sendable {
    private let cancellation: @Sendable () -> Void

    public init(cancel: @escaping @Sendable () -> Void) {
        cancellation = cancel
    }

    public func cancel() { cancellation() }
}

/// The real clock: `ContinuousClock`, with Dispatch timers (which fire on time even while the cooperative pool is
/// busy) and `Thread.sleep`'s blocking wait.
public struct SystemClock: WallClock {
    public init() {}

    public var now: ContinuousClock.Instant { .now }

    @discardableResult
    public func schedule(at deadline: ContinuousClock.Instant, _ work: @escaping @Sendable () -> Void) -> ClockTimer {
        let cancelled = LockedState(false)
        DispatchQueue.global().asyncAfter(deadline: .now() + Self.nanoseconds(deadline - .now)) {
            if !cancelled.withLock({ $0 }) { work() }
        }
        return ClockTimer { cancelled.withLock { $0 = true } }
    }

    public func wait(until deadline: ContinuousClock.Instant) {
        var left = deadline - .now
        while left > .zero {
            let (seconds, attoseconds) = left.components
            var request = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
            nanosleep(&request, nil)
            left = deadline - .now
        }
    }

    /// `duration` as Dispatch's nanoseconds, none when negative.
    static func nanoseconds(_ duration: Duration) -> DispatchTimeInterval {
        guard duration > .zero else { return .nanoseconds(0) }
        let (seconds, attoseconds) = duration.components
        let total = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        guard !total.overflow, total.partialValue < Int64(Int.max) else { return .never }
        return .nanoseconds(Int(total.partialValue + attoseconds / 1_000_000_000))
    }
}

/// A clock that moves only when told: tests, and `pipctl play --step`.
///
/// `advance(by:)` moves it on and runs, on the advancing thread and in the order of their deadlines, the work
/// that has come due (each sleeper wakes). `waitUntilSleeping(_:)` waits until as many sleepers are parked, so a test
/// knows the code it drives has reached its wait before it moves time. `followSystemClock()` hands it to real time
/// from the instant it has reached (what `play --step` does at the end of its input).
public final class ManualClock: WallClock {
    private struct Sleeper {
        var deadline: ContinuousClock.Instant
        var work: @Sendable () -> Void
    }

    private enum Mode {
        /// Moved by hand: the instant reached.
        case manual(ContinuousClock.Instant)
        /// Following the system clock, `offset` from it.
        case following(offset: Duration)
    }

    private struct State {
        var mode: Mode
        var sleepers: [Int: Sleeper] = [:]
        var nextID = 0
        var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state: LockedState<State>
    private let system = SystemClock()

    /// A clock standing at `start` (by default, the real instant it is made).
    public init(start: ContinuousClock.Instant = .now) {
        state = LockedState(State(mode: .manual(start)))
    }

    public var now: ContinuousClock.Instant {
        state.withLock { Self.now($0.mode) }
    }

    private static func now(_ mode: Mode) -> ContinuousClock.Instant {
        switch mode {
        case .manual(let instant): instant
        case .following(let offset): .now + offset
        }
    }

    /// How many sleepers (scheduled work, waiting threads and tasks) wait for a later instant.
    public var sleepers: Int { state.withLock { $0.sleepers.count } }

    @discardableResult
    public func schedule(at deadline: ContinuousClock.Instant, _ work: @escaping @Sendable () -> Void) -> ClockTimer {
        enum Decision { case runNow, parked(Int, [CheckedContinuation<Void, Never>]), follow(Duration) }
        let decision: Decision = state.withLock { state in
            switch state.mode {
            case .following(let offset): return .follow(offset)
            case .manual(let instant):
                if deadline <= instant { return .runNow }
                let id = state.nextID
                state.nextID += 1
                state.sleepers[id] = Sleeper(deadline: deadline, work: work)
                return .parked(id, Self.takeWaiters(&state))
            }
        }
        switch decision {
        case .runNow:
            work()
            return ClockTimer {}
        case .follow(let offset):
            return system.schedule(at: deadline - offset, work)
        case .parked(let id, let waiters):
            waiters.forEach { $0.resume() }
            return ClockTimer { [state] in _ = state.withLock { $0.sleepers.removeValue(forKey: id) } }
        }
    }

    /// Moves the clock on by `duration` and runs what has come due, earliest first.
    public func advance(by duration: Duration) {
        precondition(duration >= .zero, "a clock does not go back")
        let due: [Sleeper] = state.withLock { state in
            guard case .manual(let instant) = state.mode else { return [] }
            let reached = instant + duration
            state.mode = .manual(reached)
            let ready = state.sleepers.filter { $0.value.deadline <= reached }.sorted {
                ($0.value.deadline, $0.key) < ($1.value.deadline, $1.key)
            }
            ready.forEach { state.sleepers[$0.key] = nil }
            return ready.map(\.value)
        }
        due.forEach { $0.work() }
    }

    /// Waits until at least `count` sleepers wait for a later instant.
    public func waitUntilSleeping(_ count: Int = 1) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state in
                if state.sleepers.count >= count { return true }
                state.waiters.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// From now on the clock runs in real time from the instant it has reached; what sleeps wakes on the system
    /// clock. Advancing it then does nothing.
    public func followSystemClock() {
        let moved: [(Sleeper, Duration)] = state.withLock { state in
            guard case .manual(let instant) = state.mode else { return [] }
            let offset = instant - .now
            state.mode = .following(offset: offset)
            defer { state.sleepers = [:] }
            return state.sleepers.sorted { $0.key < $1.key }.map { ($0.value, offset) }
        }
        for (sleeper, offset) in moved { system.schedule(at: sleeper.deadline - offset, sleeper.work) }
    }

    private static func takeWaiters(_ state: inout State) -> [CheckedContinuation<Void, Never>] {
        let count = state.sleepers.count
        let ready = state.waiters.filter { $0.count <= count }.map(\.continuation)
        state.waiters.removeAll { $0.count <= count }
        return ready
    }
}
