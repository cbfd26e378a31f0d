import Foundation
import MediaCore
import Testing

extension EndToEnd {
    /// `pipctl verify` on correct renders of ordinary media that it used to call wrong — a WebM/Opus ad, a video
    /// that starts after its audio, one- and two-frame ads, an output rate above the ad's, 10-bit H.264 and
    /// ProRes — and on the same renders with one frame repeated, which it must still call wrong, in words.
    ///
    /// Stamped clips come from `pipctl testsrc` with each id's default tone; the `ffmpeg` command line makes the
    /// WebM, the late start and the 10-bit files from them, and damages renders.
    @Suite(.enabled(if: FFmpegCommand.isAvailable)) struct VerifyOrdinaryMediaTests {
        /// A stamped clip made by `pipctl testsrc` in `dir`, with the id's default tone (no `--tone`).
        static func testsrc(_ dir: ScratchDirectory, id: String, duration: String, fps: Int, size: String = "320x180") async throws -> String {
            let path = dir.path("\(id).mp4")
            let result = try await PipctlProcess.run(["testsrc", "-o", path, "--duration", duration, "--fps", "\(fps)",
                                                      "--size", size, "--id", id, "--preset", "ultrafast"])
            guard result.exitStatus == 0 else { throw SharedArtifacts.Failure(description: "testsrc \(id): \(result.standardError)") }
            return path
        }

        /// Renders 3 s of content `main` (30 fps) with `ads` as one break at 0:01, and returns the output's path.
        static func render(_ dir: ScratchDirectory, ads: [String], fps: Int = 30, name: String = "out") async throws -> String {
            let content = try await testsrc(dir, id: "main", duration: "3", fps: 30)
            let output = dir.path("\(name).mp4")
            let result = try await PipctlProcess.run(["render", "--content", content, "--break", "1=" + ads.joined(separator: ","),
                                                      "--fps", "\(fps)", "-o", output, "--preset", "ultrafast"])
            guard result.exitStatus == 0 else { throw SharedArtifacts.Failure(description: "render: \(result.standardError)") }
            return output
        }

        /// `pipctl verify OUTPUT` passes: exit 0 and an OK line.
        static func expectVerifies(_ output: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
            let result = try await PipctlProcess.run(["verify", output])
            #expect(result.exitStatus == 0, "\(result.standardOutput)\(result.standardError)", sourceLocation: sourceLocation)
            #expect(result.standardOutput.hasPrefix("verify \(output): OK"), "\(result.standardOutput)", sourceLocation: sourceLocation)
        }

        /// A copy of `output` in which output frame `frame` repeats frame `frame - 1` (ffmpeg's `freezeframes`,
        /// re-encoded, sound copied), verified against the original's timeline: verify must fail and say so.
        static func expectRepeatedFrameIsCaught(_ dir: ScratchDirectory, output: String, frame: Int,
                                                sourceLocation: SourceLocation = #_sourceLocation) async throws -> String {
            let damaged = dir.path("damaged-\(frame).mp4")
            try FFmpegCommand.run(["-i", output, "-filter_complex",
                                   "[0:v]split[a][b];[a][b]freezeframes=first=\(frame):last=\(frame):replace=\(frame - 1)",
                                   "-c:v", "libx264", "-preset", "ultrafast", "-c:a", "copy", damaged])
            let result = try await PipctlProcess.run(["verify", damaged, "--timeline", output + ".timeline.json"])
            #expect(result.exitStatus == 1, sourceLocation: sourceLocation)
            #expect(result.standardOutput.hasPrefix("verify \(damaged): FAILED"), "\(result.standardOutput)", sourceLocation: sourceLocation)
            return result.standardOutput
        }

        /// What ffprobe says of one stream of a file: `key=value` lines for `entries`.
        static func ffprobe(_ path: String, stream: String, entries: String) throws -> String {
            try standardOutput(of: "/usr/bin/ffprobe", ["-v", "error", "-select_streams", stream, "-show_entries", "stream=" + entries,
                                                        "-of", "default=noprint_wrappers=1", path])
        }

        /// The strongest frequency (5 Hz steps, 100–4000 Hz) of a quarter second of `path`'s audio from 0.1 s on,
        /// decoded by ffmpeg to mono float: a plain DFT, independent of pipctl's own analyzer.
        static func dominantFrequency(_ path: String) throws -> Int {
            let data = try FFmpegCommand.run(["-i", path, "-map", "0:a:0", "-ss", "0.1", "-t", "0.25", "-ac", "1", "-ar", "48000",
                                              "-f", "f32le", "-c:a", "pcm_f32le", "-"])
            let samples = data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
            var best = (frequency: 0, power: -1.0)
            for frequency in stride(from: 100, through: 4000, by: 5) {
                let w = 2 * Double.pi * Double(frequency) / 48000
                var re = 0.0, im = 0.0
                for (i, x) in samples.enumerated() {
                    re += Double(x) * cos(w * Double(i))
                    im -= Double(x) * sin(w * Double(i))
                }
                if re * re + im * im > best.power { best = (frequency, re * re + im * im) }
            }
            return best.frequency
        }

        /// docs/RENDERING.md's mapping: FNV-1a of the id's UTF-8 bytes, modulo 16 tones from 450 Hz in steps of 150 Hz.
        static func documentedDefaultTone(_ id: String) -> Int {
            let hash = id.utf8.reduce(2_166_136_261 as UInt32) { ($0 ^ UInt32($1)) &* 16_777_619 }
            return 450 + 150 * Int(hash % 16)
        }

        @Test func testsrcGivesTwoIdsTwoDifferentDefaultTones() async throws {
            let dir = try ScratchDirectory()
            let main = try Self.dominantFrequency(try await Self.testsrc(dir, id: "main", duration: "1", fps: 30))
            let opus = try Self.dominantFrequency(try await Self.testsrc(dir, id: "opus", duration: "1", fps: 30))
            #expect(abs(main - Self.documentedDefaultTone("main")) <= 5, "main sounds \(main) Hz")
            #expect(abs(opus - Self.documentedDefaultTone("opus")) <= 5, "opus sounds \(opus) Hz")
            #expect(abs(main - opus) >= 150)
        }

        @Test func aWebMOpusAdVerifiesAtItsRateAndAtTwiceIt() async throws {
            let dir = try ScratchDirectory()
            let stamped = try await Self.testsrc(dir, id: "opus", duration: "1", fps: 25)
            let webm = dir.path("opus.webm")
            try FFmpegCommand.run(["-i", stamped, "-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", "-b:v", "1M",
                                   "-c:a", "libopus", webm])
            // Opus's pre-skip puts the file's start before the first picture.
            let audioStart = try #require(Double(try Self.ffprobe(webm, stream: "a:0", entries: "start_time")
                .replacingOccurrences(of: "start_time=", with: "").trimmingCharacters(in: .whitespacesAndNewlines)))
            #expect(audioStart < 0)
            let output = try await Self.render(dir, ads: [webm])
            try await Self.expectVerifies(output)
            try await Self.expectVerifies(try await Self.render(dir, ads: [webm], fps: 60, name: "out60"))
            // The ad fills output frames 30–59: frame 40 repeating frame 39 is a lost source frame.
            let report = try await Self.expectRepeatedFrameIsCaught(dir, output: output, frame: 40)
            #expect(report.contains("output frame 40 shows opus frame "), "\(report)")
            #expect(report.contains("frames repeated"), "\(report)")
        }

        @Test func aVideoThatStartsAfterItsAudioVerifies() async throws {
            let dir = try ScratchDirectory()
            let stamped = try await Self.testsrc(dir, id: "late", duration: "1", fps: 25)
            let late = dir.path("late-start.mp4")
            try FFmpegCommand.run(["-itsoffset", "0.2", "-i", stamped, "-i", stamped, "-map", "0:v", "-map", "1:a", "-c", "copy", late])
            #expect(try Self.ffprobe(late, stream: "v:0", entries: "start_time") == "start_time=0.200000\n")
            let output = try await Self.render(dir, ads: [late])
            try await Self.expectVerifies(output)
            // The ad's first picture holds for its first 7 output frames (30–36), then one frame follows another:
            // output frame 45 shows the ad's frame 8, and repeating frame 44 (its frame 7) there is wrong.
            let report = try await Self.expectRepeatedFrameIsCaught(dir, output: output, frame: 45)
            #expect(report.contains("output frame 45 shows late frame "), "\(report)")
        }

        @Test func oneAndTwoFrameAdsVerifyAtThirtyAndSixtyFramesPerSecond() async throws {
            let dir = try ScratchDirectory()
            let one = try await Self.testsrc(dir, id: "one", duration: "0.04", fps: 25)
            let two = try await Self.testsrc(dir, id: "two", duration: "0.08", fps: 25)
            #expect(try Self.ffprobe(one, stream: "v:0", entries: "nb_frames") == "nb_frames=1\n")
            #expect(try Self.ffprobe(two, stream: "v:0", entries: "nb_frames") == "nb_frames=2\n")
            let output = try await Self.render(dir, ads: [one, two])
            try await Self.expectVerifies(output)
            try await Self.expectVerifies(try await Self.render(dir, ads: [one, two], fps: 60, name: "out60"))
            // At 30 fps `one` fills output frames 30–31 and `two` 32–34 (its frames 0, 1, 1): frame 33 repeating
            // frame 32 shows two's frame 0 where its frame 1 belongs.
            let report = try await Self.expectRepeatedFrameIsCaught(dir, output: output, frame: 33)
            #expect(report.contains("output frame 33 shows two frame 0, the timeline says frame 1 (1 frame behind: frames repeated)"), "\(report)")
        }

        @Test func tenBitH264AndProResAdsVerify() async throws {
            let dir = try ScratchDirectory()
            let tenbit = dir.path("tenbit10.mp4"), prores = dir.path("prores.mov")
            try FFmpegCommand.run(["-i", try await Self.testsrc(dir, id: "tenbit", duration: "1", fps: 25),
                                   "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p10le", "-c:a", "copy", tenbit])
            try FFmpegCommand.run(["-i", try await Self.testsrc(dir, id: "prores", duration: "1", fps: 25),
                                   "-c:v", "prores_ks", "-pix_fmt", "yuv422p10le", "-c:a", "pcm_s16le", prores])
            #expect(try Self.ffprobe(tenbit, stream: "v:0", entries: "pix_fmt") == "pix_fmt=yuv420p10le\n")
            #expect(try Self.ffprobe(prores, stream: "v:0", entries: "pix_fmt") == "pix_fmt=yuv422p10le\n")
            let stamps = try await PipctlProcess.run(["stamps", prores])
            #expect(stamps.standardOutput == "output 0–24: prores 0–24\n", "\(stamps.standardError)")
            let output = try await Self.render(dir, ads: [tenbit, prores])
            try await Self.expectVerifies(output)
            // `prores` fills output frames 60–89; at 25 fps in 30 its ticks 10 and 11 show its frames 8 and 9.
            let report = try await Self.expectRepeatedFrameIsCaught(dir, output: output, frame: 71)
            #expect(report.contains("output frame 71 shows prores frame 8, the timeline says frame 9 (1 frame behind: frames repeated)"), "\(report)")
        }

        @Test func twoSourcesWithOneToneAreToldApartByTheirStamps() async throws {
            // `show` and `webad` hash to the same default tone (2250 Hz).
            #expect(Self.documentedDefaultTone("show") == Self.documentedDefaultTone("webad"))
            let dir = try ScratchDirectory()
            let content = try await Self.testsrc(dir, id: "show", duration: "3", fps: 30)
            let ad = try await Self.testsrc(dir, id: "webad", duration: "1", fps: 30)
            let output = dir.path("out.mp4")
            let render = try await PipctlProcess.run(["render", "--content", content, "--break", "1=\(ad)", "-o", output,
                                                      "--preset", "ultrafast"])
            #expect(render.exitStatus == 0, "\(render.standardError)")
            let result = try await PipctlProcess.run(["verify", output])
            #expect(result.exitStatus == 0, "\(result.standardOutput)")
            #expect(result.standardOutput.contains(
                "note: the audio change at output frame 30 (break 0) was not checked: show and webad both sound a 2250 Hz tone"),
                "\(result.standardOutput)")
            let report = try await Self.expectRepeatedFrameIsCaught(dir, output: output, frame: 40)
            #expect(report.contains("output frame 40 shows webad frame 9, the timeline says frame 10 (1 frame behind: frames repeated)"), "\(report)")
        }
    }
}
