import Foundation
import MediaCore
import Testing

extension EndToEnd {
    /// `pipctl verify OUT --sources` predicts each output frame from the source frames' real start times, as the
    /// renderer draws them: a correct render with a variable-frame-rate ad, an ad whose video starts after its sound
    /// and a WebM (VP9/Opus) ad passes, and a frame repeated in the VFR ad's run is still named. Media is made by the
    /// `ffmpeg` command line, without stamps; the content is `VerifySourcesTests`' (6 s of `testsrc2` at 30 fps).
    /// A rotated ad is read upright, as it is drawn.
    @Suite(.enabled(if: FFmpegCommand.isAvailable)) struct VerifySourcesTimingTests {
        static let encode = ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-c:a", "aac"]

        /// `testsrc2` (320x240) in pairs of frames 20 ms apart every 90 ms (0, 20, 90, 110, 180, … ms; 50 frames,
        /// about 22 fps on average), with 2.2 s of noise.
        static func makeVariableRateAd(_ path: String) throws {
            try FFmpegCommand.run(["-f", "lavfi", "-i",
                                   "testsrc2=s=320x240:r=25:d=2,settb=1/1000,setpts='(floor(N/2)*90+mod(N,2)*20)/1000/TB'",
                                   "-f", "lavfi", "-i", "anoisesrc=c=brown:seed=4:d=2.2:r=48000",
                                   "-fps_mode", "passthrough", "-video_track_timescale", "1000"] + encode + [path])
        }

        /// Renders the shared content with `ad` as a break at 0:02 (output frame 60).
        static func render(ad: String, in dir: ScratchDirectory) async throws -> String {
            let content = try await VerifySourcesTests.sourcePath("content.mp4")
            let output = dir.path("out.mp4")
            let result = try await PipctlProcess.run(["render", "--content", content, "--break", "2=\(ad)", "-o", output,
                                                      "--preset", "ultrafast"])
            #expect(result.exitStatus == 0, "\(result.standardError)")
            return output
        }

        /// Verifies and expects a pass with every frame of every segment matched to its source.
        static func expectPasses(_ output: String) async throws {
            let result = try await VerifySourcesTests.verify(output, ["--json"])
            #expect(result.exitStatus == 0, "\(result.standardOutput)")
            let report = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
            #expect(report["verdict"] as? String == "passed", "\(result.standardOutput)")
            #expect(report["problems"] as? [String] ?? [] == [])
            let segments = try #require(report["segments"] as? [[String: Any]])
            #expect(segments.map { $0["name"] as? String } == ["content", "ad 0 of break 0", "content"])
            #expect(segments.allSatisfy { ($0["unmatched"] as? Int) == 0 })
            #expect(segments.allSatisfy { ($0["identified"] as? Int ?? 0) >= (($0["outEndFrame"] as? Int ?? 0) - ($0["outStartFrame"] as? Int ?? 0)) * 9 / 10 })
        }

        @Test func aCorrectRenderWithAVariableRateAdPasses() async throws {
            let dir = try ScratchDirectory()
            let ad = dir.path("vfr.mp4")
            try Self.makeVariableRateAd(ad)
            // The file really is irregular: a frame-count rule at any nominal rate would mistime it.
            let times = try VariableRateAndTruncationTests.frameTimesInMilliseconds(ad)
            #expect(times.prefix(4) == [0, 20, 90, 110] && times.count == 50)
            try await Self.expectPasses(try await Self.render(ad: ad, in: dir))
        }

        @Test func aCorrectRenderWithAnAdWhoseVideoStartsLatePasses() async throws {
            let dir = try ScratchDirectory()
            let plain = dir.path("plain.mp4"), late = dir.path("late.mp4")
            try FFmpegCommand.run(["-f", "lavfi", "-i", "mandelbrot=s=320x240:r=25", "-f", "lavfi", "-i",
                                   "anoisesrc=c=brown:seed=5:d=2.2:r=48000", "-t", "2.2"] + Self.encode + [plain])
            // The video moved 0.2 s after the sound, without re-encoding.
            try FFmpegCommand.run(["-itsoffset", "0.2", "-i", plain, "-i", plain, "-map", "0:v", "-map", "1:a", "-t", "2.2",
                                   "-c", "copy", late])
            let starts = try ToolOutput.run("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "stream=start_time",
                                                                 "-of", "csv=p=0", late])
            #expect(starts.split(separator: "\n") == ["0.200000", "0.000000"])
            try await Self.expectPasses(try await Self.render(ad: late, in: dir))
        }

