import Foundation
import Testing
@testable import VideoPipeline
import MediaCore

/// The meter against the test signals of EBU Tech 3341 (loudness, true peak) and Tech 3342 (loudness range),
/// synthesised here: stereo 1 kHz sines at 48 kHz whose per-channel peak level is given in dBFS.
@Suite struct LoudnessMeterTests {
    /// Feeds `steps` (peak level in dBFS, seconds) of a stereo sine of `frequency` to a fresh meter, phase continuous.
    static func measure(_ steps: [(level: Double, seconds: Double)], frequency: Double = 1000, phase: Double = 0,
                        sampleRate: Int = 48_000) throws -> Loudness {
        let meter = try LoudnessMeter(channels: 2, sampleRate: sampleRate)
        let buffer = try AudioBuffer(channels: 2, sampleRate: sampleRate, capacity: 4800)
        var n = 0
        for step in steps {
            let amplitude = pow(10, step.level / 20)
            var left = Int((step.seconds * Double(sampleRate)).rounded())
            while left > 0 {
                let count = min(left, buffer.capacity)
                let start = n
                buffer.fill(count: count) { _, i in
                    Float(amplitude * sin(2 * Double.pi * frequency * Double(start + i) / Double(sampleRate) + phase))
                }
                try meter.add(buffer, to: count)
                n += count
                left -= count
            }
        }
        return try meter.result()
    }

    @Test(arguments: [
        // Tech 3341 Table 1, cases 1–5: expected integrated loudness ±0.1 LU.
        (1, [(-23.0, 20.0)], -23.0),
        (2, [(-33.0, 20.0)], -33.0),
        (3, [(-36.0, 10.0), (-23.0, 60.0), (-36.0, 10.0)], -23.0),
        (4, [(-72.0, 10.0), (-36.0, 10.0), (-23.0, 60.0), (-36.0, 10.0), (-72.0, 10.0)], -23.0),
        (5, [(-26.0, 20.0), (-20.0, 20.1), (-26.0, 20.0)], -23.0),
    ] as [(Int, [(Double, Double)], Double)])
    func integratedLoudnessOfTech3341Case(_ number: Int, steps: [(Double, Double)], expected: Double) throws {
        let measured = try Self.measure(steps.map { (level: $0.0, seconds: $0.1) })
        let integrated = try #require(measured.integrated, "case \(number)")
        #expect(abs(integrated - expected) <= 0.1, "case \(number): \(integrated) LUFS")
    }

    @Test(arguments: [
        // Tech 3342 Table 1, cases 1–4: expected loudness range ±1 LU.
        (1, [(-20.0, 20.0), (-30.0, 20.0)], 10.0),
        (2, [(-20.0, 20.0), (-15.0, 20.0)], 5.0),
        (3, [(-40.0, 20.0), (-20.0, 20.0)], 20.0),
        (4, [(-50.0, 20.0), (-35.0, 20.0), (-20.0, 20.0), (-35.0, 20.0), (-50.0, 20.0)], 15.0),
    ] as [(Int, [(Double, Double)], Double)])
    func loudnessRangeOfTech3342Case(_ number: Int, steps: [(Double, Double)], expected: Double) throws {
        let measured = try Self.measure(steps.map { (level: $0.0, seconds: $0.1) })
        let range = try #require(measured.range, "case \(number)")
        #expect(abs(range - expected) <= 1, "case \(number): \(range) LU")
    }

    /// A sine at a quarter of the sample rate, 45° out of phase with the samples: every sample lies 3 dB under the
    /// wave's peak, so a sample-peak meter reads −9 dBFS where the true peak is −6 dBTP (Tech 3341's tolerance
    /// +0.2/−0.4 dB).
    @Test func truePeakSeesBetweenTheSamples() throws {
        let measured = try Self.measure([(level: -6, seconds: 5)], frequency: 12_000, phase: Double.pi / 4)
        let truePeak = try #require(measured.truePeak), samplePeak = try #require(measured.samplePeak)
        #expect(truePeak >= -6.4 && truePeak <= -5.8, "\(truePeak) dBTP")
        #expect(abs(samplePeak - -9.03) < 0.05, "\(samplePeak) dBFS")
    }

    @Test func silenceHasNoLoudnessAndNoPeak() throws {
        let measured = try Self.measure([(level: -.infinity, seconds: 5)])
        #expect(measured.integrated == nil && measured.range == nil && measured.truePeak == nil && measured.samplePeak == nil)
        #expect(measured.duration == MediaDuration(seconds: 5))
    }

    /// A 2 s tone is too short for a loudness range; its highest momentary loudness is there to stand in.
    @Test func shortSoundHasAMomentaryMaximum() throws {
        let measured = try Self.measure([(level: -20, seconds: 2)])
        let momentary = try #require(measured.maxMomentary)
        #expect(abs(momentary - -20) <= 0.1, "\(momentary) LUFS")
        #expect(measured.range == nil || measured.range == 0)
    }

    @Test func channelCountsWithoutAnFFmpegLayoutAreRefusedByName() {
        #expect(throws: MediaError.loudness(function: "ebur128_set_channel", detail: "no BS.1770 channel map for 9 channels")) {
            _ = try LoudnessMeter(channels: 9, sampleRate: 48_000)
        }
    }

    /// Every output channel count (1 to 8, in FFmpeg's default layout for it) reads as FFmpeg's own `ebur128`
    /// filter reads the same file: a tone of its own level on each channel, so that a channel weighed wrongly (an
    /// LFE counted, a surround at 1 rather than 1.41) moves the sum.
    @Test(arguments: 1...8)
    func everyChannelCountReadsAsFFmpegsFilter(channels: Int) throws {
        let dir = TemporaryDirectory()
        let path = dir.path("tone.wav")
        let tones = (0..<channels).map { "\(0.03 + 0.02 * Double($0))*sin(2*PI*\(300 + 110 * $0)*t)" }.joined(separator: "|")
        try FFmpegTool.ffmpeg("-f", "lavfi", "-i", "aevalsrc=\(tones):s=48000:d=5", "-c:a", "pcm_f32le", path)
        let report = try LoudnessAnalysis.measure(file: path)
        let peer = try LoudnessAnalysisTests.ffmpegFigures(path)
        #expect(report.channels == channels)
        let integrated = try #require(report.whole.integrated)
        #expect(abs(integrated - peer.integrated) <= 0.1, "\(channels) channels: pipctl \(integrated) LUFS, ffmpeg \(peer.integrated) LUFS")
    }
}
