import Foundation
import Testing

extension EndToEnd {
    /// `pipctl play` driven as a script drives it (a pipe) and as a person does (a terminal), and the command log it
    /// records replayed by `pipctl render`.
    ///
    /// The tests type each command when pipctl's output shows the moment has come, not after a fixed sleep, so that
    /// a slow machine only makes them slower. Which frame a command lands on still depends on the wall clock, so they
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
            let play = try PipctlProcess(["play"] + session + ["--speed", "4", "--record", recording, "--preset", "ultrafast"],
                                         keepsInputOpen: true)
            try await play.waitForOutput(containing: #""type":"CONTENT_RESUME_REQUESTED""#)
            try play.write("pip on\n")
            try await play.waitForOutput(containing: #""type":"PIP_DID_START""#)
            try play.write("status\nbogus\n")
            try await play.waitForOutput(containing: "\nstatus: ")
            try await play.waitForOutput(containing: "bogus", onStandardError: true)
            try play.write("pip off\n")
            try await play.waitForOutput(containing: #""type":"PIP_DID_STOP""#)
            try play.write("quit\n")
            let result = try await play.result(timeout: .seconds(120))

            #expect(result.exitStatus == 0, "\(result.standardError)")
            #expect(result.errorLines == [
                "unknown command 'bogus'; commands: pip | pip on | pip off | seek T | pause | resume | skip | click | status | quit",
            ])
            // Standard output is a pipe: events are the event log's JSON lines, plus the one status line asked for.
            let lines = result.standardOutput.split(separator: "\n").map(String.init)
            let statusLines = lines.filter { $0.hasPrefix("status: ") }
            #expect(statusLines.count == 1)
            #expect(statusLines.first?.contains("PiP active") == true, "\(statusLines)")
            let eventLines = lines.filter { !$0.hasPrefix("status: ") }
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

        /// The frame count and the segments of `OUT.timeline.json`, each segment as canonical JSON text.
        static func timeline(_ output: String) throws -> (frames: Int?, segments: [String]) {
            let data = try Data(contentsOf: URL(fileURLWithPath: output + ".timeline.json"))
            let timeline = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            let segments = try #require(timeline["segments"] as? [Any])
            return ((timeline["output"] as? [String: Any])?["frames"] as? Int, try segments.map {
                String(decoding: try JSONSerialization.data(withJSONObject: $0, options: [.sortedKeys]), as: UTF8.self)
            })
        }

        // The speeds leave the test time to answer on a loaded machine: the content plays on in wall time while the
        // test waits for its turn (at 8x, a test starved for 2.5 s found the content ended before it typed).
        @Test func playsOnATerminalWithAStatusLineAndEventsForPeople() async throws {
            let terminal = try PseudoTerminal(["play"] + (try await Self.session()) + ["--speed", "2"])
            try await terminal.waitUntilShown("CONTENT_RESUME_REQUESTED")
            terminal.type("pip on\n")
            try await terminal.waitUntilShown("PiP active")
            terminal.type("quit\n")
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

        /// Commands piped in while a person watches the terminal: the help for a wrong one gets its own line, not
        /// the end of the status line.
        /// A native command typed without native placements is refused with its reason, not ignored silently.
        @Test func aTypedNativeCommandWithoutANativePlacementIsRefused() async throws {
            let dir = try ScratchDirectory()
            let play = try PipctlProcess(["play", "--content", try await TestClip.long.path, "--speed", "0.5",
                                          "--events", dir.path("events.jsonl")], keepsInputOpen: true)
            try play.write("load slider\n")
            try await play.waitForOutput(containing: "no native placement: native commands need a session file", timeout: .seconds(60))
            try play.write("quit\n")
            let result = try await play.result(timeout: .seconds(120))
            #expect(result.exitStatus == 0, "\(result.standardError)")
            let events = try String(contentsOfFile: dir.path("events.jsonl"), encoding: .utf8)
            let refused = events.split(separator: "\n").filter { $0.contains(#""reason":"refused""#) }
            #expect(refused.count == 1 && refused[0].contains("load slider ignored: no native placement"), "\(events)")
        }

        @Test func aRefusedCommandIsPrintedOnItsOwnLineNotOnTheStatusLine() async throws {
            let terminal = try PseudoTerminal(["play", "--content", try await TestClip.long.path, "--speed", "1"],
                                              inputThroughPipe: true)
            try await terminal.waitUntilShown(" content 0:00:0")
            terminal.type("bogus\n")
            try await terminal.waitUntilShown("unknown command 'bogus'")
            terminal.type("quit\n")
            let status = try await terminal.exitStatus()
            let shown = terminal.shown
            #expect(status == 0)
            #expect(shown.contains("\r\u{1B}[Kunknown command 'bogus'; commands: pip | pip on | pip off | seek T | pause | "
                + "resume | skip | click | status | quit\r\n"), "\(shown.debugDescription)")
        }
    }
}
