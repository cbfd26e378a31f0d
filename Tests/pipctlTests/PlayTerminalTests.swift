import AdPlayback
import MediaCore
import Testing
@testable import pipctl

/// What `play` shows a person and takes from them: events for people, the line being typed kept off the status
/// line's redraws, how far behind real time it runs, and its input split into bounded lines.
@Suite struct PlayTerminalTests {
    static let status = SessionStatus(frame: 30, outputTime: MediaTime(seconds: 1), contentPosition: MediaTime(seconds: 1),
                                      showing: .content(tick: 29), isPaused: false, pictureInPicture: .inactive,
                                      nextBreak: nil, heldBreaks: [])

    @Test func aNativeEventNamesItsPlacementPhaseAndCard() {
        let phase = SessionEvent(.native(.loadPhase(.loading), .init(placement: "feed-slider")), time: 1, frame: 30, contentTime: 1)
        #expect(LiveDisplay.line(phase) == "0:01.000  onAdLoadPhase  native feed-slider: loading")
        let click = SessionEvent(.native(.click(link: "https://shop.example/4"), .init(placement: "feed-slider", card: 3, adID: "shoe-4")),
                                 time: 8, frame: 240, contentTime: 8)
        #expect(LiveDisplay.line(click) == #"0:08.000  onAdClick  native feed-slider: card 3 ("shoe-4")  https://shop.example/4"#)
        let failed = SessionEvent(.native(.failed(.timeout, message: "no answer in 5 s"), .init(placement: "s")), time: 2, frame: 60, contentTime: 2)
        #expect(LiveDisplay.line(failed) == "0:02.000  onAdFailure  native s: timeout  no answer in 5 s")
    }

    /// The terminal does not echo what is typed (`TerminalInput`): the display draws it after the status, at once
    /// when it changes, and every redraw of the status keeps it, so the status line never overwrites typed input.
    @Test func theLineBeingTypedIsDrawnAfterTheStatusAndKeptByEachRedraw() {
        let output = CapturedText(isTerminal: true), errors = CapturedText(isTerminal: true)
        let display = LiveDisplay(output: output, errorOutput: errors)
        display.update(Self.status, typed: "")
        display.update(Self.status, typed: "pi")
        display.update(Self.status, typed: "pip o")
        display.printNotice("unknown command 'x'")
        display.update(Self.status, typed: "pip o")
        let draws = errors.contents.components(separatedBy: "\r\u{1B}[K").filter { !$0.isEmpty }
        let status = Self.status.description
        #expect(draws == [status + " > ", status + " > pi", status + " > pip o", "unknown command 'x'\n", status + " > pip o"])
    }

    @Test func playBehindRealTimeSaysSoWithTheSpeedItAchieved() {
        let start = ContinuousClock.now
        var pace = PlayCommand.PlayPace(start: start, speed: Rational(1), rate: Rational(30))
        // 30 frames in 1.2 s: 0.2 s late, within the threshold.
        #expect(pace.behind(frames: 30, now: start + .milliseconds(1200)) == nil)
        #expect(pace.summary(frames: 30, now: start + .milliseconds(1200)) == nil)
        // 90 frames (3 s of output) in 6 s: 3 s late, at half speed.
        #expect(pace.behind(frames: 90, now: start + .seconds(6)) == "behind 3 s: 0.5x real time")
        #expect(pace.summary(frames: 135, now: start + .seconds(10)) == "played at 0.45x real time, slower than the 1x asked "
            + "(this machine could not decode, compose and show the frames in time)")
        #expect(pace.due(frames: 45) == start + .milliseconds(1500))
    }

    @Test func typedInputIsEditedAsATerminalWould() {
        var splitter = LineSplitter(editing: true)
        #expect(splitter.take(Array("pip onn".utf8) + [0x7F]).isEmpty && splitter.typed == "pip on")
        #expect(splitter.take([0x1B] + Array("[D".utf8) + [0x09]) == [] && splitter.typed == "pip on\t", "an arrow key is ignored")
        #expect(splitter.take([0x7F, 0x0D]) == [.line("pip on")])
        #expect(splitter.take(Array("séek".utf8) + [0x7F, 0x7F, 0x7F]) == [] && splitter.typed == "s")
        #expect(splitter.take([0x15] + Array("quit\n".utf8)) == [.line("quit")])
        #expect(splitter.take([0x04, 0x70]) == [.end], "Ctrl-D on an empty line ends the input")
    }

    @Test func pipedLinesAreBoundedAndCRLFEndsALine() {
        var splitter = LineSplitter(editing: false)
        #expect(splitter.take(Array("pause\r\nresume\n".utf8)) == [.line("pause"), .line("resume")])
        let long = [UInt8](repeating: UInt8(ascii: "x"), count: LineSplitter.maximumLineBytes + 1)
        #expect(splitter.take(long).isEmpty && splitter.pending.isEmpty, "nothing past the limit is held")
        #expect(splitter.take(long + Array("\nskip".utf8)) == [.tooLong])
        #expect(splitter.finish() == .line("skip"))
    }
}
