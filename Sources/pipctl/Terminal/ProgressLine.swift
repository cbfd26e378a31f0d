import Foundation
import MediaCore

/// A one-line progress report for long work, redrawn in place on standard error:
/// `render 0:12 / 1:00 (20%)  2.4x real time  ETA 0:20`.
///
/// It draws only on a terminal (scripts and logs stay quiet), at most once per `minimumInterval` so that a fast
/// loop does not flood the terminal, and `finish()` ends the line with a newline. Safe to call from any thread.
final class ProgressLine: Sendable {
    private struct State {
        let start: ContinuousClock.Instant
        var lastDraw: ContinuousClock.Instant?
        var position: MediaDuration = .zero
        /// Width of the last line drawn, for terminals that cannot clear to the end of the line.
        var drawnWidth = 0
        var finished = false
    }

    let label: String
    /// The length of the work on the media clock, when known (enables the percentage and the ETA).
    let total: MediaDuration?
    /// False when the sink is not a terminal: every call then does nothing.
    let isEnabled: Bool
    private let sink: any TextSink
    private let clearsToEndOfLine: Bool
    private let minimumInterval: Duration
    private let clock: any WallClock
    private let state: LockedState<State>

    /// - Parameters:
    ///   - sink: where to draw, standard error normally; nothing is drawn unless it is a terminal.
    ///   - environment: read for `TERM=dumb`, where the line is padded with spaces instead of cleared.
    ///   - minimumInterval: the shortest time between two redraws.
    ///   - clock: the clock for speed, ETA and throttling (a `ManualClock` in tests).
    init(label: String, total: MediaDuration?, sink: any TextSink,
         environment: [String: String] = ProcessInfo.processInfo.environment,
         minimumInterval: Duration = .milliseconds(100),
         clock: any WallClock = SystemClock()) {
        self.label = label
        self.total = total
        self.sink = sink
        self.isEnabled = sink.isTerminal
        self.clearsToEndOfLine = Terminal.supportsControlSequences(environment: environment)
        self.minimumInterval = minimumInterval
        self.clock = clock
        self.state = LockedState(State(start: clock.now))
    }

    /// Reports that the work has reached `position` on the media clock; redraws unless the last redraw was less
    /// than `minimumInterval` ago. The speed is measured from the line's creation.
    func update(position: MediaDuration) {
        guard isEnabled else { return }
        let instant = clock.now
        let line: String? = state.withLock { state in
            guard !state.finished else { return nil }
            state.position = position
            if let last = state.lastDraw, instant - last < minimumInterval { return nil }
            state.lastDraw = instant
            return draw(&state, elapsed: instant - state.start)
        }
        if let line { sink.write(line) }
    }

    /// Draws the final state and ends the line, if anything was drawn. Later calls do nothing.
    func finish() {
        guard isEnabled else { return }
        let instant = clock.now
        let line: String? = state.withLock { state in
            guard !state.finished else { return nil }
            state.finished = true
            guard state.lastDraw != nil else { return nil }
            return draw(&state, elapsed: instant - state.start) + "\n"
        }
        if let line { sink.write(line) }
    }

    private func draw(_ state: inout State, elapsed: Duration) -> String {
        let text = ProgressLine.format(label: label, position: state.position, total: total, elapsed: elapsed)
        defer { state.drawnWidth = text.count }
        if clearsToEndOfLine { return "\r" + text + "\u{1B}[K" }
        return "\r" + text + String(repeating: " ", count: max(0, state.drawnWidth - text.count))
    }

    /// The text of the line: position, total and percentage, speed as a multiple of real time, time left.
    /// Speed and ETA appear once some wall time has passed and some media has been processed.
    static func format(label: String, position: MediaDuration, total: MediaDuration?, elapsed: Duration) -> String {
        var parts = [label + " " + clock(position.seconds.doubleValue)]
        if let total, total > .zero {
            let fraction = min(1, max(0, position.seconds.doubleValue / total.seconds.doubleValue))
            parts[0] += " / " + clock(total.seconds.doubleValue) + " (\(Int(fraction * 100))%)"
        }
        let wall = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let media = position.seconds.doubleValue
        if wall >= 0.05, media > 0 {
            let speed = media / wall
            parts.append(String(format: "%.1fx real time", speed))
            if let total, total > position {
                parts.append("ETA " + clock((total.seconds.doubleValue - media) / speed))
            }
        }
        return parts.joined(separator: "  ")
    }

    /// `m:ss`, or `h:mm:ss` from an hour on, seconds rounded down.
    static func clock(_ seconds: Double) -> String {
        let total = Int(max(0, seconds).rounded(.down))
        let h = total / 3600, m = total / 60 % 60, s = total % 60
        let ss = s < 10 ? "0\(s)" : "\(s)"
        if h > 0 { return "\(h):" + (m < 10 ? "0\(m)" : "\(m)") + ":" + ss }
        return "\(m):" + ss
    }
}
