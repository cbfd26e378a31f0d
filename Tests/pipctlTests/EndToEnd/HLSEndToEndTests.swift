import AdPlayback
import Foundation
import Glibc
import LoopbackServer
import MediaCore
import Rendering
import Testing
#if canImport(Glibc)
#endif

extension EndToEnd {
    /// `pipctl render --hls DIR` and `pipctl verify DIR`: the files, the playlist and its markers as read back, what
    /// ffmpeg's own HLS demuxer makes of the segments, and the directory's safety.
    @Suite struct HLSTests {
        /// 6 s of content with ad A (2 s) at 0:02, cut every 1.5 s: 240 frames at 30 fps, the break over [60, 120).
        static func arguments(_ directory: String, type: String) async throws -> [String] {
            ["render", "--content", try await TestClip.content.path, "--break", "2=\(try await TestClip.adA.path)",
             "--preset", "ultrafast", "--hls", directory, "--hls-time", "1.5", "--hls-segment-type", type]
        }

        /// Runs ffprobe or ffmpeg; returns its exit status, standard output and standard error.
        static func tool(_ name: String, _ arguments: [String]) throws -> (status: Int32, output: String, errors: String) {
            let ran = try ChildProcess.run("/usr/bin/" + name, ["-hide_banner"] + (name == "ffmpeg" ? ["-nostdin"] : []) + arguments)
            return (ran.status, ran.output, ran.errors)
        }

        @Test(.enabled(if: FFmpegCommand.isAvailable), arguments: ["fmp4", "mpegts"])
        func anHLSRenderCutsSegmentsAtEveryBreakAndMarksTheBreakWithSCTE35(type: String) async throws {
            let scratch = try ScratchDirectory()
            let dir = scratch.path("hls")
            let result = try await PipctlProcess.run(try await Self.arguments(dir, type: type))
            #expect(result.exitStatus == 0, "\(result.standardError)")
            let ext = type == "fmp4" ? "m4s" : "ts"
            let segments = (0..<7).map { "seg0000\($0).\(ext)" }
            #expect(scratch.entries() == ["hls"] + (["events.jsonl", "master.m3u8", "media.m3u8", "timeline.json"]
                + (type == "fmp4" ? ["init.mp4"] : []) + segments).sorted().map { "hls/" + $0 })

            // The playlist as read back: segments of 1.5 s, cut again where the break starts (2 s) and ends (4 s).
            let reading = try HLSPlaylistReading(text: try scratch.text("hls/media.m3u8"), file: "media.m3u8")
            #expect(reading.playlist.segments.map { $0.duration * Rational(30) } == [45, 15, 45, 15, 45, 45, 30].map { Rational($0) })
            #expect(reading.playlist.segments.map(\.uri) == segments)
            #expect(reading.playlist.map == (type == "fmp4" ? "init.mp4" : nil))
            #expect(reading.playlist.duration == Rational(8))
            #expect(reading.cueOuts.map(\.segment) == [2] && reading.cueOuts.map(\.duration) == [Rational(2)])
            #expect(reading.cueIns == [4])
            let origin = Date(timeIntervalSince1970: 946_684_800)
            #expect(reading.playlist.programDateTime == origin)
            let range = try #require(reading.dateRanges.first)
            #expect(reading.dateRanges.count == 1 && range.id == "break-0" && range.segment == 2 && range.inSegment == 4)
            #expect(range.startDate == origin.addingTimeInterval(2))
            #expect(range.duration == Rational(2) && range.plannedDuration == Rational(2))

