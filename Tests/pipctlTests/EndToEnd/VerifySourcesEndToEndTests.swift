import Foundation
import Testing

extension EndToEnd {
    /// `pipctl verify OUT --sources` on renders of content without stamps (ffmpeg's `testsrc2`, `mandelbrot` and
    /// scrolling `smptebars` with noise, each with its own noise for sound): a correct render passes; copies edited
    /// with the ffmpeg command line (one frame dropped at a splice, one repeated, an ad two frames late, the sound
    /// 40 ms late), each keeping the correct render's timeline, fail with the defect named in words; static
    /// pictures are "not verifiable" (exit 3).
    @Suite(.enabled(if: FFmpegCommand.isAvailable)) struct VerifySourcesTests {
        /// The directory holding `out.mp4`: 6 s of `testsrc2` content (320x180, 30 fps) with a pod at 0:02 of a
        /// `mandelbrot` ad (320x240, 25 fps, 44.1 kHz) and a scrolling, noisy `smptebars` ad (320x240, 25 fps), 2 s
        /// each; 300 output frames, splices at 60, 120 and 180.
        static var render: String {
            get async throws {
                try await SharedArtifacts.shared.path(of: "unstamped-render") { dir in
                    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
                    let encode = ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-c:a", "aac"]
                    try FFmpegCommand.run(["-f", "lavfi", "-i", "testsrc2=s=320x180:r=30:d=6", "-f", "lavfi", "-i",
                                           "anoisesrc=c=pink:seed=1:d=6:r=48000", "-shortest"] + encode + [dir + "/content.mp4"])
                    try FFmpegCommand.run(["-f", "lavfi", "-i", "mandelbrot=s=320x240:r=25", "-f", "lavfi", "-i",
                                           "anoisesrc=c=brown:seed=2:d=2:r=44100", "-t", "2"] + encode + [dir + "/ad1.mp4"])
                    try FFmpegCommand.run(["-f", "lavfi", "-i", "smptebars=s=320x240:r=25,scroll=horizontal=0.01,noise=alls=20:allf=t+u",
                                           "-f", "lavfi", "-i", "anoisesrc=c=white:seed=3:d=2:r=48000", "-t", "2"]
                                          + encode + [dir + "/ad2.mp4"])
                    let result = try await PipctlProcess.run(["render", "--content", dir + "/content.mp4", "--break",
                                                              "2=\(dir)/ad1.mp4,\(dir)/ad2.mp4", "-o", dir + "/out.mp4",
                                                              "--preset", "ultrafast"])
                    guard result.exitStatus == 0 else { throw SharedArtifacts.Failure(description: "render: \(result.standardError)") }
                }
            }
        }

        /// A copy of the render with its video (or sound) put through ffmpeg's `filter`, beside the render's own
        /// timeline.
        static func edited(_ name: String, video filter: String? = nil, audio: String? = nil, in dir: ScratchDirectory) async throws -> String {
            let source = try await Self.render + "/out.mp4"
            let output = dir.path(name)
            var arguments = ["-i", source]
            if let filter { arguments += ["-filter_complex", filter, "-c:v", "libx264", "-preset", "ultrafast", "-c:a", "copy"] }
            if let audio { arguments += ["-af", audio, "-c:v", "copy", "-c:a", "aac"] }
            try FFmpegCommand.run(arguments + [output])
            try FileManager.default.copyItem(atPath: source + ".timeline.json", toPath: output + ".timeline.json")
            return output
        }

        static func sourcePath(_ name: String) async throws -> String { try await Self.render + "/" + name }

        static func verify(_ output: String, _ extra: [String] = []) async throws -> PipctlResult {
            try await PipctlProcess.run(["verify", output, "--sources"] + extra, timeout: .seconds(300))
        }

        @Test func aCorrectRenderOfUnstampedContentPassesAndStampsCannotVerifyIt() async throws {
            let output = try await Self.render + "/out.mp4"
            let result = try await Self.verify(output, ["--json"])
            #expect(result.exitStatus == 0, "\(result.standardOutput)")
            let report = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
            #expect(report["verdict"] as? String == "passed")
            #expect(report["frames"] as? Int == 300)
            let segments = try #require(report["segments"] as? [[String: Any]])
            #expect(segments.map { $0["name"] as? String } == ["content", "ad 0 of break 0", "ad 1 of break 0", "content"])
            // Nearly every frame identified with a clear margin, none showing something else.
            #expect(segments.allSatisfy { ($0["unmatched"] as? Int) == 0 })
            #expect(segments.allSatisfy { ($0["identified"] as? Int ?? 0) >= (($0["outEndFrame"] as? Int ?? 0) - ($0["outStartFrame"] as? Int ?? 0)) * 9 / 10 })
            let audio = try #require(report["audio"] as? [[String: Any]])
            #expect(audio.count == 8)
            #expect(audio.allSatisfy { abs($0["offsetMilliseconds"] as? Double ?? 99) < 1 && ($0["correlation"] as? Double ?? 0) > 0.8 })

            let text = try await Self.verify(output)
            #expect(text.standardOutput.hasPrefix("verify \(output) --sources: OK — 300 frames in 4 segments match their sources"))
            // The stamp path stays as it was, and it cannot read these sources.
            let stamped = try await PipctlProcess.run(["verify", output])
            #expect(stamped.exitStatus == 1)
            #expect(stamped.standardError.contains("carries no frame stamps"))
        }

        @Test func oneFrameDroppedAtASpliceIsNamed() async throws {
            let dir = try ScratchDirectory()
            // Output frame 60, the ad's first, removed; the last frame held once more to keep 300 frames.
            let output = try await Self.edited("drop.mp4", video: "[0:v]select='not(eq(n\\,60))',setpts=N/FRAME_RATE/TB,tpad=stop=1:stop_mode=clone", in: dir)
            let result = try await Self.verify(output)
            #expect(result.exitStatus == 1)
            #expect(result.standardOutput.contains("  break 0 starts at its frame 1 at output frame 60 (0:02.000), expected frame 0 (1 frame lost)\n"),
                    "\(result.standardOutput)")
            #expect(result.standardOutput.contains("  content resumes 1 frame early, at output frame 179 (0:05.967); expected output frame 180\n"))
        }

