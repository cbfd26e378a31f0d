#if canImport(Glibc)
import Glibc
import MediaCore
#endif

/// Why a command stopped before its end: the user pressed Ctrl-C (SIGINT), or the process was sent another
/// terminating signal. The tool exits with status 128 + the signal number (130 for Ctrl-C), as shells expect.
struct Interrupted: Error, Hashable, Sendable, CustomStringConvertible {
    let signal: Int32

    var exitStatus: Int32 { 128 + signal }

    var description: String {
        switch signal {
        case SIGHUP: "hung up (SIGHUP)"
        case SIGINT: "interrupted (SIGINT)"
        case SIGQUIT: "quit (SIGQUIT)"
        case SIGTERM: "terminated (SIGTERM)"
        case SIGPIPE: "broken pipe (SIGPIPE)"
        case SIGUSR1: "stopped by SIGUSR1"
        case SIGUSR2: "stopped by SIGUSR2"
        case SIGALRM: "alarm clock (SIGALRM)"
        case SIGXCPU: "CPU time limit exceeded (SIGXCPU)"
        case SIGXFSZ: "file size limit exceeded (SIGXFSZ)"
        default: "stopped by signal \(signal)"
        }
    }

    /// Every signal whose default action ends the process and that a process may catch: a command that writes
    /// files catches them all, so that none of them leaves a temporary file behind. SIGQUIT is among them, so
    /// Swift's runtime prints no crash backtrace for it (our handler replaces the runtime's, installed earlier).
    static let terminatingSignals: [Int32] = [SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGPIPE, SIGUSR1, SIGUSR2, SIGALRM,
                                              SIGXCPU, SIGXFSZ]
}

/// Records the first terminating signal (`Interrupted.terminatingSignals`) so that long work can stop at a safe point and clean up.
///
/// Long loops poll it (`try interrupt.checkpoint()` once per frame); clean-up that must happen however the work
/// ends (deleting a temporary file) registers with `onInterrupt`. The first signal only sets the flag; the
/// default action is then restored, so a second Ctrl-C ends a process that does not stop in time.
///
/// Signals reach it through `SignalRelay`; one flag catches a given signal at a time.
final class InterruptFlag: Sendable {
    private struct State {
        var signal: Int32?
        var handlers: [@Sendable (Int32) -> Void] = []
        var caught: [Int32] = []
    }

    private let state = LockedState(State())

    /// A flag that is set only by `trigger(_:)` until `catchSignals()` is called.
    init() {}

    /// Starts catching `signals`: the first one to arrive sets the flag.
    func catchSignals(_ signals: [Int32] = Interrupted.terminatingSignals) {
        let added = state.withLock { state in
            let added = signals.filter { !state.caught.contains($0) }
            state.caught += added
            return added
        }
        for number in added {
            SignalRelay.shared.install(number) { [weak self] in self?.trigger($0) }
        }
    }

    /// Stops catching signals and restores their default action.
    func stopCatching() {
        let caught = state.withLock { state in
            defer { state.caught = [] }
            return state.caught
        }
        caught.forEach(SignalRelay.shared.restoreDefault)
    }

    deinit { stopCatching() }

    /// Whether a signal has arrived.
    var isSet: Bool { signal != nil }

    /// The first signal that arrived.
    var signal: Int32? { state.withLock { $0.signal } }

    /// Throws `Interrupted` once a signal has arrived; long loops call it at each safe point.
    func checkpoint() throws(Interrupted) {
        if let signal { throw Interrupted(signal: signal) }
    }

    /// Runs `handler` once with the signal number when the first signal arrives (at once if one already has).
    /// It runs on a private queue, so it must only do thread-safe work.
    func onInterrupt(_ handler: @escaping @Sendable (Int32) -> Void) {
        let already: Int32? = state.withLock { state in
            if state.signal == nil { state.handlers.append(handler) }
            return state.signal
        }
        if let already { handler(already) }
    }

    /// Suspends until a signal arrives and returns its number.
    func waitForInterrupt() async -> Int32 {
        await withCheckedContinuation { continuation in
            onInterrupt { continuation.resume(returning: $0) }
        }
    }

    /// Sets the flag as if `signal` had arrived: the first call runs the handlers and restores the default
    /// action of the caught signals; later calls do nothing.
    func trigger(_ signal: Int32) {
        let taken: (handlers: [@Sendable (Int32) -> Void], caught: [Int32])? = state.withLock { state in
            guard state.signal == nil else { return nil }
            state.signal = signal
            defer { state.handlers = [] }
            return (state.handlers, state.caught)
        }
        guard let taken else { return }
        taken.caught.forEach(SignalRelay.shared.restoreDefault)
        for handler in taken.handlers { handler(signal) }
    }
}
