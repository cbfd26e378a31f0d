import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

extension EndToEnd {
    /// SIGINT (Ctrl-C) and SIGTERM stop a long job: exit 128 + N, one line, and nothing left at the destination,
    /// neither the output nor the files beside it nor a temporary file.
    @Suite struct InterruptTests {
        @Test(arguments: [("render", SIGINT), ("render", SIGTERM), ("transcode", SIGINT), ("transcode", SIGTERM),
                          ("testsrc", SIGINT)])
        func aSignalStopsTheJobAndLeavesNothing(command: String, signal: Int32) async throws {
            let dir = try ScratchDirectory()
            let out = try dir.subdirectory("out") + "/out.mp4"
            let long = try await TestClip.long.path
            // The medium preset keeps the encoder busy for seconds: the signal lands in the middle of the work.
            let arguments = switch command {
            case "render": ["render", "--content", long, "--break", "pre=\(try await TestClip.adA.path)", "-o", out,
                            "--preset", "medium", "--framehash", out + ".md5"]
            case "transcode": ["transcode", long, "-o", out, "--preset", "medium", "--framehash", out + ".md5"]
            default: ["testsrc", "-o", out, "--duration", "60", "--preset", "medium"]
            }
            let job = try PipctlProcess(arguments)
            try await waitUntil("pipctl \(command) has started writing out.mp4") {
                dir.entries(in: "out").contains { $0.hasPrefix(".out.mp4.") && $0.hasSuffix(".tmp") }
            }
            job.send(signal)
            let result = try await job.result()
            #expect(!result.endedBySignal, "pipctl caught the signal and exited by itself")
            #expect(result.exitStatus == 128 + signal)
            #expect(result.standardOutput.isEmpty)
            let reason = signal == SIGINT ? "interrupted (SIGINT)" : "terminated (SIGTERM)"
            #expect(result.errorLines == ["pipctl \(command): \(reason)"])
            #expect(dir.entries(in: "out") == [])
        }

        /// A `--session` that is a FIFO no one writes (or whose writer says nothing) does not hold the render in
        /// open(2) or read(2): the first SIGTERM ends it, exit 143, one line, nothing written.
        @Test(arguments: [false, true])
        func sigtermEndsARenderWaitingForASessionFIFO(writerConnected: Bool) async throws {
            let dir = try ScratchDirectory()
            let fifo = dir.path("session.json")
            #expect(mkfifo(fifo, 0o600) == 0)
            let render = try PipctlProcess(["render", "--session", fifo, "-o", dir.path("out.mp4")])
            var writer: Int32 = -1
            defer { if writer >= 0 { close(writer) } }
            if writerConnected {
                // A writer can open without blocking only once pipctl holds the read end.
                try await waitUntil("pipctl has opened the FIFO for reading") {
                    writer = open(fifo, O_WRONLY | O_NONBLOCK)
                    return writer >= 0
                }
            } else {
                let descriptors = "/proc/\(render.processIdentifier)/fd"
                try await waitUntil("pipctl has opened the FIFO") {
                    let names = (try? FileManager.default.contentsOfDirectory(atPath: descriptors)) ?? []
                    return names.contains { (try? FileManager.default.destinationOfSymbolicLink(atPath: descriptors + "/" + $0)) == fifo }
                }
            }
            render.send(SIGTERM)
            let result = try await render.result(timeout: .seconds(60))
            #expect(!result.endedBySignal, "pipctl caught the signal and exited by itself")
            #expect(result.exitStatus == 128 + SIGTERM)
            #expect(result.errorLines == ["pipctl render: terminated (SIGTERM)"])
            #expect(dir.entries() == ["session.json"])
        }

        /// `verify` of an fMP4 HLS render joins its segments into a temporary MP4 in `$TMPDIR` (as large as the
        /// render): a signal removes it (it was left in 3 of 4 tries), and a run clears what runs that were killed
        /// left (their process is gone), never a live process's.
        @Test(arguments: [SIGTERM, SIGINT])
        func verifyOfAnHLSRenderLeavesNoTemporaryCopy(signal: Int32) async throws {
            let scratch = try ScratchDirectory()
            let rendered = try await PipctlProcess.run(try await HLSTests.arguments(scratch.path("hls"), type: "fmp4"))
            try #require(rendered.exitStatus == 0, "\(rendered.standardError)")
            let temporary = try scratch.subdirectory("tmp")
            // A killed run's copy (its process is gone) and a live one's (this test's own process).
            let gone = Process()
            gone.executableURL = URL(fileURLWithPath: "/bin/true")
            try gone.run()
            gone.waitUntilExit()
            let dead = "pipctl-verify-\(gone.processIdentifier)-0.mp4", live = "pipctl-verify-\(getpid())-0.mp4"
            for name in [dead, live] { _ = try scratch.write("partial", to: "tmp/" + name) }

            let verify = try PipctlProcess(["verify", scratch.path("hls")], environment: ["TMPDIR": temporary])
            try await waitUntil("pipctl verify has started joining the segments") {
                scratch.entries(in: "tmp").contains { $0.hasPrefix("pipctl-verify-\(verify.processIdentifier)-") }
            }
            verify.send(signal)
            let result = try await verify.result()
            #expect(!result.endedBySignal, "pipctl caught the signal and exited by itself")
            #expect(result.exitStatus == 128 + signal)
            #expect(result.errorLines == ["pipctl verify: \(signal == SIGINT ? "interrupted (SIGINT)" : "terminated (SIGTERM)")"])
            #expect(scratch.entries(in: "tmp") == [live], "\(scratch.entries(in: "tmp"))")
        }

        /// `play --record` stopped with Ctrl-C leaves no recording, timeline, event log or command log.
        @Test func ctrlCStopsARecordedPlayAndLeavesNothing() async throws {
            let dir = try ScratchDirectory()
            let play = try PipctlProcess(["play", "--content", try await TestClip.long.path, "--record", dir.path("rec.mp4"),
                                          "--preset", "ultrafast"], keepsInputOpen: true)
            try await waitUntil("pipctl play has started recording") {
                dir.entries().contains { $0.hasPrefix(".rec.mp4.") && $0.hasSuffix(".tmp") }
            }
            play.send(SIGINT)
            let result = try await play.result()
            #expect(result.exitStatus == 130)
            #expect(result.errorLines == ["pipctl play: interrupted (SIGINT)"])
            #expect(dir.entries() == [])
        }
    }
}
