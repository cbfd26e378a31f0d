import Foundation
import Testing

extension EndToEnd {
    /// `pipctl play` driven as a script drives it (a pipe) and as a person does (a terminal), and the command log it
    /// records replayed by `pipctl render`.
    ///
    /// The tests that type commands play with `--step`: the session's clock moves only when the test says `advance`,
    /// so a slow machine only makes them slower, and each command lands at the frame after the time reached. They
    /// check what follows from the commands, and the replay checks the frames against the recording.
    @Suite struct PlayTests {
        static func session() async throws -> [String] {
            ["--content", try await TestClip.long.path, "--break", "pre=\(try await TestClip.adA.path)",
             "--break", "3=\(try await TestClip.adB.path)"]
        }

        @Test func playsThroughAPipeAndItsCommandLogReplaysToTheSameFrames() async throws {
            let dir = try ScratchDirectory()
            let recording = dir.path("rec.mp4")
            let session = try await Self.session()
            let play = try SteppedPlay(["play"] + session + ["--record", recording, "--preset", "ultrafast"])
            try await play.advance(untilShown: #""type":"CONTENT_RESUME_REQUESTED""#, step: 500)
            try play.type("pip on\n")
            try await play.advance(untilShown: #""type":"PIP_DID_START""#)
            try play.type("status\nbogus\n")
            try await play.advance(untilShown: "\nstatus: ")
            try await play.advance(untilShown: "bogus", onStandardError: true)
            try play.type("pip off\n")
            try await play.advance(untilShown: #""type":"PIP_DID_STOP""#)
            let result = try await play.quit()

            #expect(result.exitStatus == 0, "\(result.standardError)")
            #expect(result.errorLines == [
                "unknown command 'bogus'; commands: pip | pip on | pip off | seek T | pause | resume | skip | click | status | quit | advance T",
            ])
            // Standard output is a pipe: events are the event log's JSON lines, plus the one status line asked for and
            // --step's lines, one for each advance.
            let lines = result.standardOutput.split(separator: "\n").map(String.init)
            let statusLines = lines.filter { $0.hasPrefix("status: ") }
            #expect(statusLines.count == 1)
            #expect(statusLines.first?.contains("PiP active") == true, "\(statusLines)")
            let steps = lines.filter { $0.hasPrefix("stepped to ") }
            #expect(steps.last == "stepped to \(SteppedPlay.clock(play.milliseconds))", "\(steps)")
            let eventLines = lines.filter { !$0.hasPrefix("status: ") && !$0.hasPrefix("stepped to ") }
            let events = try eventLines.map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
            let names = events.map { event in
                (event["type"] as? String ?? "?") + ((event["message"] as? String).map { " " + $0 } ?? "")
            }
            let order = ["COMMAND pip on", "PIP_WILL_START", "PIP_DID_START", "COMMAND pip off", "PIP_DID_STOP", "COMMAND quit",
                         "SESSION_ENDED"]
            let positions = order.map { names.firstIndex(of: $0) }
            #expect(!positions.contains(nil), "\(names)")
            #expect(positions.compactMap { $0 } == positions.compactMap { $0 }.sorted(), "\(names)")
            #expect(events.last?["type"] as? String == "SESSION_ENDED")
            #expect(events.last?["reason"] as? String == "quit")
            // What was printed is what was logged.
            #expect(eventLines == (try dir.text("rec.mp4.events.jsonl")).split(separator: "\n").map(String.init))
            #expect(dir.entries() == ["rec.mp4", "rec.mp4.commands.txt", "rec.mp4.events.jsonl", "rec.mp4.timeline.json"])
            let commands = try dir.text("rec.mp4.commands.txt")
            #expect(commands.contains(/^pip on@[0-9.]+; pip off@[0-9.]+; quit@[0-9.]+\n$/), "\(commands)")

            // The command log in --script makes the same session frame for frame.
            let replay = dir.path("replay.mp4")
            let rendered = try await PipctlProcess.run(["render"] + session + ["--script", "@" + recording + ".commands.txt",
                                                                               "-o", replay, "--preset", "ultrafast"])
            #expect(rendered.exitStatus == 0, "\(rendered.standardError)")
            let recorded = try Self.timeline(recording), replayed = try Self.timeline(replay)
            #expect(recorded.frames == replayed.frames)
            #expect(recorded.segments == replayed.segments)
            let recordedStamps = try await PipctlProcess.run(["stamps", recording])
            let replayedStamps = try await PipctlProcess.run(["stamps", replay])
            #expect(recordedStamps.exitStatus == 0)
            #expect(recordedStamps.standardOutput == replayedStamps.standardOutput)
        }

        @Test func aCommandLogThatCannotBeWrittenStopsPlayBeforeItRecordsAnything() async throws {
            let dir = try ScratchDirectory()
            let log = dir.path("nope/commands.txt")
            let result = try await PipctlProcess.run(["play"] + (try await Self.session()) + [
                "--speed", "20", "--record", dir.path("rec.mp4"), "--command-log", log, "--preset", "ultrafast",
            ])
            #expect(result.exitStatus == 1)
            #expect(result.standardOutput.isEmpty)
            #expect(result.errorLines == ["pipctl play: \(log): cannot write the output: the directory \(dir.path("nope")) does not exist"])
            #expect(dir.entries() == [])
        }

        /// 100,000 piped commands (the issue's 96 s for a 2.5 s session: the work was quadratic): play takes them in
        /// work proportional to their number, keeps as many as `render --script` replays (10,000) with one line
        /// saying so, and the command log it writes replays.
        @Test func aHundredThousandPipedCommandsStopAtTheScriptLimitWithOneLineAndTheLogReplays() async throws {
            let dir = try ScratchDirectory()
            let log = dir.path("commands.txt")
            let lines = (0..<100_000).map { $0 % 2 == 0 ? "pause" : "resume" }.joined(separator: "\n") + "\n"
            let content = try await TestClip.long.path
            let play = try await PipctlProcess.run(["play", "--content", content, "--speed", "10", "--command-log", log],
                                                   standardInput: Data(lines.utf8), timeout: .seconds(120))
            #expect(play.exitStatus == 0, "\(play.standardError)")
            #expect(play.errorLines.filter { !$0.contains("real time") } == [
                "pipctl play: the command log holds as many commands as 'render --script' replays (10000); commands typed from now on are ignored",
            ])
            let commands = try dir.text("commands.txt").split(separator: ";")
            #expect(commands.count == 10_000)
            let replay = try await PipctlProcess.run(["render", "--content", content, "--script", "@" + log, "-o", dir.path("replay.mp4"),
                                                      "--preset", "ultrafast", "--events", dir.path("replay.jsonl")])
            #expect(replay.exitStatus == 0, "\(replay.standardError)")
            let played = play.standardOutput.split(separator: "\n").filter { $0.contains(#""type":"COMMAND""#) }
            let replayed = try dir.text("replay.jsonl").split(separator: "\n").filter { $0.contains(#""type":"COMMAND""#) }
            #expect(played.count == 10_000 && replayed == played)
        }

        /// Asked for far more than this machine can do (600 frames of a device's canvas composed and encoded, at 1000x:
        /// due in 20 ms), play says on its status line and at the end that it is behind, with the speed it achieved
        /// (for the person at the terminal).
        @Test func playBehindRealTimeSaysSoWithTheSpeedItAchieved() async throws {
            let dir = try ScratchDirectory()
            let terminal = try PseudoTerminal(["play", "--content", try await TestClip.long.path, "--device", "ipad-11", "--speed", "1000",
                                               "--record", dir.path("rec.mp4"), "--preset", "ultrafast"], inputThroughPipe: true)
            let status = try await terminal.exitStatus()
            let shown = terminal.shown
            #expect(status == 0, "\(shown.debugDescription)")
            #expect(shown.contains(/\r\u{1B}\[K\d+:\d\d:\d\d\.\d{3} content [^\r\n\u{1B}]* \| behind [0-9.]+ s: [0-9.]+x real time/),
                    "\(shown.debugDescription)")
            let end = try #require(shown.firstMatch(of: /pipctl play: played at ([0-9.]+)x real time, slower than the 1000x asked/),
                                   "\(shown.debugDescription)")
            #expect(shown.contains("slower than the 1000x asked (this machine could not decode, compose and show the frames in time)\r\n"))
            #expect(try #require(Double(end.1)) < 1000)
        }

        /// The frame count and the segments of `OUT.timeline.json`, each segment as canonical JSON text.
        static func timeline(_ output: String) throws -> (frames: Int?, segments: [String]) {
            let data = try Data(contentsOf: URL(fileURLWithPath: output + ".timeline.json"))
            let timeline = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            let segments = try #require(timeline["segments"] as? [Any])
            return ((timeline["output"] as? [String: Any])?["frames"] as? Int, try segments.map {
                String(decoding: try JSONSerialization.data(withJSONObject: $0, options: [.sortedKeys]), as: UTF8.self)
            })
        }

        // --step: the content waits for the test however long it is starved (at 8x of the wall clock, a test starved
        // for 2.5 s found the content ended before it typed).
        @Test func playsOnATerminalWithAStatusLineAndEventsForPeople() async throws {
            let terminal = try PseudoTerminal(["play"] + (try await Self.session()) + ["--step"])
            var clock: Int64 = 0
            try await terminal.advance(untilShown: "CONTENT_RESUME_REQUESTED", clock: &clock, step: 500)
            terminal.type("pip on\n")
            try await terminal.advance(untilShown: "PiP active", clock: &clock)
            terminal.type("quit\n")
            terminal.endInput()
            let status = try await terminal.exitStatus()
            let shown = terminal.shown

            #expect(status == 0, "\(shown.debugDescription)")
            // The status line is redrawn in place: carriage return, clear to the end of the line, the status.
            #expect(shown.contains(/\r\u{1B}\[K[^\r\n]*content [0-9:.]+ \| PiP active/), "\(shown.debugDescription)")
            // The first status drawn under PIP_DID_START already says so (not the state from before the command).
            let started = try #require(shown.range(of: "PIP_DID_START\r\n"))
            let nextStatus = try #require(shown[started.upperBound...].firstMatch(of: /\r\u{1B}\[K(\d+:\d\d:\d\d\.\d{3} [^\r\n\u{1B}]*)/))
            #expect(nextStatus.1.contains("PiP active"), "\(nextStatus.1)")
            // Events are lines for people: output clock, name, details; never the JSON of the log.
            #expect(shown.contains(/\d+:\d\d\.\d{3}  PIP_DID_START\r\n/), "\(shown.debugDescription)")
            #expect(shown.contains(/\d+:\d\d\.\d{3}  AD_BREAK_STARTED  break 0\r\n/), "\(shown.debugDescription)")
            #expect(shown.contains(/\d+:\d\d\.\d{3}  SESSION_ENDED  quit\r\n/), "\(shown.debugDescription)")
            #expect(!shown.contains("{\"type\""))
        }

        /// A person typing at the terminal: the terminal does not echo (play took it over), so the status line's
        /// redraws cannot erase what is typed; play draws it after the status, each redraw keeping it, and the
        /// terminal is put back as it was at the end.
        @Test func whatIsTypedStaysOnTheStatusLineThroughItsRedraws() async throws {
            let terminal = try PseudoTerminal(["play", "--content", try await TestClip.long.path, "--speed", "1"])
            try await terminal.waitUntilShown(" content 0:00:0")
            terminal.type("pau")
            try await terminal.waitUntilShown(" > pau")
            // Two more redraws of the status (the position moves on), each ending with the typed text.
            try await waitUntil("the status is redrawn with the typed text", timeout: .seconds(30)) {
                terminal.shown.matches(of: /\r\u{1B}\[K\d+:\d\d:\d\d\.\d{3} [^\r\n\u{1B}]* > pau(?=\r|$)/).count >= 3
            }
            terminal.type("se\n")
            try await terminal.waitUntilShown("COMMAND  pause")
            terminal.type("quit\n")
            let status = try await terminal.exitStatus()
            let shown = terminal.shown
            #expect(status == 0, "\(shown.debugDescription)")
            // Nothing echoed the keys: "pau" is only ever drawn after a status (" > pau"), in the event's line or as the
            // status's "| paused".
            let before: [String] = shown.ranges(of: "pau").map { range in
                String(shown[..<range.lowerBound].suffix(2))
            }
            #expect(before.allSatisfy { ["> ", "  ", "| "].contains($0) }, "\(shown.debugDescription)")
        }

        /// Commands piped in while a person watches the terminal: the help for a wrong one gets its own line, not
        /// the end of the status line.
        /// A native command typed without native placements is refused with its reason, not ignored silently.
        @Test func aTypedNativeCommandWithoutANativePlacementIsRefused() async throws {
            let dir = try ScratchDirectory()
            let play = try SteppedPlay(["play", "--content", try await TestClip.long.path, "--events", dir.path("events.jsonl")])
            try play.type("load slider\n")
            try await play.advance(untilShown: "no native placement: native commands need a session file")
            let result = try await play.quit()
            #expect(result.exitStatus == 0, "\(result.standardError)")
            let events = try String(contentsOfFile: dir.path("events.jsonl"), encoding: .utf8)
            let refused = events.split(separator: "\n").filter { $0.contains(#""reason":"refused""#) }
            #expect(refused.count == 1 && refused[0].contains("load slider ignored: no native placement"), "\(events)")
        }

        @Test func aRefusedCommandIsPrintedOnItsOwnLineNotOnTheStatusLine() async throws {
            let terminal = try PseudoTerminal(["play", "--content", try await TestClip.long.path, "--step"],
                                              inputThroughPipe: true)
            var clock: Int64 = 0
            try await terminal.advance(untilShown: " content 0:00:0", clock: &clock)
            terminal.type("bogus\n")
            try await terminal.advance(untilShown: "unknown command 'bogus'", clock: &clock)
            terminal.type("quit\n")
            terminal.endInput()
            let status = try await terminal.exitStatus()
            let shown = terminal.shown
            #expect(status == 0)
            #expect(shown.contains("\r\u{1B}[Kunknown command 'bogus'; commands: pip | pip on | pip off | seek T | pause | "
                + "resume | skip | click | status | quit | advance T\r\n"), "\(shown.debugDescription)")
        }
    }
}
