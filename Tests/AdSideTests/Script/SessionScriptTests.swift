@testable import AdPlayback
@testable import AdScreen
import MediaCore
import Testing

@Suite struct SessionScriptTests {
    @Test func parsesTheIssueExample() throws {
        let script = try SessionScript(parsing: "pip on@12; pip off@20.5; seek 30@40; pause@50; resume@52; skip@61; pip@70")
        #expect(script.commands == [
            TimedCommand(time: seconds(12), command: .startPictureInPicture),
            TimedCommand(time: seconds(Rational(41, 2)), command: .stopPictureInPicture),
            TimedCommand(time: seconds(40), command: .seek(seconds(30))),
            TimedCommand(time: seconds(50), command: .pause),
            TimedCommand(time: seconds(52), command: .resume),
            TimedCommand(time: seconds(61), command: .skip),
            TimedCommand(time: seconds(70), command: .togglePictureInPicture),
        ])
    }

    @Test(arguments: [
        ("pip@1", SessionCommand.togglePictureInPicture, Rational(1)),
        ("  PIP   ON @ 00:00:01.5 ", .startPictureInPicture, Rational(3, 2)),
        ("pip off@1:02", .stopPictureInPicture, Rational(62)),
        ("seek 1:00:00.001@0", .seek(MediaTime(seconds: Rational(3_600_001, 1000))), Rational.zero),
        ("seek 1001/30@2", .seek(MediaTime(seconds: Rational(1001, 30))), Rational(2)),
        ("pause@0.1", .pause, Rational(1, 10)),
        ("resume@401/30", .resume, Rational(401, 30)),
        ("skip@61", .skip, Rational(61)),
        ("quit@01:00:00", .quit, Rational(3600)),
    ])
    func parsesEachCommandAndTimeForm(text: String, command: SessionCommand, time: Rational) throws {
        #expect(try TimedCommand(parsing: text) == TimedCommand(time: MediaTime(seconds: time), command: command))
    }

    @Test func separatesBySemicolonsAndLinesAndIgnoresBlanksAndComments() throws {
        let script = try SessionScript(parsing: """
            # warm-up
            pip on@1;;  ;pip off@2   # back
            skip@3;

            quit@4
            """)
        #expect(script.commands.map(\.command) == [.startPictureInPicture, .stopPictureInPicture, .skip, .quit])
    }

    @Test func ordersByTimeKeepingTheWrittenOrderAtEqualTimes() throws {
        let script = try SessionScript(parsing: "quit@9; pip on@2; pip off@2; pause@1")
        #expect(script.commands.map(\.command) == [.pause, .startPictureInPicture, .stopPictureInPicture, .quit])
    }

    @Test(arguments: [
        ("pip on", ScriptError.missingTime(command: "pip on")),
        ("pip on@1@2", .missingTime(command: "pip on@1@2")),
        ("pip on@soon", .badTime(command: "pip on@soon", time: "soon")),
        ("pip on@-1", .badTime(command: "pip on@-1", time: "-1")),
        ("pip on@-1/2", .badTime(command: "pip on@-1/2", time: "-1/2")),
        ("pip on@1:75", .badTime(command: "pip on@1:75", time: "1:75")),
        ("jump@3", .unknownCommand(command: "jump@3")),
        ("pip maybe@3", .badArgument(command: "pip maybe@3", detail: "pip takes nothing, \"on\" or \"off\"")),
        ("seek@3", .badArgument(command: "seek@3", detail: "seek takes one content time, as in \"seek 1:30\"")),
        ("seek x@3", .badTime(command: "seek x@3", time: "x")),
        ("pause now@3", .badArgument(command: "pause now@3", detail: "pause takes no argument")),
    ])
    func namesTheOffendingCommandAndWhatIsWrong(text: String, expected: ScriptError) {
        #expect(throws: expected) { try SessionScript(parsing: "pip@0; \(text); quit@9") }
    }

    @Test func aPlayerCommandMayNameItsScenesPlayer() throws {
        let script = try SessionScript(parsing: "pip on in side@1; Seek 30 in side@2; pause in Side@3; pip@4")
        #expect(script.commands.map(\.command) == [.startPictureInPicture, .seek(seconds(30)), .pause, .togglePictureInPicture])
        #expect(script.commands.map(\.scene) == ["side", "side", "Side", nil])
        #expect(try SessionScript(parsing: script.formatted()) == script)
        #expect(script.formatted() == "pip on in side@1; seek 30 in side@2; pause in Side@3; pip@4")
        // A screen command or quit is the whole session's: "in" is not read there.
        #expect(throws: ScriptError.self) { try SessionScript(parsing: "quit in side@3") }
    }

    @Test func aSceneThatIsUnknownOrHasNoPlayerIsNamed() throws {
        let screen = ScreenState(device: .iPad11, scenes: [.init(id: "main"), .init(id: "side")])
        #expect(throws: ScriptError.badScene(command: "pip on in nowhere@1", detail: "no scene \"nowhere\" (scenes with a player: \"main\")")) {
            try SessionScript(parsing: "pip on in nowhere@1").checkScenes(players: ["main"], scenes: screen.scenes.map(\.id))
        }
        let error = ScriptError.badScene(command: "pause in side@2", detail: "scene \"side\" has no player")
        #expect(throws: error) { try SessionScript(parsing: "pause in side@2").checkScenes(players: ["main"], scenes: screen.scenes.map(\.id)) }
        #expect(error.description == "script command \"pause in side@2\": scene \"side\" has no player")
        try SessionScript(parsing: "pause in side@2; pip@3").checkScenes(players: ["main", "side"], scenes: screen.scenes.map(\.id))
    }

    @Test func errorMessagesAreOneLineNamingTheCommand() {
        let error = ScriptError.badTime(command: "seek x@3", time: "x")
        #expect(error.description == "script command \"seek x@3\": \"x\" is not a time; write seconds (12.5), hh:mm:ss.mmm or a fraction (1001/30)")
        #expect(!ScriptError.unknownCommand(command: "jump@3").description.contains("\n"))
    }

    @Test func parsesLiveCommandsWithoutTimes() throws {
        #expect(try SessionCommand(parsing: "Seek 90") == .seek(seconds(90)))
        #expect(try SessionCommand(parsing: "pip") == .togglePictureInPicture)
        #expect(throws: ScriptError.unknownCommand(command: "pip@3")) { try SessionCommand(parsing: "pip@3") }
    }

    @Test(arguments: [FrameRate(30000, 1001), FrameRate(25), FrameRate(24), FrameRate(10)])
    func formatsExactTimesThatParseBackToTheSameScript(rate: FrameRate) throws {
        let commands: [SessionCommand] = [.startPictureInPicture, .seek(rate.time(ofFrame: 12_345)), .pause, .resume,
                                          .skip, .togglePictureInPicture, .stopPictureInPicture, .quit]
        let script = SessionScript(commands.enumerated().map { i, command in
            TimedCommand(time: rate.time(ofFrame: Int64(i) * 401 + 7), command: command)
        })
        let text = script.formatted()
        #expect(try SessionScript(parsing: text) == script)
    }

    /// Every form of time stops below 10^15 s, the most whole digits seconds read, so that what parses is written
    /// back in a form that reads again (`scripts/fuzz script` found a fraction written as 18 digits).
    @Test(arguments: ["pip on@02000000000000000000/00020", "pip on@1000000000000000/1", "pip on@1000000000000000",
                      "pip on@277777777778:00:00", "seek 2000000000000000/2@1"])
    func aTimeFromTenToTheFifteenSecondsOnIsRefusedInEveryForm(text: String) {
        #expect(throws: ScriptError.self) { try SessionScript(parsing: text) }
    }

    @Test(arguments: ["pip on@999999999999999", "pip on@999999999999999/4096", "pip on@277777777777:46:39.5",
                      "seek 999999999999999/7@1", "pip on@0.000244140625"])
    func aTimeJustBelowTheLimitIsWrittenBackInAFormThatReadsAgain(text: String) throws {
        let script = try SessionScript(parsing: text)
        #expect(try SessionScript(parsing: script.formatted()) == script, "\(script.formatted())")
    }

    @Test func writesDecimalsWhenTheyAreExactAndFractionsOtherwise() {
        let script = SessionScript([
            TimedCommand(time: seconds(Rational(41, 2)), command: .seek(seconds(Rational(1001, 30)))),
            TimedCommand(time: FrameRate(30).time(ofFrame: 401), command: .skip),
        ])
        #expect(script.formatted() == "skip@401/30; seek 1001/30@20.5")
    }

    @Test(arguments: [FrameRate(30000, 1001), FrameRate(30), FrameRate(24), FrameRate(60)])
    func snappedFormatIsReadableAndAppliesAtTheSameFrames(rate: FrameRate) throws {
        let frames: [Int64] = [0, 1, 2, 29, 30, 401, 1799, 1800, 107_892]
        let script = SessionScript(frames.map { TimedCommand(time: rate.time(ofFrame: $0), command: .seek(rate.time(ofFrame: $0))) })
        let reparsed = try SessionScript(parsing: script.formatted(frameRate: rate))
        #expect(reparsed.commands.map { rate.firstFrame(atOrAfter: $0.time) } == frames)
        #expect(reparsed.commands.map { command -> Int64 in
            guard case .seek(let target) = command.command else { return -1 }
            return rate.firstFrame(atOrAfter: target)
        } == frames)
        #expect(!script.formatted(frameRate: rate).contains("/"))
    }

    @Test func snapsToTheFewestDigits() {
        let script = SessionScript([TimedCommand(time: FrameRate(30).time(ofFrame: 401), command: .pause),
                                    TimedCommand(time: FrameRate(30).time(ofFrame: 30), command: .resume)])
        #expect(script.formatted(frameRate: FrameRate(30)) == "resume@1; pause@13.36")
    }
}
