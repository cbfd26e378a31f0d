import MediaCore
import VideoPipeline

extension CommandContext {
    /// Progress (on a terminal) and interruption (SIGINT/SIGTERM) for a job counted in frames of `rate`.
    func jobControl(_ progress: ProgressLine, rate: FrameRate) -> JobControl {
        JobControl(progress: { done, _ in progress.update(position: rate.time(ofFrame: done) - .zero) },
                   isCancelled: { interrupt.isSet })
    }

    /// Turns a job stopped by the interrupt flag into `Interrupted` (exit 128 + signal); rethrows anything else.
    func rethrowing(_ error: any Error, interrupted: Bool) throws -> Never {
        if interrupted { try interrupt.checkpoint() }
        throw error
    }
}