            // The cues, against the first video PTS ffprobe reads from the container (a TS segment as it is; fMP4
            // through the playlist, which joins the init segment to it).
            let probe = try Self.tool("ffprobe", ["-v", "error", "-select_streams", "v", "-show_entries", "packet=pts_time",
                                                  "-of", "csv=p=0", dir + (type == "fmp4" ? "/media.m3u8" : "/seg00000.ts")])
            let firstPTS = try #require(probe.output.split(separator: "\n").compactMap { Double($0.trimmingCharacters(in: .init(charactersIn: ","))) }.min())
            let offset = UInt64((firstPTS * 90_000).rounded())
            let out = SpliceInfoSection.SpliceInsert(eventID: 1, outOfNetwork: true, pts: 180_000 + offset,
                                                     breakDuration: .init(autoReturn: true, duration: 180_000))
            #expect(range.scte35Out?.command == .spliceInsert(out))
            #expect(range.scte35In?.command == .spliceInsert(.init(eventID: 1, outOfNetwork: false, pts: 360_000 + offset)))

            // ffmpeg's HLS demuxer reads it all without a word, every frame, for the render's length.
            let decode = try Self.tool("ffmpeg", ["-v", "error", "-xerror", "-i", dir + "/media.m3u8", "-f", "null", "-"])
            #expect(decode.status == 0 && decode.errors.isEmpty, "\(decode.errors)")
            let count = try Self.tool("ffprobe", ["-v", "error", "-count_frames", "-select_streams", "v", "-show_entries",
                                                  "stream=nb_read_frames", "-of", "csv=p=0", dir + "/master.m3u8"])
            // The stream is listed twice, once inside the variant's program.
            #expect(Set(count.output.split(separator: "\n")) == ["240"])
            // CODECS carries the SPS's level as ffprobe reads it (avc1.PPCCLL).
            let level = try Self.tool("ffprobe", ["-v", "error", "-select_streams", "v", "-show_entries", "stream=level",
                                                  "-of", "csv=p=0", dir + "/media.m3u8"])
            let levelHex = try #require(level.output.split(separator: "\n").first.flatMap { Int($0) }.map { String(format: "%02X", $0) })
            let master = try scratch.text("hls/master.m3u8")
            #expect(master.contains(levelHex + ",mp4a.40.2\""))
            #expect(master.contains("CODECS=\"avc1.") && master.contains(",mp4a.40.2\",RESOLUTION=320x180,FRAME-RATE=30.000\nmedia.m3u8\n"))

