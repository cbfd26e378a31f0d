import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Writes `SessionEvent`s as JSON lines (`OUT.events.jsonl`), so that nothing half-written is ever found at the
/// destination.
///
/// Lines go to a temporary file beside the destination (same directory, so the final rename is atomic);
/// `finish()` flushes it to disk and renames it into place, replacing any older log. `discard()`, or releasing
/// the log without finishing it, removes the temporary file. Each line is written by `EventLogEncoder`: the same
/// events always give the same bytes. Safe to use from several threads; lines keep the order of `append` calls.
public final class EventLog: Sendable {
    private struct State {
        /// The open temporary file; -1 once finished or discarded.
        var descriptor: Int32
        var buffer: [UInt8] = []
        var count = 0
    }

    /// Where the log appears when finished.
    public let destination: URL
    /// The file being written until `finish()`.
    let temporaryURL: URL
    private let state: Mutex<State>

    /// Bytes gathered before a `write(2)`; events are small, so this batches hundreds of lines.
    private static let bufferLimit = 64 * 1024

    /// Creates the temporary file beside `destination`.
    /// - Throws: `EventLogError.cannotCreate` when the directory does not exist or is not writable.
    public init(destination: URL) throws(EventLogError) {
        self.destination = destination
        let directory = destination.deletingLastPathComponent()
        let random = UInt64.random(in: 0...UInt64.max)
        temporaryURL = directory.appendingPathComponent(
            ".\(destination.lastPathComponent).\(getpid())-\(String(random, radix: 16)).partial")
        let descriptor = open(temporaryURL.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw .cannotCreate(path: temporaryURL.path, reason: Self.lastError()) }
        state = Mutex(State(descriptor: descriptor))
    }

    deinit { discard() }

    /// Appends one event as one line.
    /// - Throws: `EventLogError.unencodable` for a non-finite number (nothing is written then),
    ///   `.cannotWrite` when the disk refuses the bytes, `.closed` after `finish()` or `discard()`.
    public func append(_ event: SessionEvent) throws(EventLogError) {
        let line = try EventLogEncoder.line(event) + "\n"
        try state.withLock { (state) throws(EventLogError) in
            guard state.descriptor >= 0 else { throw EventLogError.closed(path: destination.path) }
            state.buffer.append(contentsOf: line.utf8)
            state.count += 1
            if state.buffer.count >= Self.bufferLimit { try flush(&state) }
        }
    }

    /// How many events have been appended.
    public var count: Int { state.withLock { $0.count } }

    /// Writes what is buffered, syncs it to disk and renames the file to `destination`.
    /// - Throws: `EventLogError.cannotWrite` or `.cannotMove` (the temporary file is then removed), `.closed`
    ///   when called twice.
    public func finish() throws(EventLogError) {
        try state.withLock { (state) throws(EventLogError) in
            guard state.descriptor >= 0 else { throw EventLogError.closed(path: destination.path) }
            defer {
                close(state.descriptor)
                state.descriptor = -1
            }
            do throws(EventLogError) {
                try flush(&state)
                guard fsync(state.descriptor) == 0 else {
                    throw EventLogError.cannotWrite(path: temporaryURL.path, reason: Self.lastError())
                }
                guard rename(temporaryURL.path, destination.path) == 0 else {
                    throw EventLogError.cannotMove(from: temporaryURL.path, to: destination.path,
                                                   reason: Self.lastError())
                }
            } catch {
                unlink(temporaryURL.path)
                throw error
            }
        }
    }

    /// Closes and removes the temporary file; the destination is left as it was. Does nothing after `finish()`.
    public func discard() {
        state.withLock { state in
            guard state.descriptor >= 0 else { return }
            close(state.descriptor)
            state.descriptor = -1
            state.buffer = []
            unlink(temporaryURL.path)
        }
    }

    private func flush(_ state: inout State) throws(EventLogError) {
        var offset = 0
        let failure: String? = state.buffer.withUnsafeBytes { bytes in
            while offset < bytes.count {
                let n = write(state.descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { return Self.lastError() }
                offset += n
            }
            return nil
        }
        state.buffer.removeFirst(offset)
        if let failure { throw .cannotWrite(path: temporaryURL.path, reason: failure) }
    }

    private static func lastError() -> String { String(cString: strerror(errno)) }
}
