import Foundation
import MediaCore
import Batch

/// The batch's progress on a terminal, after each job's line: `batch 5/8 done (1 failed)  2:14 elapsed`. Logs and
/// scripts do not get it: they read the per-job lines and the summary.
final class BatchProgress: Sendable {
    private struct State {
        var done: Int
        var failed = 0
    }

    let total: Int
    private let sink: any TextSink
    private let clears: Bool
    private let clock: any WallClock
    private let start: ContinuousClock.Instant
    private let state: LockedState<State>

    init(total: Int, done: Int, sink: any TextSink, environment: [String: String], clock: any WallClock = SystemClock()) {
        self.clock = clock
        start = clock.now
        self.total = total
        self.sink = sink
        clears = Terminal.supportsControlSequences(environment: environment)
        state = LockedState(State(done: done))
    }

    /// Counts a finished job and redraws.
    func finished(_ result: BatchSummary.JobResult) {
        guard sink.isTerminal else { return }
        let text: String = state.withLock { state in
            state.done += 1
            if result.status.isFailure { state.failed += 1 }
            return line(state)
        }
        sink.write("\r" + text + (clears ? "\u{1B}[K" : "") + "\n")
    }

    private func line(_ state: State) -> String {
        let elapsed = clock.now - start
        let seconds = Double(elapsed.components.seconds)
        return "batch \(state.done)/\(total) done" + (state.failed > 0 ? " (\(state.failed) failed)" : "")
            + "  " + ProgressLine.clock(seconds) + " elapsed"
    }
}