            let verify = try await PipctlProcess.run(["verify", dir])
            #expect(verify.exitStatus == 0, "\(verify.standardOutput)\(verify.standardError)")
            #expect(verify.standardOutput.contains("HLS: 7 segments; 1 break(s) marked as the timeline says"))
        }

        @Test(.enabled(if: FFmpegCommand.isAvailable))
        func verifyReportsAMarkerThatNoLongerMatchesTheTimeline() async throws {
            let scratch = try ScratchDirectory()
            let dir = scratch.path("hls")
            #expect(try await PipctlProcess.run(try await Self.arguments(dir, type: "mpegts")).exitStatus == 0)
            let playlist = try scratch.text("hls/media.m3u8")
            try scratch.write(playlist.replacingOccurrences(of: "#EXT-X-CUE-OUT:2.000000", with: "#EXT-X-CUE-OUT:2.500000"),
                              to: "hls/media.m3u8")
            let verify = try await PipctlProcess.run(["verify", dir + "/master.m3u8"])
            #expect(verify.exitStatus == 1)
            #expect(verify.standardError.contains("break 0 (frames 60..<120): no EXT-X-CUE-OUT of 2.0 s before segment 2"))
            // `--json` gives the finding's code and the break it is about.
            let json = try await PipctlProcess.run(["verify", dir + "/master.m3u8", "--json"])
            #expect(json.exitStatus == 1)
            let report = try JSONSerialization.jsonObject(with: json.standardOutputData) as? [String: Any]
            let findings = report?["findings"] as? [[String: Any]] ?? []
            #expect(findings.map { $0["code"] as? String ?? "" } == ["hls.cueOut"], "\(findings)")
            #expect((findings.first?["subject"] as? [String: Any])?["index"] as? Int == 0, "\(findings)")
            // Against the sources too: the pictures match, the marker does not.
            let sources = try await PipctlProcess.run(["verify", dir + "/master.m3u8", "--sources"], timeout: .seconds(300))
            #expect(sources.exitStatus == 1)
            #expect(sources.standardError.contains("break 0 (frames 60..<120): no EXT-X-CUE-OUT of 2.0 s before segment 2"), "\(sources.standardError)")
        }

        /// A first segment longer than FFmpeg's 5 s of probing: `verify` seeks in the sound, which FFmpeg 5.1's HLS
        /// demuxer misreads in fMP4 segments; it reads a copy of the streams instead, and passes, both ways.
        @Test(arguments: ["fmp4", "mpegts"])
        func verifyPassesWhenTheFirstBreakComesAfterFiveSeconds(type: String) async throws {
            let scratch = try ScratchDirectory()
            for (name, seconds) in [("content", 14), ("ad", 2)] {
                let made = try await PipctlProcess.run(["testsrc", "-o", scratch.path("\(name).mp4"), "--duration", "\(seconds)",
                                                        "--size", "320x180", "--id", name])
                try #require(made.exitStatus == 0, "\(made.standardError)")
            }
            let result = try await PipctlProcess.run(["render", "--content", scratch.path("content.mp4"), "--break", "7=\(scratch.path("ad.mp4"))",
                                                      "--hls", scratch.path("hls"), "--hls-segment-type", type, "--preset", "ultrafast"])
            try #require(result.exitStatus == 0, "\(result.standardError)")
            // Verify's temporary copy goes into a folder of this test's own (the other case runs at the same time).
            let temporary = try scratch.subdirectory("tmp")
            let verify = try await PipctlProcess.run(["verify", scratch.path("hls")], environment: ["TMPDIR": temporary],
                                                     timeout: .seconds(300))
            #expect(verify.exitStatus == 0, "\(verify.standardOutput)\(verify.standardError)")
            #expect(verify.standardOutput.contains("OK — 480 frames in 3 runs"), "\(verify.standardOutput)")
            let sources = try await PipctlProcess.run(["verify", scratch.path("hls"), "--sources"], environment: ["TMPDIR": temporary],
                                                      timeout: .seconds(300))
            #expect(sources.exitStatus == 0, "\(sources.standardOutput)\(sources.standardError)")
            #expect(sources.standardOutput.contains("OK — 480 frames in 3 segments match their sources"), "\(sources.standardOutput)")
            #expect(sources.standardOutput.contains("note: HLS: "), "\(sources.standardOutput)")
            // The temporary copy is gone.
            let left = try FileManager.default.contentsOfDirectory(atPath: temporary)
            #expect(left.isEmpty, "\(left)")
        }

        @Test func aDirectoryThatIsNotEmptyIsRefusedAndLeftAsItWas() async throws {
            let scratch = try ScratchDirectory()
            let dir = try scratch.subdirectory("hls")
            try scratch.write("mine", to: "hls/keep.txt")
            let result = try await PipctlProcess.run(try await Self.arguments(dir, type: "fmp4"))
            #expect(result.exitStatus == 2)
            #expect(result.standardError.hasPrefix("pipctl render: --hls: \(dir): cannot write the output: is not empty (1 entry); nothing was written\n"))
            #expect(scratch.entries() == ["hls", "hls/keep.txt"])
            #expect(try scratch.text("hls/keep.txt") == "mine")
        }

        @Test func aFailedHLSRenderLeavesNoDirectory() async throws {
            let scratch = try ScratchDirectory()
            let content = try scratch.write("not media", to: "content.mp4")
            let result = try await PipctlProcess.run(["render", "--content", content, "--hls", scratch.path("hls")])
            #expect(result.exitStatus != 0)
            #expect(result.standardError.split(separator: "\n").count <= 2, "\(result.standardError)")
            #expect(scratch.entries() == ["content.mp4"])
        }

        /// A symbolic link to an empty directory would pass the emptiness check and fail only at the final rename,
        /// after the whole render: it is refused at once, with or without a trailing slash.
        @Test(arguments: ["hls", "hls/"])
        func aDirectoryThatIsASymbolicLinkIsRefusedUpFrontAndNothingIsLeft(name: String) async throws {
            let scratch = try ScratchDirectory()
            let real = try scratch.subdirectory("real")
            try FileManager.default.createSymbolicLink(atPath: scratch.path("hls"), withDestinationPath: real)
            let dir = scratch.path("hls") + (name.hasSuffix("/") ? "/" : "")
            let result = try await PipctlProcess.run(try await Self.arguments(dir, type: "fmp4"))
            #expect(result.exitStatus == 2)
            #expect(result.errorLines.first == "pipctl render: --hls: \(dir): cannot write the output: is a symbolic link; "
                + "give the directory it leads to; nothing was written", "\(result.standardError)")
            #expect(scratch.entries() == ["hls", "real"])
        }

        /// A render stopped after its staging directory filled up (Ctrl-C mid-render) removes it before exiting.
        @Test func aRenderStoppedAfterStagingBeganLeavesNoStagingDirectory() async throws {
            let scratch = try ScratchDirectory()
            let out = try scratch.subdirectory("out")
            let job = try PipctlProcess(["render", "--content", try await TestClip.long.path, "--break", "pre=\(try await TestClip.adA.path)",
                                         "--hls", out + "/hls", "--preset", "medium"])
            // The bound is a safety net, not a timing: on a busy machine the render may take long to start writing.
            try await waitUntil("pipctl render has started writing into its staging directory", timeout: .seconds(180)) {
                scratch.entries(in: "out").contains { $0.hasPrefix(".hls.partial-") && $0.contains("/") }
            }
            job.send(SIGINT)
            let result = try await job.result()
            #expect(result.exitStatus == 128 + SIGINT, "\(result.standardError)")
            #expect(result.errorLines == ["pipctl render: interrupted (SIGINT)"])
            #expect(scratch.entries(in: "out") == [])
        }

        /// A staging directory left by a killed run (its process gone) is removed by the next render of the same DIR.
        @Test(.enabled(if: FFmpegCommand.isAvailable))
        func theStagingDirectoryOfAKilledRunIsRemovedByTheNext() async throws {
            let scratch = try ScratchDirectory()
            let gone = Process()
            gone.executableURL = URL(fileURLWithPath: "/bin/true")
            try gone.run()
            gone.waitUntilExit()
            _ = try scratch.subdirectory(".hls.partial-\(gone.processIdentifier)")
            try scratch.write("half", to: ".hls.partial-\(gone.processIdentifier)/seg00000.m4s")
            let result = try await PipctlProcess.run(try await Self.arguments(scratch.path("hls"), type: "fmp4"))
            #expect(result.exitStatus == 0, "\(result.standardError)")
            #expect(scratch.entries().filter { !$0.hasPrefix("hls") } == [])
        }

        @Test func hlsOptionsThatCannotWorkAreUsageErrors() async throws {
            let scratch = try ScratchDirectory()
            let content = try await TestClip.content.path
            let withOutput = try await PipctlProcess.run(["render", "--content", content, "--hls", scratch.path("a"), "-o", scratch.path("b.mp4")])
            #expect(withOutput.exitStatus == 2)
            let lossless = try await PipctlProcess.run(["render", "--content", content, "--hls", scratch.path("a"), "--profile", "lossless"])
            #expect(lossless.exitStatus == 2)
            #expect(lossless.standardError.hasPrefix("pipctl render: --hls: HLS carries H.264 and AAC, the delivery profile, not --profile lossless\n"))
            let alone = try await PipctlProcess.run(["render", "--content", content, "--hls-segment-type", "mpegts"])
            #expect(alone.exitStatus == 2)
            #expect(scratch.entries().isEmpty)
        }
    }
}