        @Test func aCorrectRenderWithAWebMAdPasses() async throws {
            let dir = try ScratchDirectory()
            let ad = dir.path("ad.webm")
            try FFmpegCommand.run(["-f", "lavfi", "-i", "testsrc2=s=320x240:r=25:d=2", "-f", "lavfi", "-i",
                                   "anoisesrc=c=white:seed=6:d=2:r=48000", "-c:v", "libvpx-vp9", "-deadline", "realtime",
                                   "-c:a", "libopus", ad])
            // Opus's pre-roll puts the file's start before the first picture.
            let start = try ToolOutput.run("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "format=start_time",
                                                                "-of", "csv=p=0", ad])
            #expect(start.hasPrefix("-0.0"))
            try await Self.expectPasses(try await Self.render(ad: ad, in: dir))
        }

        /// A phone-style ad stored sideways (320x240 with `rotate=90` or `rotate=270` in its MP4 header) is drawn
        /// upright; verify reads the source the same way, so the correct render passes, whichever way it turns.
        @Test(arguments: [90, 270]) func aCorrectRenderWithARotatedAdPasses(degrees: Int) async throws {
            let dir = try ScratchDirectory()
            let plain = dir.path("plain.mp4"), turned = dir.path("turned.mp4")
            try FFmpegCommand.run(["-f", "lavfi", "-i", "testsrc2=s=320x240:r=25:d=2", "-f", "lavfi", "-i",
                                   "anoisesrc=c=white:seed=7:d=2:r=48000"] + Self.encode + [plain])
            try FFmpegCommand.run(["-i", plain, "-c", "copy", "-metadata:s:v:0", "rotate=\(degrees)", turned])
            let rotation = try ToolOutput.run("/usr/bin/ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries",
                                                                   "stream_side_data=rotation", "-of", "csv=p=0", turned])
            #expect(rotation.trimmingCharacters(in: .whitespacesAndNewlines) == (degrees == 90 ? "90" : "-90"))
            try await Self.expectPasses(try await Self.render(ad: turned, in: dir))
        }

        /// `0:02.400`: output frame `n`'s time at 30 fps, as verify prints it.
        static func clock(_ n: Int) -> String {
            let ms = (n * 1000 + 15) / 30
            return String(format: "%d:%02d.%03d", ms / 60_000, ms / 1000 % 60, ms % 1000)
        }

        @Test func aFrameRepeatedInAVariableRateAdIsNamed() async throws {
            let dir = try ScratchDirectory()
            let ad = dir.path("vfr.mp4")
            try Self.makeVariableRateAd(ad)
            let output = try await Self.render(ad: ad, in: dir)
            let timeline = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: output + ".timeline.json"))) as? [String: Any])
            let frames = try #require((timeline["output"] as? [String: Any])?["frames"] as? Int)
            let segments = try #require(timeline["segments"] as? [[String: Any]])
            #expect(segments[1]["outStartFrame"] as? Int == 60)
            let adEnd = try #require(segments[1]["outEndFrame"] as? Int)
            // The frame each ad tick shows by the rule on ffprobe's times; a tick after which the picture changes.
            let times = try VariableRateAndTruncationTests.frameTimesInMilliseconds(ad).map { Rational($0, 1000) }
            let shown = (0..<Int64(60)).map { VariableRateAndTruncationTests.nearestFrame(at: Rational($0, 30), times: times) }
            let tick = try #require((10..<58).first { shown[$0] != shown[$0 + 1] })
            let repeated = 60 + tick
            // Output frames 0…repeated, then `repeated` again and on.
            let edited = dir.path("repeat.mp4")
            try FFmpegCommand.run(["-i", output, "-filter_complex",
                                   "[0:v]split[x][y];[x]trim=end_frame=\(repeated + 1),setpts=PTS-STARTPTS[a];[y]trim=start_frame=\(repeated),setpts=PTS-STARTPTS[b];[a][b]concat=n=2:v=1:a=0,trim=end_frame=\(frames)",
                                   "-c:v", "libx264", "-preset", "ultrafast", "-c:a", "copy", edited])
            try FileManager.default.copyItem(atPath: output + ".timeline.json", toPath: edited + ".timeline.json")
            let result = try await VerifySourcesTests.verify(edited)
            #expect(result.exitStatus == 1)
            // That one frame named, then the content one frame late, and nothing else: every other frame of the
            // ad's run is where the rule on its real times puts it.
            let problems = result.standardOutput.split(separator: "\n").filter { $0.hasPrefix("  ") }
            #expect(problems == ["  at output frame \(repeated + 1) (\(Self.clock(repeated + 1))), ad 0 of break 0 frame \(shown[tick]) is shown twice",
                                 "  content resumes 1 frame late, at output frame \(adEnd + 1) (\(Self.clock(adEnd + 1))); expected output frame \(adEnd)"],
                    "\(result.standardOutput)")
        }
    }
}
