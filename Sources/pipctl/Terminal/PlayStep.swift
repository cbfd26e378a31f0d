import Dispatch
import MediaCore

/// `pipctl play --step`: the session's clock (a `ManualClock`) moves only when standard input says `advance T`, so
/// a script or a test decides which frame each command lands on, however slow the machine.
///
/// The reader (`CommandReader`) moves the clock and then waits until the play loop has played every frame due by the
/// new time and waits for the next one (`parking`): the loop then says so on standard output (`stepped to
/// 0:00:02.500`, after the events of those frames), and the lines after the `advance` are read only then. A command
/// typed after `advance T` thus applies at the first frame due after T. At the end of the input the clock follows
/// real time from where it stands, so the session plays on to its end (or to a `quit` typed last) as `play` does.
final class PlayStep: Sendable {
    let clock: ManualClock
    private let start: ContinuousClock.Instant

    private struct State {
        /// The time the reader has moved the clock to, from the start.
        var advanced = MediaDuration.zero
        /// The time the loop last said it had played to.
        var acknowledged = MediaDuration.zero
        /// The reader, waiting for the loop to play to `advanced`.
        var reader: DispatchSemaphore?
        var ended = false
    }

    private let state = LockedState(State())

    init(clock: ManualClock = ManualClock()) {
        self.clock = clock
        start = clock.now
    }

    /// The reader's `advance T`: moves the clock on by `duration` and returns once the loop has played every frame
    /// due by then and waits for the next (or the session has ended).
    func advance(by duration: MediaDuration) {
        let semaphore = DispatchSemaphore(value: 0)
        let target: ContinuousClock.Instant? = state.withLock { state in
            guard !state.ended else { return nil }
            state.advanced = state.advanced + duration
            state.reader = semaphore
            return start + state.advanced.duration
        }
        guard let target else { return }
        // The state first, then the clock: a loop that sees the clock moved also sees what it was moved to.
        clock.advance(by: max(.zero, target - clock.now))
        semaphore.wait()
    }

    /// The loop, before it waits for a frame not yet due at `now` (every frame due by `now` played): the time to say
    /// it has played to, once for each `advance` it has caught up with; the waiting reader goes on.
    func parking(now: ContinuousClock.Instant) -> MediaTime? {
        let caughtUp: (MediaDuration, DispatchSemaphore?)? = state.withLock { state in
            guard state.acknowledged != state.advanced, now >= start + state.advanced.duration else { return nil }
            state.acknowledged = state.advanced
            defer { state.reader = nil }
            return (state.advanced, state.reader)
        }
        guard let (reached, reader) = caughtUp else { return nil }
        reader?.signal()
        return MediaTime(seconds: reached.seconds)
    }

    /// The session has ended: a waiting reader goes on, and later `advance`s return at once.
    func end() {
        let reader = state.withLock { state in
            state.ended = true
            defer { state.reader = nil }
            return state.reader
        }
        reader?.signal()
    }

    /// The input has ended: the clock follows real time from where it stands.
    func inputEnded() {
        clock.followSystemClock()
    }
}
