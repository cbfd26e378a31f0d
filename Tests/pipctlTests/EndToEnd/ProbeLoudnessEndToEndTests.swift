import Foundation
import Testing

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
