import Foundation
import MediaCore

/// One thread of its own that runs jobs in the order given, with at most `capacity` waiting: the output stage's
/// encoder, so that decoding, conforming and composing frame `n + 1` overlap with encoding frame `n`.
///
/// The first job that throws stops the rest (they are dropped, not run) and its error is what every later `submit`
/// and `finish` throw, so a failure reaches the caller at its next frame or at the end. Jobs hand FFmpeg objects
/// from the caller's thread to this one: each job owns what it captures, and the caller does not touch it again
/// until the job gives it back (the stage's spare frames); the queue's lock orders the two threads' accesses.
final class EncodeThread: @unchecked Sendable {
    typealias Job = () throws(MediaError) -> Void

    private struct State {
        var jobs: [Job] = []
        var failure: MediaError?
        /// No more jobs will come: the thread ends once the queue is empty.
        var closed = false
        var running = true
    }

    private let capacity: Int
    private let condition = NSCondition()
    private var state = State()

    /// - Parameter lowered: whether the thread runs below its creator's priority (`FeederPriority`: a thread
    ///   that feeds the video encoder rather than runs it).
    init(capacity: Int, name: String, lowered: Bool = false) {
        precondition(capacity > 0)
        self.capacity = capacity
        let thread = Thread { [self] in
            if lowered { FeederPriority.lowerCurrentThread() }
            run()
        }
        thread.name = name
        thread.start()
    }

    /// Queues `job`, waiting while `capacity` jobs are already waiting; throws the error of a job that failed.
    func submit(_ job: @escaping Job) throws(MediaError) {
        condition.lock()
        defer { condition.unlock() }
        while state.jobs.count >= capacity && state.failure == nil { condition.wait() }
        if let failure = state.failure { throw failure }
        precondition(!state.closed, "a job submitted after finish")
        state.jobs.append(job)
        condition.broadcast()
    }

    /// Waits until every queued job has run and the thread has ended; throws the first job's error, if any.
    func finish() throws(MediaError) {
        condition.lock()
        defer { condition.unlock() }
        state.closed = true
        condition.broadcast()
        while state.running { condition.wait() }
        if let failure = state.failure { throw failure }
    }

    /// Drops what is queued and ends the thread once the job running now returns (an abandoned output).
    func cancel() {
        condition.lock()
        state.jobs.removeAll()
        state.closed = true
        condition.broadcast()
        while state.running { condition.wait() }
        condition.unlock()
    }

    private func run() {
        while true {
            condition.lock()
            while state.jobs.isEmpty && !state.closed { condition.wait() }
            guard !state.jobs.isEmpty else {
                state.running = false
                condition.broadcast()
                condition.unlock()
                return
            }
            let job = state.jobs.removeFirst()
            condition.broadcast()
            condition.unlock()
            do { try job() } catch {
                condition.lock()
                if state.failure == nil { state.failure = error }
                state.jobs.removeAll()
                condition.broadcast()
                condition.unlock()
            }
        }
    }
}