        @Test func oneRepeatedFrameIsNamed() async throws {
            let dir = try ScratchDirectory()
            // Frames 0–30, then 30 again and on: content frame 30 is shown at output frames 30 and 31.
            let output = try await Self.edited("repeat.mp4", video: "[0:v]split[x][y];[x]trim=end_frame=31,setpts=PTS-STARTPTS[a];[y]trim=start_frame=30,setpts=PTS-STARTPTS[b];[a][b]concat=n=2:v=1:a=0,trim=end_frame=300", in: dir)
            let result = try await Self.verify(output)
            #expect(result.exitStatus == 1)
            #expect(result.standardOutput.contains("\n  at output frame 31 (0:01.033), content frame 30 is shown twice\n"), "\(result.standardOutput)")
            #expect(result.standardOutput.contains("  break 0 starts 1 frame late, at output frame 61 (0:02.033); expected output frame 60\n"))
        }

        @Test func anAdTwoFramesLateIsNamed() async throws {
            let dir = try ScratchDirectory()
            // The last content frame before the break (59) held for two more frames: the ad starts at 62.
            let output = try await Self.edited("late.mp4", video: "[0:v]split[x][y];[x]trim=end_frame=60,setpts=PTS-STARTPTS,tpad=stop=2:stop_mode=clone[a];[y]trim=start_frame=60,setpts=PTS-STARTPTS[b];[a][b]concat=n=2:v=1:a=0,trim=end_frame=300", in: dir)
            let result = try await Self.verify(output)
            #expect(result.exitStatus == 1)
            #expect(result.standardOutput.contains("\n  break 0 starts 2 frames late, at output frame 62 (0:02.067); expected output frame 60\n"), "\(result.standardOutput)")
        }

