import Foundation
import Glibc
import MediaCore

/// The threads that feed the video encoder (decoding, scaling, AAC) run a little below it, so that they use the
/// moments its threads wait instead of taking the cores it needs (issue 39).
///
/// On 2 cores a 720p transcode is bound by the CPU, and x264 alone keeps the cores only about 90% busy: its frame
/// threads wait on its lookahead and on each other's rows. Decoding, scaling and AAC at the same priority delay
/// x264's busiest thread as often as they fill those waits; a few nice steps lower they fill the waits first, and
/// the same work ends sooner (docs/BENCHMARKS.md, `transcode`). Nothing else changes: the same frames reach the same
/// encoders in the same order.
///
/// Linux's nice value is per thread, and a thread inherits its creator's: the decoder's frame threads and
/// libswscale's slice threads, started from a lowered thread, are lowered too. An unprivileged process cannot raise
/// a thread back, so only threads made for one job, and ending with it, are ever lowered.
enum FeederPriority {
    /// Nice steps below the thread that starts the job: x264's threads then get about three times a feeder's share
    /// of a core both want.
    static let steps: Int32 = 5

    /// Lowers the calling thread by `steps`; only for a thread of the job's own. (Failing, it stays as it is:
    /// the work is the same either way.)
    static func lowerCurrentThread() {
        _ = nice(steps)
    }

    /// Runs `work` on a new thread named `name`, lowered by `steps`, and waits for it: returns what `work` returns,
    /// throws what it throws. The calling thread (a shared one, perhaps) keeps its priority; what `work` starts
    /// inherits the lowered one.
    static func run<T>(_ name: String, _ work: () throws(MediaError) -> T) throws(MediaError) -> T {
        try withoutActuallyEscaping(work) { (work) throws(MediaError) -> T in
            let job = Job(work)
            let thread = Thread { job.run() }
            thread.name = name
            // As much stack as `runBlocking` gives the job's thread: decoders run on it.
            thread.stackSize = 8 << 20
            thread.start()
            return try job.result()
        }
    }

    /// The work and its outcome, handed to the new thread and back. The caller waits while the thread runs `work`,
    /// so nothing `work` captures is touched by two threads at once; the thread lets go of `work` before the
    /// caller goes on (it must not outlive `run`'s call).
    private final class Job<T>: @unchecked Sendable {
        private var work: (() throws(MediaError) -> T)?
        private var outcome: Result<T, MediaError>?
        private let done = DispatchSemaphore(value: 0)

        init(_ work: @escaping () throws(MediaError) -> T) {
            self.work = work
        }

        func run() {
            FeederPriority.lowerCurrentThread()
            outcome = perform()
            done.signal()
        }

        /// Runs `work` and lets go of it, before `done` lets the caller go on.
        private func perform() -> Result<T, MediaError> {
            let work = work!
            self.work = nil
            return Result { () throws(MediaError) -> T in try work() }
        }

        func result() throws(MediaError) -> T {
            done.wait()
            return try outcome!.get()
        }
    }
}
