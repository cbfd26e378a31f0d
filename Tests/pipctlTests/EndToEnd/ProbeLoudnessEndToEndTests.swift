import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

extension EndToEnd {
    /// `pipctl probe --loudness`: the figures a person reads and the JSON a script reads, on a tone made by the
    /// ffmpeg tool at a known level, and the one-line refusal of a file without sound.
    @Suite struct ProbeLoudnessTests {
        /// 10 s of a stereo 1 kHz sine whose peak is −23 dBFS: EBU Tech 3341 case 1, −23.0 LUFS.
        static func makeReferenceTone(_ path: String) throws {
            _ = try FFmpegCommand.run(["-v", "error", "-y", "-f", "lavfi", "-i",
                                       "aevalsrc=0.0707946*sin(2*PI*1000*t):s=48000:c=stereo:d=10",
                                       "-c:a", "pcm_s16le", path])
        }

        @Test func textNamesEachFigureWithItsUnit() async throws {
            let dir = try ScratchDirectory()
            try Self.makeReferenceTone(dir.path("tone.wav"))
            let result = try await PipctlProcess.run(["probe", "--loudness", dir.path("tone.wav")])
            #expect(result.exitStatus == 0)
            let line = try #require(result.standardOutput.split(separator: "\n").last.map(String.init))
            #expect(line.hasPrefix("  loudness: integrated -23.0 LUFS, range 0.0 LU, momentary max -23.0 LUFS, true peak -23.0 dBTP"),
                    "\(line)")
        }

        @Test func jsonCarriesTheFigures() async throws {
            let dir = try ScratchDirectory()
            try Self.makeReferenceTone(dir.path("tone.wav"))
            let result = try await PipctlProcess.run(["probe", "--loudness", "--json", dir.path("tone.wav")])
            #expect(result.exitStatus == 0)
            let report = try #require(try JSONSerialization.jsonObject(with: result.standardOutputData) as? [String: Any])
            let loudness = try #require(report["loudness"] as? [String: Any])
            #expect(loudness["integrated"] as? Double == -23.0)
            #expect(loudness["truePeak"] as? Double == -23.0)
            #expect(loudness["duration"] as? Double == 10.0)
        }

        /// A file of more channels than a layout BS.1770 weighs (FFmpeg names 16, hexadecagonal) is remixed to
        /// stereo, as docs/LOUDNESS.md says, not a crash (SIGILL: a 16-channel buffer has no 9th plane).
        @Test func sixteenChannelsAreRemixedToStereo() async throws {
            let dir = try ScratchDirectory()
            let inputs = (0..<16).map { "[a\($0)]" }.joined()
            _ = try FFmpegCommand.run(["-v", "error", "-y", "-f", "lavfi", "-i", "aevalsrc=0.1*sin(2*PI*1000*t):s=48000:d=1",
                                       "-filter_complex", "[0]asplit=16\(inputs);\(inputs)amerge=inputs=16[o]", "-map", "[o]",
                                       "-c:a", "pcm_s16le", dir.path("sixteen.wav")])
            let result = try await PipctlProcess.run(["probe", "--loudness", dir.path("sixteen.wav")])
            #expect(result.exitStatus == 0, "\(result.standardError)")
            #expect(!result.endedBySignal)
            let line = result.standardOutput.split(separator: "\n").last.map(String.init) ?? ""
            #expect(line.hasPrefix("  loudness: integrated -"), "\(result.standardOutput)")
        }

