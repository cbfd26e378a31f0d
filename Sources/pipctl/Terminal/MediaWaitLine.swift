import AdPlayback
import Foundation
import MediaCore
import Rendering

/// A line on standard error while a render or `play` waits for an ad's media download:
/// `waiting for media http://ads.example/ad.mp4: 1.2 MiB, 0:03`.
///
/// Drawn only on a terminal, over the progress or status line, which redraws itself once the wait is over.
final class MediaWaitLine: Sendable {
    private let sink: any TextSink
    private let clearsToEndOfLine: Bool

    init(sink: any TextSink, environment: [String: String]) {
        self.sink = sink
        clearsToEndOfLine = Terminal.supportsControlSequences(environment: environment)
    }

    /// Draws the wait (the downloads report one about ten times a second), or erases it when the wait has
    /// ended, so that what is printed next starts on a clean line.
    func update(_ wait: MediaDownloads.Wait) {
        guard sink.isTerminal else { return }
        let text = MediaWaitLine.format(wait)
        if wait.ended {
            sink.write(clearsToEndOfLine ? "\r\u{1B}[K" : "\r" + String(repeating: " ", count: text.count) + "\r")
        } else {
            sink.write("\r" + text + (clearsToEndOfLine ? "\u{1B}[K" : ""))
        }
    }

    /// The text of the line: the URL, the bytes so far in MiB (one decimal), and the time waited.
    static func format(_ wait: MediaDownloads.Wait) -> String {
        let tenths = wait.receivedBytes * 10 / (1 << 20)
        let seconds = Double(wait.elapsed.components.seconds)
        return "waiting for media \(wait.url.absoluteString): \(tenths / 10).\(tenths % 10) MiB, \(ProgressLine.clock(seconds))"
    }
}
