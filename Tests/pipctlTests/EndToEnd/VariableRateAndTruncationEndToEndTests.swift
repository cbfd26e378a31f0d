import Foundation
import MediaCore
import Testing

extension EndToEnd {
    /// Issue 10 §2: variable-frame-rate sources follow the frame-rate rule from each frame's real timestamp, the
    /// default output rate of VFR content is a standard rate, and an input cut short is reported with the breaks
    /// it never reached. All media is made by the `ffmpeg` command line; results are read back by it.
    @Suite struct VariableRateAndTruncationTests {
        /// 18 frames 320x180, frame `k` a flat grey of luma `16 + 12k`, at 0, 10, 210, 220, 420, 430, … ms: pairs
        /// 10 ms apart every 210 ms (average 180/17 fps), lossless.
        static func makeVariableRateClip(_ path: String) throws {
            try FFmpegCommand.run([
                "-f", "lavfi", "-i",
                "color=black:s=320x180:r=25:d=0.72,format=gray,geq=lum='16+12*N',format=yuv420p,settb=1/1000,"
                    + "setpts='(floor(N/2)*210+mod(N,2)*10)/1000/TB'",
                "-fps_mode", "passthrough", "-video_track_timescale", "1000", "-c:v", "libx264", "-preset", "ultrafast",
                "-qp", "0", path,
            ])
        }

        /// The presentation times of `file`'s video frames, by ffprobe, in milliseconds (the clip's time base).
        static func frameTimesInMilliseconds(_ file: String) throws -> [Int64] {
            let text = try ToolOutput.run("/usr/bin/ffprobe", [
                "-v", "error", "-select_streams", "v:0", "-show_entries", "frame=pts", "-of", "csv=p=0", file,
            ])
            return text.split(separator: "\n").compactMap { Int64($0.split(separator: ",")[0]) }
        }

        /// The luma of the centre pixel of every frame of `file`, decoded by ffmpeg.
        static func centreLuma(_ file: String, width: Int, height: Int) throws -> [Int] {
            let raw = try FFmpegCommand.run(["-i", file, "-map", "0:v:0", "-f", "rawvideo", "-pix_fmt", "gray", "-"])
            let size = width * height
            return stride(from: 0, to: raw.count - size + 1, by: size).map { Int(raw[$0 + (height / 2) * width + width / 2]) }
        }

        /// The rule on real times: tick `t` shows frame `k+1` rather than `k` when `t_{k+1} − t ≤ t − t_k`.
        static func nearestFrame(at t: Rational, times: [Rational]) -> Int {
            var k = 0
            while k + 1 < times.count, times[k + 1] - t <= t - times[k] { k += 1 }
            return k
        }

        /// What a nominal-rate rule would show (the last frame starting at or before `t` + half the average frame).
        static func nominalFrame(at t: Rational, times: [Rational], averageRate: Rational) -> Int {
            let limit = t + averageRate.reciprocal * Rational(1, 2)
            return times.lastIndex { $0 <= limit } ?? 0
        }

        static func expectedLuma(ofFrame k: Int) -> Int { 16 + 12 * k }

