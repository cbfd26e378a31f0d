import MediaCore

/// Live commands waiting for the next frame, safe to fill from any thread: `pipctl play` reads stdin on one task
/// while another decides frames, and the session itself is not `Sendable`.
public final class CommandInbox: Sendable {
    private struct State {
        var queue: [SessionCommand] = []
        var closed = false
    }

    private let state = LockedState(State())

    public init() {}

    /// Queues a command; the session applies it at its next frame, after that frame's script commands.
    /// Ignored once the inbox is closed.
    public func submit(_ command: SessionCommand) {
        state.withLock { if !$0.closed { $0.queue.append(command) } }
    }

    /// Says that no command will come any more (the user's input ended): from then on a live session that waits
    /// for a command that cannot come (a `resume`, a `pip off`) ends, as a batch session does.
    public func close() {
        state.withLock { $0.closed = true }
    }

    /// True once `close()` was called and every queued command was taken.
    var isClosedAndEmpty: Bool { state.withLock { $0.closed && $0.queue.isEmpty } }

    /// Everything queued so far, in order, leaving the inbox empty.
    func takeAll() -> [SessionCommand] {
        state.withLock { state in
            defer { state.queue.removeAll() }
            return state.queue
        }
    }
}
