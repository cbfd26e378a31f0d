import Synchronization

/// Live commands waiting for the next frame, safe to fill from any thread: `pipctl play` reads stdin on one task
/// while another decides frames, and the session itself is not `Sendable`.
public final class CommandInbox: Sendable {
    private let queue = Mutex<[SessionCommand]>([])

    public init() {}

    /// Queues a command; the session applies it at its next frame, after that frame's script commands.
    public func submit(_ command: SessionCommand) {
        queue.withLock { $0.append(command) }
    }

    /// Everything queued so far, in order, leaving the inbox empty.
    func takeAll() -> [SessionCommand] {
        queue.withLock { queue in
            defer { queue.removeAll() }
            return queue
        }
    }
}