        @Test func soundFortyMillisecondsLateIsNamed() async throws {
            let dir = try ScratchDirectory()
            let output = try await Self.edited("sound.mp4", audio: "adelay=40:all=1,atrim=duration=10", in: dir)
            let result = try await Self.verify(output)
            #expect(result.exitStatus == 1)
            #expect(result.standardOutput.contains("\n  the sound of ad 0 of break 0 is 40 ms late after output frame 60 (0:02.000) (tolerance 33.3 ms, one frame)\n"),
                    "\(result.standardOutput)")
            // The pictures themselves are right.
            #expect(!result.standardOutput.contains("frame late") && !result.standardOutput.contains("lost"))
        }

        @Test func aRenderOfStaticPicturesIsNotVerifiableWithItsOwnExitStatus() async throws {
            let dir = try ScratchDirectory()
            try FFmpegCommand.run(["-f", "lavfi", "-i", "smptebars=s=320x180:r=30:d=3", "-f", "lavfi", "-i", "sine=f=440:d=3",
                                   "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-c:a", "aac", dir.path("still.mp4")])
            try FFmpegCommand.run(["-f", "lavfi", "-i", "color=c=black:s=320x180:r=30:d=1", "-f", "lavfi", "-i", "sine=f=880:d=1",
                                   "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-c:a", "aac", dir.path("black.mp4")])
            let render = try await PipctlProcess.run(["render", "--content", dir.path("still.mp4"), "--break", "1=" + dir.path("black.mp4"),
                                                      "-o", dir.path("out.mp4"), "--preset", "ultrafast"])
            #expect(render.exitStatus == 0, "\(render.standardError)")
            let result = try await Self.verify(dir.path("out.mp4"))
            #expect(result.exitStatus == 3)
            #expect(result.standardOutput.hasPrefix("verify \(dir.path("out.mp4")) --sources: NOT VERIFIABLE"))
            #expect(result.standardOutput.contains("note: output frames 30–59 (0:01.000) of ad 0 of break 0 are static or black: not verifiable"))
            #expect(result.standardError == "pipctl verify: \(dir.path("out.mp4")): not verifiable: its pictures are static or black\n")
        }

        @Test func aGoldenTimelineWorksWithSources() async throws {
            let dir = try ScratchDirectory()
            let output = try await Self.edited("golden.mp4", video: "[0:v]null", in: dir)
            // The same render judged against a golden whose break is one second later.
            let golden = try String(contentsOfFile: output + ".timeline.json", encoding: .utf8)
            let good = try await Self.verify(output, ["--expect", output + ".timeline.json"])
            #expect(good.exitStatus == 0, "\(good.standardOutput)")
            var json = try #require(try JSONSerialization.jsonObject(with: Data(golden.utf8)) as? [String: Any])
            var segments = try #require(json["segments"] as? [[String: Any]])
            // The break a second later: the content runs on to frame 90, the rest moves with it.
            func add(_ i: Int, _ key: String, _ value: Int) { segments[i][key] = (segments[i][key] as? Int ?? 0) + value }
            add(0, "outEndFrame", 30); add(0, "srcEndTick", 30)
            for i in [1, 2] { add(i, "outStartFrame", 30); add(i, "outEndFrame", 30) }
            add(3, "outStartFrame", 30); add(3, "srcStartTick", 30)
            json["segments"] = segments
            try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: dir.path("moved.json")))
            let moved = try await Self.verify(output, ["--expect", dir.path("moved.json")])
            #expect(moved.exitStatus == 1)
            let content = try await Self.sourcePath("content.mp4")
            #expect(moved.standardOutput.contains("\n  output frames 60–89 (0:02.000) do not show content: the golden timeline says \(content) frames 60–89\n"),
                    "\(moved.standardOutput)")
        }

        @Test func aPausedPictureInPictureRenderWithASixtyFramesPerSecondAdPassesAndAFrameLostInTheAdIsNamed() async throws {
            let dir = try ScratchDirectory()
            let base = try await Self.render
            try FFmpegCommand.run(["-f", "lavfi", "-i", "testsrc2=s=640x360:r=60:d=4", "-f", "lavfi", "-i",
                                   "anoisesrc=seed=9:d=4:r=48000", "-t", "4", "-c:v", "libx264", "-preset", "ultrafast",
                                   "-pix_fmt", "yuv420p", "-c:a", "aac", dir.path("ad60.mp4")])
            let script = try dir.write("pause@1\nresume@1.5\npip on@2\npip off@5\n", to: "viewer.script")
            let output = dir.path("pip.mp4")
            let render = try await PipctlProcess.run(["render", "--content", base + "/content.mp4", "--break",
                                                      "3=\(dir.path("ad60.mp4")),\(base)/ad1.mp4", "--script", "@" + script,
                                                      "-o", output, "--preset", "ultrafast"])
            #expect(render.exitStatus == 0, "\(render.standardError)")
            let timeline = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: output + ".timeline.json"))) as? [String: Any])
            let segments = try #require(timeline["segments"] as? [[String: Any]])
            // A paused run, a run in the picture-in-picture window, then the break held until the window closed.
            #expect(segments.map { $0["paused"] as? Bool } == [false, true, false, false, false, false, false])
            #expect(segments[3]["pip"] is [String: Any])
            #expect(segments[4]["outStartFrame"] as? Int == 150)

            let good = try await Self.verify(output)
            #expect(good.exitStatus == 0, "\(good.standardOutput)")

            // Output frame 200 removed: the 60 fps ad's frame 100 (tick 50 of the ad) never appears.
            let edited = dir.path("lost.mp4")
            try FFmpegCommand.run(["-i", output, "-vf", "select='not(eq(n\\,200))',setpts=N/FRAME_RATE/TB,tpad=stop=1:stop_mode=clone",
                                   "-c:a", "copy", "-c:v", "libx264", "-preset", "ultrafast", edited])
            try FileManager.default.copyItem(atPath: output + ".timeline.json", toPath: edited + ".timeline.json")
            let lost = try await Self.verify(edited)
            #expect(lost.exitStatus == 1)
            #expect(lost.standardOutput.contains("\n  at output frame 200 (0:06.667), ad 0 of break 0 frame 100 is lost (frame 102 follows frame 98)\n"),
                    "\(lost.standardOutput)")
        }
    }
}
