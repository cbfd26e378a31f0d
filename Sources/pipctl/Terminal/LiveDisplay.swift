import AdPlayback
import Foundation
import MediaCore
import Rendering
import Synchronization

/// What `pipctl play` shows while it runs: every event as it happens (standard output) and, on a terminal, a
/// status line kept at the bottom (standard error), redrawn at most ten times a second.
///
/// On a terminal events are lines for people (`0:12.400 AD_BREAK_STARTED break 1`); otherwise they are the
/// event log's JSON lines, for scripts. Before printing events the status line is cleared, so that the two never
/// mix on one line; the next `update` draws it again at once, with the state those events led to.
final class LiveDisplay: SessionEventObserver {
    private let output: any TextSink
    private let errorOutput: any TextSink
    private let drawsStatus: Bool
    /// The session's clock (`play --step`'s moves only when told), for the redraws' pace.
    private let clock: any WallClock
    private var lastDraw: ContinuousClock.Instant?
    private var statusShown = false
    private var status = ""
    /// What the user is typing (`CommandReader.typed`), drawn after the status: the terminal does not echo it.
    private var typed: String?
    /// How far play is behind real time, when it is (`PlayPace`).
    private var pace: String?

    init(output: any TextSink, errorOutput: any TextSink, clock: any WallClock = SystemClock()) {
        self.clock = clock
        self.output = output
        self.errorOutput = errorOutput
        drawsStatus = errorOutput.isTerminal
    }

    func session(didRecord events: [SessionEvent]) {
        clearStatus()
        var text = ""
        for event in events {
            text += (output.isTerminal ? LiveDisplay.line(event) : event.jsonLine) + "\n"
        }
        output.write(text)
        // Not redrawn here: events arrive during a frame, before `update` has the status they lead to, and the
        // old status under a PIP_DID_START would say that picture-in-picture is off.
    }

    /// Updates the status line (on a terminal): the session's status, then how far play is behind real time
    /// (`pace`, when it is), then the line being typed (`typed`, when standard input is that terminal). A change
    /// of what is typed is drawn at once.
    func update(_ status: SessionStatus, pace: String? = nil, typed: String? = nil) {
        let typedChanged = typed != self.typed
        self.status = status.description + (pace.map { " | " + $0 } ?? "")
        self.typed = typed
        drawStatus(force: typedChanged)
    }

    /// Prints the status once on standard output (the `status` command).
    func printStatus(_ status: SessionStatus) {
        clearStatus()
        output.write("status: \(status)\n")
        drawStatus(force: true)
    }

    /// `play --step`: says on standard output, after the events of the frames played, that the session has played to
    /// `time` and waits for its clock to move again: `stepped to 0:00:02.500`.
    func printStep(_ time: MediaTime) {
        clearStatus()
        output.write("stepped to \(time)\n")
        drawStatus(force: true)
    }

    /// Prints a message for the user (`unknown command …`) on standard error, on a line of its own.
    func printNotice(_ message: String) {
        clearStatus()
        errorOutput.write(message + "\n")
    }

    /// Leaves the status line for good.
    func finish() {
        if statusShown { errorOutput.write("\n") }
        statusShown = false
    }

    private func clearStatus() {
        guard drawsStatus, statusShown else { return }
        errorOutput.write("\r\u{1B}[K")
        statusShown = false
    }

    private func drawStatus(force: Bool) {
        guard drawsStatus, !status.isEmpty else { return }
        let now = clock.now
        if !force, statusShown, let last = lastDraw, now - last < .milliseconds(100) { return }
        lastDraw = now
        errorOutput.write("\r\u{1B}[K" + status + (typed.map { " > " + $0 } ?? ""))
        statusShown = true
    }

    /// `0:12.400  AD_BREAK_STARTED  break 1 ad 0  code 405  pipActive  message`; a native placement's event names
    /// it, its load phase or failure and its card: `0:01.000  onAdLoadPhase  native feed-slider: loading`.
    static func line(_ event: SessionEvent) -> String {
        var parts = [ProgressLine.clock(event.time) + String(format: ".%03d", Int((event.time * 1000).rounded()) % 1000), event.type.rawValue]
        let line = event.columns
        if let b = line.breakIndex { parts.append("break \(b)" + (line.adIndex.map { " ad \($0)" } ?? "")) }
        if let placement = line.native.placement {
            // `native feed-slider: loading`, `native feed-slider: card 3 ("shoe-4")`
            let detail = [line.native.phase?.rawValue, line.native.failure?.rawValue,
                          line.native.card.map { "card \($0)" + (line.native.adID.map { " (\"\($0)\")" } ?? "") }].compactMap { $0 }
            parts.append("native \(placement)" + (detail.isEmpty ? "" : ": " + detail.joined(separator: " ")))
        }
        if let e = line.event { parts.append(e.rawValue) }
        if let code = line.code { parts.append("code \(code)") }
        if let reason = line.reason { parts.append(reason.rawValue) }
        if let message = line.message { parts.append(message) }
        if let url = line.url { parts.append(url) }
        return parts.joined(separator: "  ")
    }
}