        /// One sample is one sample, in samples and milliseconds, not "over 0.100 s" (the block it was read in).
        @Test func aSingleSampleIsCountedAsOne() async throws {
            let dir = try ScratchDirectory()
            _ = try FFmpegCommand.run(["-v", "error", "-y", "-f", "lavfi", "-i", "aevalsrc=0.5:s=48000:c=mono:d=1",
                                       "-af", "atrim=end_sample=1", "-c:a", "pcm_s16le", dir.path("one.wav")])
            let result = try await PipctlProcess.run(["probe", "--loudness", dir.path("one.wav")])
            #expect(result.exitStatus == 0, "\(result.standardError)")
            let line = result.standardOutput.split(separator: "\n").last.map(String.init) ?? ""
            #expect(line.hasSuffix(", true peak -6.0 dBTP, sample peak -6.0 dBFS, over 1 sample (0.02 ms)"), "\(line)")
            let json = try await PipctlProcess.run(["probe", "--loudness", "--json", dir.path("one.wav")])
            let report = try #require(try JSONSerialization.jsonObject(with: json.standardOutputData) as? [String: Any])
            let loudness = try #require(report["loudness"] as? [String: Any])
            #expect(loudness["duration"] as? Double == 1.0 / 48000)
        }

        /// SIGQUIT (which the Swift runtime's backtracer used to swallow) and SIGTERM stop the measurement: exit
        /// 128 + N, one line, nothing on standard output.
        @Test(arguments: [SIGQUIT, SIGTERM, SIGINT])
        func aSignalStopsTheMeasurement(signal: Int32) async throws {
            let dir = try ScratchDirectory()
            // Ten minutes of 48 kHz stereo: about 3 s of measuring in a release build, far more than the signal takes
            // to arrive (8 kHz mono took 0.35 s, and a loaded machine sometimes sent the signal after it had ended).
            _ = try FFmpegCommand.run(["-v", "error", "-y", "-f", "lavfi", "-i", "sine=f=440:r=48000:d=600", "-ac", "2",
                                       "-c:a", "pcm_s16le", dir.path("long.wav")])
            let probe = try PipctlProcess(["probe", "--loudness", dir.path("long.wav")])
            // Swift's runtime catches SIGQUIT from the start (its backtracer), so that mask alone says nothing: pipctl
            // installs its handlers in the order of `Interrupted.terminatingSignals`, SIGXFSZ last, so once that one
            // is caught, pipctl's handler for `signal` is in place.
            try await waitUntil("pipctl probe catches its terminating signals") {
                try Self.catches(SIGXFSZ, pid: probe.processIdentifier) && Self.catches(signal, pid: probe.processIdentifier)
            }
            probe.send(signal)
            let result = try await probe.result()
            #expect(!result.endedBySignal, "pipctl caught the signal and exited by itself")
            #expect(result.exitStatus == 128 + signal, "\(result.standardError)")
            #expect(result.standardOutput.isEmpty)
            let reason = [SIGQUIT: "quit (SIGQUIT)", SIGTERM: "terminated (SIGTERM)", SIGINT: "interrupted (SIGINT)"][signal] ?? ""
            #expect(result.errorLines == ["pipctl probe: \(reason)"])
        }

        /// Whether process `pid` has a handler for `signal` (`SigCgt` in /proc/PID/status): the fact that it will
        /// catch it, which no output tells.
        static func catches(_ signal: Int32, pid: Int32) throws -> Bool {
            guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
                  let line = status.split(separator: "\n").first(where: { $0.hasPrefix("SigCgt:") }),
                  let mask = UInt64(line.dropFirst("SigCgt:".count).trimmingCharacters(in: .whitespaces), radix: 16) else { return false }
            return mask & (1 << UInt64(signal - 1)) != 0
        }

        @Test func aFileWithoutSoundIsOneLineAndExitOne() async throws {
            let dir = try ScratchDirectory()
            let clip = dir.path("picture.mp4")
            _ = try FFmpegCommand.run(["-v", "error", "-y", "-f", "lavfi", "-i", "color=size=64x64:rate=10:duration=1",
                                       "-c:v", "libx264", "-pix_fmt", "yuv420p", clip])
            let result = try await PipctlProcess.run(["probe", "--loudness", clip])
            #expect(result.exitStatus == 1)
            #expect(result.standardError == "pipctl probe: \(clip): has no audio stream\n", "\(result.standardError)")
        }
    }
}
