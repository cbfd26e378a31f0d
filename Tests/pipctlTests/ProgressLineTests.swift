import MediaCore
import Testing
@testable import pipctl

@Suite struct ProgressLineTests {
    func seconds(_ s: Int64) -> MediaDuration { MediaDuration(seconds: s) }

    @Test func formatsPositionTotalSpeedAndTimeLeft() {
        let text = ProgressLine.format(label: "render", position: seconds(12), total: seconds(60), elapsed: .seconds(5))
        #expect(text == "render 0:12 / 1:00 (20%)  2.4x real time  ETA 0:20")
        let long = ProgressLine.format(label: "render", position: seconds(3_725), total: nil, elapsed: .seconds(3_725))
        #expect(long == "render 1:02:05  1.0x real time")
        #expect(ProgressLine.format(label: "x", position: .zero, total: seconds(10), elapsed: .zero) == "x 0:00 / 0:10 (0%)")
    }

    @Test func drawsNothingWhenNotOnATerminal() {
        let sink = CapturedText(isTerminal: false)
        let line = ProgressLine(label: "render", total: seconds(10), sink: sink, environment: [:])
        line.update(position: seconds(1))
        line.finish()
        #expect(sink.contents.isEmpty)
    }

    @Test func redrawsAtMostOncePerIntervalAndEndsWithANewline() {
        let sink = CapturedText(isTerminal: true)
        let clock = ManualClock()
        let line = ProgressLine(label: "render", total: seconds(10), sink: sink, environment: ["TERM": "xterm"],
                                minimumInterval: .milliseconds(100), clock: clock)
        for step in 0..<10 {  // every 30 ms: redraws at 0, 120, 240 ms
            line.update(position: MediaDuration(seconds: Rational(Int64(step), 10)))
            clock.advance(by: .milliseconds(30))
        }
        #expect(sink.contents.filter { $0 == "\r" }.count == 3)
        line.finish()
        #expect(sink.contents.filter { $0 == "\r" }.count == 4)
        #expect(sink.contents.hasSuffix("\u{1B}[K\n"))
        line.update(position: seconds(10))
        #expect(sink.contents.hasSuffix("\n"), "nothing is drawn after finish")
    }

    @Test func measuresSpeedFromCreationAndDrawsNothingIfNeverUpdated() {
        let sink = CapturedText(isTerminal: true)
        let clock = ManualClock()
        let line = ProgressLine(label: "testsrc", total: seconds(10), sink: sink, environment: [:], clock: clock)
        clock.advance(by: .seconds(2))
        line.update(position: seconds(4))
        line.finish()
        #expect(sink.contents == "\rtestsrc 0:04 / 0:10 (40%)  2.0x real time  ETA 0:03\u{1B}[K"
                + "\rtestsrc 0:04 / 0:10 (40%)  2.0x real time  ETA 0:03\u{1B}[K\n")
        let idle = CapturedText(isTerminal: true)
        ProgressLine(label: "x", total: nil, sink: idle, environment: [:]).finish()
        #expect(idle.contents.isEmpty)
    }

    @Test func padsWithSpacesOnATerminalThatCannotClear() {
        let sink = CapturedText(isTerminal: true)
        let clock = ManualClock()
        let line = ProgressLine(label: "render", total: nil, sink: sink, environment: ["TERM": "dumb"],
                                minimumInterval: .zero, clock: clock)
        clock.advance(by: .seconds(1))
        line.update(position: seconds(100))
        clock.advance(by: .seconds(1))
        line.update(position: seconds(101))
        let drawn = sink.contents.split(separator: "\r").map(String.init)
        #expect(!sink.contents.contains("\u{1B}"))
        #expect(drawn.count == 2 && drawn[1].count >= drawn[0].count)
    }
}
