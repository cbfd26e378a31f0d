import Dispatch
#if canImport(Glibc)
import Glibc
import MediaCore
#endif

/// The write end of the relay's pipe, for the C signal handler. Set once before any handler is installed and only
/// read afterwards; a plain global with a constant initializer, so the handler never runs lazy initialization.
nonisolated(unsafe) private var relayWriteEnd: Int32 = -1

/// The signal handler: async-signal-safe, it only writes the signal number into the pipe.
private func relaySignal(_ number: Int32) {
    var byte = UInt8(truncatingIfNeeded: number)
    _ = write(relayWriteEnd, &byte, 1)
}

/// Carries signals from a C signal handler to ordinary code through a pipe (the self-pipe trick).
///
/// `DispatchSource.makeSignalSource` is not used: on Linux it relies on `signalfd`, which only sees signals that
/// every thread blocks, and threads started before pipctl's code runs do not. A handler installed with `signal`
/// works whatever thread the signal lands on.
final class SignalRelay: Sendable {
    static let shared = SignalRelay()

    private let readEnd: Int32
    // Only held to stay alive: never touched after `init`, so sharing the class across threads cannot race on it.
    private nonisolated(unsafe) let source: any DispatchSourceRead
    /// Who hears each signal; the flag that catches it.
    private let listeners = LockedState<[Int32: @Sendable (Int32) -> Void]>([:])

    private init() {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { preconditionFailure("cannot create the signal pipe: errno \(errno)") }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        // A full pipe must drop a signal rather than block the handler.
        _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
        readEnd = ends[0]
        relayWriteEnd = ends[1]
        source = DispatchSource.makeReadSource(fileDescriptor: ends[0], queue: DispatchQueue(label: "pipctl.signals"))
        // The relay lives as long as the process, so the source may hold it.
        source.setEventHandler { [self] in
            var byte: UInt8 = 0
            guard read(readEnd, &byte, 1) == 1 else { return }
            let number = Int32(byte)
            listeners.withLock { $0[number] }?(number)
        }
        source.resume()
    }

    /// Sends `number` to `listener` from now on instead of taking its default action.
    func install(_ number: Int32, listener: @escaping @Sendable (Int32) -> Void) {
        listeners.withLock { $0[number] = listener }
        signal(number, relaySignal)
    }

    /// Gives `number` its default action back (a second Ctrl-C then ends the process). SIGPIPE is ignored instead:
    /// once the reader of standard output has gone, every later write would raise it again and end the process
    /// before it removed its temporary files; ignored, the write fails with EPIPE and the command stops cleanly.
    func restoreDefault(_ number: Int32) {
        signal(number, number == SIGPIPE ? SIG_IGN : SIG_DFL)
        listeners.withLock { $0[number] = nil }
    }
}
