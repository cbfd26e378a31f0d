import Foundation
import MediaCore

/// Writes `SessionEvent`s as JSON lines (`OUT.events.jsonl`), so that nothing half-written is ever found at the
/// destination.
///
/// Lines go to an `AtomicFile`: a temporary file beside the destination, renamed into place (replacing any older
/// log) by `finish()`, removed by `discard()`, by releasing the log unfinished, or by
/// `AtomicFile.removeAllPending()` when a job is interrupted. Each line is written by `EventLogEncoder`, so the same
/// events always give the same bytes. Lines are buffered and written in batches. Safe to use from several threads;
/// lines keep the order of the `append` calls.
public final class EventLog: Sendable {
    private struct State {
        /// Nil once finished or discarded.
        var file: AtomicFile?
        var buffer = Data()
        var count = 0
    }

    /// Where the log appears when finished.
    public let destination: String
    /// The file being written until `finish()`; it exists once the first batch of lines is written.
    public let temporaryPath: String
    private let state: LockedState<State>

    /// Bytes gathered before a write; events are small, so this batches hundreds of lines.
    private static let bufferLimit = 64 * 1024

    /// Prepares the temporary file beside `destination`.
    /// - Throws: `EventLogError.cannotCreate` when the destination's directory does not exist or the destination
    ///   is a directory.
    public init(destination: String) throws(EventLogError) {
        let file: AtomicFile
        do {
            file = try AtomicFile(destination: destination)
        } catch {
            throw .cannotCreate(path: destination, reason: error.reason)
        }
        self.destination = destination
        temporaryPath = file.temporaryPath
        state = LockedState(State(file: file))
    }

    deinit { discard() }

    /// Appends one event as one line.
    /// - Throws: `EventLogError.unencodable` for a non-finite number (nothing is written then),
    ///   `.cannotWrite` when the file cannot be created or written, `.closed` after `finish()` or `discard()`.
    public func append(_ event: SessionEvent) throws(EventLogError) {
        let line = try EventLogEncoder.line(event) + "\n"
        try state.withLock { (state) throws(EventLogError) in
            guard state.file != nil else { throw EventLogError.closed(path: destination) }
            state.buffer.append(contentsOf: line.utf8)
            state.count += 1
            if state.buffer.count >= Self.bufferLimit { try flush(&state) }
        }
    }

    /// How many events have been appended.
    public var count: Int { state.withLock { $0.count } }

    /// Writes what is buffered and renames the file to `destination`.
    /// - Throws: `EventLogError.cannotWrite` (the temporary file is then removed), `.closed` when called twice.
    public func finish() throws(EventLogError) {
        try state.withLock { (state) throws(EventLogError) in
            guard let file = state.file else { throw EventLogError.closed(path: destination) }
            defer { state.file = nil }
            do throws(EventLogError) {
                try flush(&state)
                do throws(AtomicFile.Failure) { try file.commit() } catch {
                    throw EventLogError.cannotWrite(path: destination, reason: error.reason)
                }
            } catch {
                file.discard()
                throw error
            }
        }
    }

    /// Writes what is buffered and hands the file over, still under its temporary name, for
    /// `AtomicFile.commitAll` with the other outputs of the run.
    /// - Throws: `EventLogError.cannotWrite` (the temporary file is then removed), `.closed` when called twice.
    public func finishWriting() throws(EventLogError) -> AtomicFile {
        try state.withLock { (state) throws(EventLogError) -> AtomicFile in
            guard let file = state.file else { throw EventLogError.closed(path: destination) }
            defer { state.file = nil }
            do throws(EventLogError) { try flush(&state) } catch {
                file.discard()
                throw error
            }
            return file
        }
    }

    /// Removes the temporary file; the destination is left as it was. Does nothing after `finish()`.
    public func discard() {
        state.withLock { state in
            state.file?.discard()
            state.file = nil
            state.buffer = Data()
        }
    }

    /// The events of the log at `path`; see `EventLogReader`.
    public static func read(_ path: String) throws(EventLogError) -> [SessionEvent] {
        try EventLogReader.read(contentsOf: URL(fileURLWithPath: path))
    }

    private func flush(_ state: inout State) throws(EventLogError) {
        guard let file = state.file, !state.buffer.isEmpty else { return }
        do { try file.append(state.buffer) } catch { throw .cannotWrite(path: destination, reason: error.reason) }
        state.buffer.removeAll(keepingCapacity: true)
    }
}
