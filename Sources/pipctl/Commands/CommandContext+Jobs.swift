import AdPlayback
import MediaCore
import Rendering
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

extension CommandContext {
    /// Waits for the beacons not yet due, then (up to ten seconds) for those still in flight, and says what
    /// became of them, every retry included.
    func finish(_ beacons: BeaconSender?) async {
        guard let beacons else { return }
        let summary = await beacons.finish(grace: .seconds(10))
        errorOutput.write("\(command): beacons: \(summary.sent) sent, \(summary.failures.count) failed, \(summary.dropped) dropped"
            + (summary.retries.isEmpty ? "" : ", \(summary.retries.count) retried") + "\n")
        for retry in summary.retries.prefix(5) { warn("beacon retried (could not connect) \(retry)") }
        for failure in summary.failures.prefix(5) { warn("beacon \(failure)") }
    }
}

extension CommandContext {
    /// While the render waits for an ad's media: a wait line on a terminal; Ctrl-C or SIGTERM stops every
    /// download and ends the wait at once, so that the render stops at its next frame.
    func watchMediaDownloads(_ downloads: MediaDownloads) {
        let line = MediaWaitLine(sink: errorOutput, environment: environment)
        downloads.setWaitObserver { line.update($0) }
        interrupt.onInterrupt { _ in downloads.cancel() }
    }
}
