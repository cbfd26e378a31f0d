import Foundation
import MediaCore
import Testing

extension EndToEnd {
    /// `testsrc`, `probe`, `transcode` and `stamps` on real files: what they report, what they write, and how they
    /// refuse bad input.
    @Suite struct MediaCommandsTests {
        @Test func testsrcReportsWhatItWroteAndLeavesOnlyTheClip() async throws {
            let dir = try ScratchDirectory()
            let clip = TestClip.adA
            let result = try await PipctlProcess.run(["testsrc", "-o", dir.path("clip.mp4")] + clip.testsrcArguments)
            #expect(result.exitStatus == 0)
            #expect(result.standardError.isEmpty)
            #expect(result.standardOutput == "\(dir.path("clip.mp4")): 50 frames of 'ada' at 25 fps, 88200 audio samples\n")
            #expect(dir.entries() == ["clip.mp4"])
        }

        @Test(arguments: [TestClip.content, TestClip.adA, TestClip.adB])
        func probeTextDescribesWhatTestsrcMade(clip: TestClip) async throws {
            let path = try await clip.path
            let result = try await PipctlProcess.run(["probe", path])
            #expect(result.exitStatus == 0)
            #expect(result.standardError.isEmpty)
            let lines = result.standardOutput.split(separator: "\n").map(String.init)
            try #require(lines.count == 3, "\(result.standardOutput)")
            #expect(lines[0].hasPrefix("\(path): mov,mp4,m4a,3gp,3g2,mj2, \(clip.seconds).000 s, "))
            let aspect = Rational(Int64(clip.width), Int64(clip.height))
            #expect(lines[1].hasPrefix("  #0 video: h264 \(clip.width)x\(clip.height), DAR \(aspect.numerator)/\(aspect.denominator), "
                + "\(clip.fps)/1 fps, yuv420p, \(clip.frames) frames, \(clip.seconds).000 s, time base 1/"))
            let layout = clip.channels == 1 ? "mono" : "stereo"
            #expect(lines[2].hasPrefix("  #1 audio: aac \(clip.sampleRate) Hz, \(layout), fltp, "))
        }

        @Test(arguments: [TestClip.content, TestClip.adA, TestClip.adB])
        func probeJSONDescribesWhatTestsrcMade(clip: TestClip) async throws {
            let path = try await clip.path
            let result = try await PipctlProcess.run(["probe", "--json", path])
            #expect(result.exitStatus == 0)
            let report = try #require(try JSONSerialization.jsonObject(with: result.standardOutputData) as? [String: Any])
            #expect(report["path"] as? String == path)
            let streams = try #require(report["streams"] as? [[String: Any]])
            let video = try #require(streams.first { $0["kind"] as? String == "video" })
            let audio = try #require(streams.first { $0["kind"] as? String == "audio" })
            #expect(video["codec"] as? String == "h264")
            #expect(video["width"] as? Int == clip.width)
            #expect(video["height"] as? Int == clip.height)
            #expect(video["frameRate"] as? String == "\(clip.fps)/1")
            #expect(video["frameCount"] as? Int64 == clip.frames)
            #expect(video["sampleAspectRatio"] as? String == "1/1")
            #expect(audio["codec"] as? String == "aac")
            #expect(audio["sampleRate"] as? Int == clip.sampleRate)
            #expect(audio["channels"] as? Int == clip.channels)
        }

        @Test(arguments: [TestClip.content, TestClip.adA, TestClip.adB])
        func stampsOfATestClipAreOneRunOfEveryFrame(clip: TestClip) async throws {
            let result = try await PipctlProcess.run(["stamps", try await clip.path])
            #expect(result.exitStatus == 0)
            #expect(result.standardError.isEmpty)
            #expect(result.standardOutput == "output 0–\(clip.frames - 1): \(clip.id) 0–\(clip.frames - 1)\n")
        }

        /// Output frame `j` shows source frame `floor(j × Fs / F + 1/2)`: the run's last index says so.
        @Test(arguments: ["25", "60", "30000/1001", "12"])
        func aTranscodeToAnotherRateShowsTheFramesTheFrameRateRulePicks(rate: String) async throws {
            let dir = try ScratchDirectory()
            let clip = TestClip.content
            let output = dir.path("out.mp4")
            let result = try await PipctlProcess.run(["transcode", try await clip.path, "-o", output, "--fps", rate,
                                                      "--preset", "ultrafast"])
            #expect(result.exitStatus == 0, "\(result.standardError)")
            let outputRate = try #require(FrameRate(parsing: rate))
            let frames = outputRate.frameCount(in: MediaDuration(seconds: clip.seconds))
            // The audio of exactly those frames: A(frames) = floor(frames × rate / F).
            let samples = SampleClock(sampleRate: 48000, frameRate: outputRate).sample(atFrame: frames)
            #expect(result.standardOutput == "\(output): \(frames) frames 320x180 at \(rate) fps, \(samples) samples at 48000 Hz\n")
            let last = sourceFrame(showingOutputFrame: frames - 1, sourceRate: clip.frameRate, outputRate: outputRate,
                                   sourceFrames: clip.frames)
            let stamps = try await PipctlProcess.run(["stamps", output])
            #expect(stamps.exitStatus == 0)
            #expect(stamps.standardOutput == "output 0–\(frames - 1): content 0–\(last)\n")
            #expect(dir.entries() == ["out.mp4"])
        }

        /// Every output frame of `--json` is the frame the rule picks, not only the ends of the run.
        @Test func stampsJSONListsTheSourceFrameOfEveryOutputFrame() async throws {
            let dir = try ScratchDirectory()
            let clip = TestClip.adA
            let output = dir.path("out.mp4")
            let transcode = try await PipctlProcess.run(["transcode", try await clip.path, "-o", output, "--fps", "30",
                                                         "--preset", "ultrafast"])
            #expect(transcode.exitStatus == 0)
            let result = try await PipctlProcess.run(["stamps", "--json", output])
            #expect(result.exitStatus == 0)
            struct Report: Decodable {
                struct Frame: Decodable { var frame: Int64; var source: String?; var index: Int64? }
                var frames: [Frame]
            }
            let report = try JSONDecoder().decode(Report.self, from: result.standardOutputData)
            #expect(report.frames.count == 60)
            for frame in report.frames {
                let expected = sourceFrame(showingOutputFrame: frame.frame, sourceRate: clip.frameRate,
                                           outputRate: FrameRate(30), sourceFrames: clip.frames)
                #expect(frame.source == "ada" && frame.index == expected, "output frame \(frame.frame)")
            }
        }

        @Test func framehashWritesFFmpegsFramemd5Format() async throws {
            let dir = try ScratchDirectory()
            let result = try await PipctlProcess.run(["transcode", try await TestClip.adB.path, "-o", dir.path("out.mp4"),
                                                      "--fps", "25", "--preset", "ultrafast", "--framehash", dir.path("out.md5")])
            #expect(result.exitStatus == 0)
            let lines = try dir.text("out.md5").split(separator: "\n").map(String.init)
            #expect(Array(lines.prefix(9)) == [
                "#format: frame checksums", "#version: 2", "#hash: MD5", "#tb 0: 1/25", "#media_type 0: video",
                "#codec_id 0: rawvideo", "#dimensions 0: 180x320", "#sar 0: 1/1",
                "#stream#, dts,        pts, duration,     size, hash",
            ])
            let frames = Array(lines.dropFirst(9))
            #expect(frames.count == 25)
            for (n, line) in frames.enumerated() {
                let fields = line.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                #expect(fields.count == 6 && fields[0] == "0" && fields[1] == "\(n)" && fields[2] == "\(n)"
                        && fields[3] == "1" && fields[4] == "\(180 * 320 * 3 / 2)" && fields[5].count == 32, "\(line)")
            }
            #expect(dir.entries() == ["out.md5", "out.mp4"])
        }

        /// The hashes are of the pictures encoded; a lossless output decodes to the very same pictures, so ffmpeg's
        /// own `framemd5` of it must be identical line for line.
        @Test(.enabled(if: FFmpegCommand.isAvailable, "needs the ffmpeg tool"))
        func framehashOfALosslessTranscodeEqualsFFmpegsFramemd5() async throws {
            let dir = try ScratchDirectory()
            let result = try await PipctlProcess.run(["transcode", try await TestClip.content.path, "-o", dir.path("out.mkv"),
                                                      "--fps", "24", "--profile", "lossless", "--framehash", dir.path("out.md5")])
            #expect(result.exitStatus == 0, "\(result.standardError)")
            let ours = try dir.text("out.md5").split(separator: "\n").map(String.init)
            #expect(ours == (try FFmpegCommand.frameMD5(dir.path("out.mkv"))))
            #expect(ours.count == 9 + 144)
        }

        /// A bad input of every kind: exit 1, one line naming the file and what is wrong, nothing at the output.
        enum BadInput: String, CaseIterable, Sendable {
            case missing, directory, empty, randomBytes, mp4CutInHalf, audioOnly, videoWithoutFrames

            var needsFFmpeg: Bool { self == .audioOnly || self == .videoWithoutFrames }

            /// Makes the input in `dir` and returns its path and the message expected after `pipctl transcode: PATH: `
            /// (the end of the line, after `…`, where a part of it depends on the encoder).
            func make(in dir: ScratchDirectory) async throws -> (path: String, message: String) {
                let path = dir.path("input-\(rawValue)")
                switch self {
                case .missing:
                    return (path, "no such file")
                case .directory:
                    _ = try dir.subdirectory("input-\(rawValue)")
                    return (path, "is a directory, not a media file")
                case .empty:
                    _ = FileManager.default.createFile(atPath: path, contents: Data())
                    return (path, "the file is empty")
                case .randomBytes:
                    // Reproducible noise (a linear congruential generator), so that no run happens to look like media.
                    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
                    let bytes = (0..<100_000).map { _ -> UInt8 in
                        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                        return UInt8(truncatingIfNeeded: state >> 33)
                    }
                    _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
                    return (path, "not a media file FFmpeg can read (avformat_open_input: Invalid data found when processing input)")
                case .mp4CutInHalf:
                    let whole = try Data(contentsOf: URL(fileURLWithPath: try await TestClip.content.path))
                    _ = FileManager.default.createFile(atPath: path + ".mp4", contents: whole.prefix(whole.count / 2))
                    return (path + ".mp4", "the file is truncated (its index needs …bytes but the file has \(whole.count / 2))")
                case .audioOnly:
                    try FFmpegCommand.makeAudioOnly(path + ".m4a")
                    return (path + ".m4a", "has no video stream")
                case .videoWithoutFrames:
                    try FFmpegCommand.makeVideoWithoutFrames(path + ".mkv", from: try await TestClip.adA.path)
                    return (path + ".mkv", "the video stream has no frames")
                }
            }
        }

        @Test(arguments: BadInput.allCases.filter { !$0.needsFFmpeg })
        func transcodeRefusesABadInputInOneLineAndWritesNothing(kind: BadInput) async throws {
            try await checkTranscodeRefuses(kind)
        }

        @Test(.enabled(if: FFmpegCommand.isAvailable, "needs the ffmpeg tool to make the input"),
              arguments: BadInput.allCases.filter(\.needsFFmpeg))
        func transcodeRefusesAnInputWithoutVideoFramesInOneLineAndWritesNothing(kind: BadInput) async throws {
            try await checkTranscodeRefuses(kind)
        }

        private func checkTranscodeRefuses(_ kind: BadInput) async throws {
            let dir = try ScratchDirectory()
            let (input, message) = try await kind.make(in: dir)
            let outputs = try dir.subdirectory("out")
            let result = try await PipctlProcess.run(["transcode", input, "-o", outputs + "/out.mp4", "--preset", "ultrafast",
                                                      "--framehash", outputs + "/out.md5"])
            #expect(result.exitStatus == 1)
            #expect(result.standardOutput.isEmpty)
            #expect(result.errorLines.count == 1)
            let line = try #require(result.errorLines.first)
            let parts = message.components(separatedBy: "…")
            #expect(line.hasPrefix("pipctl transcode: \(input): \(parts[0])") && line.hasSuffix(parts.last!), "\(line)")
            #expect(dir.entries(in: "out") == [])
        }

        @Test func aBadFrameRateIsAUsageErrorThatWritesNothing() async throws {
            let dir = try ScratchDirectory()
            let result = try await PipctlProcess.run(["transcode", try await TestClip.adB.path, "-o", dir.path("out.mp4"),
                                                      "--fps", "-25", "--framehash", dir.path("out.md5")])
            #expect(result.exitStatus == 2)
            #expect(result.standardOutput.isEmpty)
            #expect(result.errorLines == [
                "pipctl transcode: --fps: \"-25\" is not a frame rate (e.g. 30, 25, 30000/1001)",
                "See 'pipctl transcode --help'.",
            ])
            #expect(dir.entries() == [])
        }
    }
}