        @Test func aVariableRateAdShowsTheFrameNearestEachTickByItsRealTimestamp() async throws {
            let dir = try ScratchDirectory()
            let ad = dir.path("vfr.mp4")
            try Self.makeVariableRateClip(ad)
            let times = try Self.frameTimesInMilliseconds(ad).map { Rational($0, 1000) }
            #expect(times.count == 18 && times[2] == Rational(21, 100) && times[3] == Rational(22, 100))
            let content = try await TestClip.content.path
            let output = dir.path("out.mp4")
            let result = try await PipctlProcess.run([
                "render", "--content", content, "--break", "2=\(ad)", "-o", output, "--preset", "ultrafast", "--crf", "0",
            ])
            #expect(result.exitStatus == 0, "\(result.standardError)")
            let timeline = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: output + ".timeline.json"))) as? [String: Any])
            let segments = try #require(timeline["segments"] as? [[String: Any]])
            let adSegment = try #require(segments.first { $0["kind"] as? String == "ad" })
            let start = try #require(adSegment["outStartFrame"] as? Int)
            let frames = try #require(adSegment["outEndFrame"] as? Int) - start
            // The ad lasts 1.7 s (its last frame, at 1.69 s, lasts 10 ms): ceil(1.7 × 30) ticks.
            #expect(start == 60 && frames == 51)

            let luma = try Self.centreLuma(output, width: 320, height: 180)
            var differsFromNominal = false
            for j in 0..<frames {
                let t = Rational(Int64(j), 30)
                let k = Self.nearestFrame(at: t, times: times)
                if Self.nominalFrame(at: t, times: times, averageRate: Rational(180, 17)) != k { differsFromNominal = true }
                #expect(abs(luma[start + j] - Self.expectedLuma(ofFrame: k)) <= 3,
                        "output frame \(start + j) (ad tick \(j)) shows luma \(luma[start + j]), frame \(k) has \(Self.expectedLuma(ofFrame: k))")
            }
            // The clip is chosen so that the nominal-rate rule would show other frames: the test can tell them apart.
            #expect(differsFromNominal)
        }

        @Test func variableRateContentRunsAtTheNearestStandardRateAndShowsTheNearestFrames() async throws {
            let dir = try ScratchDirectory()
            let content = dir.path("vfr.mp4")
            try Self.makeVariableRateClip(content)
            let times = try Self.frameTimesInMilliseconds(content).map { Rational($0, 1000) }
            let output = dir.path("out.mp4")
            let result = try await PipctlProcess.run(["render", "--content", content, "-o", output, "--preset", "ultrafast", "--crf", "0"])
            #expect(result.exitStatus == 0, "\(result.standardError)")
            // The average 180/17 ≈ 10.6 fps is nearest by ratio to 24000/1001 (2.264×) among the standard rates.
            #expect(result.standardOutput.hasPrefix("\(output): 41 frames ("), "\(result.standardOutput)")
            #expect(result.standardOutput.contains(" 320x180 at 24000/1001 fps, 1 segments\n"), "\(result.standardOutput)")
            let rate = try ToolOutput.run("/usr/bin/ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries",
                                                                "stream=r_frame_rate", "-of", "csv=p=0", output])
            #expect(rate.trimmingCharacters(in: .whitespacesAndNewlines) == "24000/1001")

            // transcode chooses its default rate by the same rule.
            let transcoded = dir.path("transcoded.mp4")
            let transcode = try await PipctlProcess.run(["transcode", content, "-o", transcoded, "--preset", "ultrafast"])
            #expect(transcode.exitStatus == 0, "\(transcode.standardError)")
            #expect(transcode.standardOutput.hasPrefix("\(transcoded): 41 frames 320x180 at 24000/1001 fps"), "\(transcode.standardOutput)")

            let luma = try Self.centreLuma(output, width: 320, height: 180)
            #expect(luma.count == 41)
            for j in 0..<min(41, luma.count) {
                let k = Self.nearestFrame(at: Rational(Int64(j) * 1001, 24000), times: times)
                #expect(abs(luma[j] - Self.expectedLuma(ofFrame: k)) <= 3, "output frame \(j): luma \(luma[j]), frame \(k)")
            }
        }

        @Test func aTruncatedContentIsReportedWithTheTimeItEndedAndTheMidrollAfterItIsNotReached() async throws {
            let dir = try ScratchDirectory()
            let whole = dir.path("whole.mkv"), content = dir.path("half.mkv")
            try FFmpegCommand.run([
                "-f", "lavfi", "-i", "testsrc2=size=320x180:rate=25:duration=10", "-f", "lavfi", "-i",
                "sine=frequency=440:duration=10", "-c:v", "libx264", "-preset", "ultrafast", "-g", "25", "-c:a", "aac", whole,
            ])
            let bytes = try Data(contentsOf: URL(fileURLWithPath: whole))
            try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: content))
            // Where the frames of the cut file really stop, by ffprobe: the last video packet's end.
            let packets = try ToolOutput.run("/usr/bin/ffprobe", [
                "-v", "quiet", "-select_streams", "v:0", "-show_entries", "packet=pts,duration", "-of", "csv=p=0", content,
            ]).split(separator: "\n").map { $0.split(separator: ",").compactMap { Int64($0) } }.filter { $0.count == 2 }
            let realEnd = try #require(packets.map { $0[0] + $0[1] }.max())  // Matroska's 1/1000 time base
            #expect(realEnd > 2000 && realEnd < 8000)
            let endText = MediaTime.format(Rational(realEnd, 1000))
            // What the container declares (10 s of video, the AAC audio a little longer), by ffprobe.
            let declaredText = try ToolOutput.run("/usr/bin/ffprobe", [
                "-v", "quiet", "-show_entries", "format=duration", "-of", "csv=p=0", content,
            ]).trimmingCharacters(in: .whitespacesAndNewlines)
            let declared = MediaTime.format(try #require(Rational(parsing: declaredText)))
            #expect(declared.hasPrefix("0:00:10."))

            // The post-roll is the same cut file: an ad cut short is reported too, after its LOADED.
            let b = try await TestClip.adB.path
            let output = dir.path("out.mp4")
            let result = try await PipctlProcess.run([
                "render", "--content", content, "--break", "8=\(b)", "--break", "post=\(content)", "-o", output,
                "--preset", "ultrafast",
            ])
            #expect(result.exitStatus == 0, "\(result.standardError)")
            #expect(result.standardOutput.contains(
                "  content ended early: \(content) ends at \(endText), before the \(declared) its container declares\n"),
                "\(result.standardOutput)")
            #expect(result.standardOutput.contains(
                "  ad 0 of break 1 ended early: \(content) ends at \(endText), before the \(declared) its container declares\n"))
            #expect(result.standardOutput.contains("  break 0 (midroll@0:00:08.000) not reached: the content ended before its cue\n"))
            #expect(result.standardOutput.contains("ads: 1 played, 1 skipped, 0 failed"))

            let events = try StartAndCuePointsTests.jsonLines(try dir.text("out.mp4.events.jsonl"))
            let earlyLogs = events.filter { $0["reason"] as? String == "endedEarly" }
            #expect(earlyLogs.count == 2)
            let early = try #require(earlyLogs.first)
            #expect(early["type"] as? String == "LOG")
            #expect(early["message"] as? String == "the content ends at \(endText), before the \(declared) its container declares: \(content)")
            // Reported where the content ends: its last tick at 25 fps ends at or just after the real end.
            let contentEnd = try #require(early["contentTime"] as? Double)
            #expect(contentEnd >= Double(realEnd) / 1000 && contentEnd < Double(realEnd) / 1000 + 0.04)
            let skipped = try #require(events.first { $0["type"] as? String == "AD_BREAK_SKIPPED" })
            #expect(skipped["break"] as? Int == 0 && skipped["reason"] as? String == "contentEnded")
            #expect(skipped["contentTime"] as? Double == contentEnd)
            // The content plays to its real end and the post-roll still plays.
            #expect(events.filter { $0["type"] as? String == "AD_BREAK_STARTED" }.map { $0["break"] as? Int } == [1])
            let adLog = try #require(earlyLogs.last)
            #expect(adLog["break"] as? Int == 1 && adLog["ad"] as? Int == 0)
            #expect(adLog["message"] as? String == "ad 0 of break 1 ends at \(endText), before the \(declared) its container declares: \(content)")
            let loaded = try #require(events.firstIndex { $0["type"] as? String == "LOADED" && $0["break"] as? Int == 1 })
            #expect(events[loaded + 1]["reason"] as? String == "endedEarly")
            let timeline = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: output + ".timeline.json"))) as? [String: Any])
            let segments = try #require(timeline["segments"] as? [[String: Any]])
            #expect(segments.map { $0["kind"] as? String } == ["content", "ad"])
            #expect(segments.first?["outEndFrame"] as? Int == Int(FrameRate(25).frameCount(in: MediaDuration(seconds: Rational(realEnd, 1000)))))
        }

        @Test func aWholeMatroskaContentIsNotReportedAsEndingEarly() async throws {
            let dir = try ScratchDirectory()
            let content = dir.path("whole.mkv")
            try FFmpegCommand.run([
                "-f", "lavfi", "-i", "testsrc2=size=320x180:rate=25:duration=3", "-f", "lavfi", "-i",
                "sine=frequency=440:duration=3.5", "-c:v", "libx264", "-preset", "ultrafast", "-c:a", "aac", content,
            ])
            let output = dir.path("out.mp4")
            let result = try await PipctlProcess.run(["render", "--content", content, "-o", output, "--preset", "ultrafast"])
            #expect(result.exitStatus == 0, "\(result.standardError)")
            #expect(!result.standardOutput.contains("ended early"), "\(result.standardOutput)")
            #expect(!(try dir.text("out.mp4.events.jsonl")).contains("endedEarly"))
        }
    }
}

/// Runs a tool other than ffmpeg (ffprobe) and returns its standard output as text.
enum ToolOutput {
    static func run(_ tool: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("tool-\(UUID().uuidString).out")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: output) }
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw FFmpegCommand.Failure(description: "\(tool) \(arguments.joined(separator: " ")) exited \(process.terminationStatus)")
        }
        return String(decoding: try Data(contentsOf: output), as: UTF8.self)
    }
}
