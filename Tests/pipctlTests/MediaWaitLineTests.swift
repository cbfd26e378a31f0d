import AdPlayback
import Foundation
import Rendering
import Testing
@testable import pipctl

/// The line a render shows on a terminal while it waits for an ad's media.
@Suite struct MediaWaitLineTests {
    static let wait = MediaDownloads.Wait(url: URL(string: "http://127.0.0.1:8080/ad.mp4")!, receivedBytes: 1_300_000,
                                          elapsed: .milliseconds(3_400))

    @Test func saysWhichMediaHowMuchHasArrivedAndForHowLong() {
        #expect(MediaWaitLine.format(Self.wait) == "waiting for media http://127.0.0.1:8080/ad.mp4: 1.2 MiB, 0:03")
    }

    @Test func drawsOverTheProgressLineOnATerminalOnly() {
        let terminal = CapturedText(isTerminal: true)
        MediaWaitLine(sink: terminal, environment: ["TERM": "xterm"]).update(Self.wait)
        #expect(terminal.contents == "\rwaiting for media http://127.0.0.1:8080/ad.mp4: 1.2 MiB, 0:03\u{1B}[K")
        let pipe = CapturedText(isTerminal: false)
        MediaWaitLine(sink: pipe, environment: [:]).update(Self.wait)
        #expect(pipe.contents.isEmpty)
    }

    @Test func takesItselfAwayWhenTheWaitEndsSoTheNextLineStartsClean() {
        var ended = Self.wait
        ended.ended = true
        let terminal = CapturedText(isTerminal: true)
        MediaWaitLine(sink: terminal, environment: ["TERM": "xterm"]).update(ended)
        #expect(terminal.contents == "\r\u{1B}[K")
        // A terminal without control sequences gets the line overwritten with spaces.
        let dumb = CapturedText(isTerminal: true)
        MediaWaitLine(sink: dumb, environment: ["TERM": "dumb"]).update(ended)
        #expect(dumb.contents == "\r" + String(repeating: " ", count: MediaWaitLine.format(ended).count) + "\r")
    }
}
