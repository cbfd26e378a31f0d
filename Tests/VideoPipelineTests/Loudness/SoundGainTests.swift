import Foundation
import MediaCore
import Testing
@testable import VideoPipeline

/// The static gain and the look-ahead true-peak limiter of a normalised render, on synthesised sound, without a
/// render: planned from block true peaks read by libebur128, checked by libebur128's own true peak afterwards.
@Suite struct SoundGainTests {
    static let rate = 48_000

    /// `seconds` of stereo sine at `frequency` with amplitude `amplitude(sampleIndex)`.
    static func tone(seconds: Double, frequency: Double = 997,
                     amplitude: (Int) -> Double) throws -> AudioBuffer {
        let count = Int(seconds * Double(rate))
        let buffer = try AudioBuffer(channels: 2, sampleRate: rate, capacity: count)
        buffer.fill(count: count) { _, i in Float(amplitude(i) * sin(2 * Double.pi * frequency * Double(i) / Double(rate))) }
        return buffer
    }

    /// Each 5 ms block's true peak, as `LoudnessAnalysis.measure(source:format:)` reads them.
    static func peaks(_ buffer: AudioBuffer) throws -> (BlockPeaks, Loudness) {
        let meter = try LoudnessMeter(channels: buffer.channels, sampleRate: rate)
        let length = BlockPeaks.blockLength(sampleRate: rate)
        var peaks: [Float] = []
        var at = 0
        while at < buffer.count {
            let to = min(buffer.count, at + length)
            peaks.append(Float(try meter.addReadingPeak(buffer, from: at, to: to)))
            at = to
        }
        return (BlockPeaks(blockLength: length, peaks: peaks), try meter.result())
    }

    static func measure(_ buffer: AudioBuffer) throws -> Loudness {
        let meter = try LoudnessMeter(channels: buffer.channels, sampleRate: rate)
        try meter.add(buffer)
        return try meter.result()
    }

    /// A copy of `buffer` with `gain` applied chunk by chunk, `chunk` samples at a time, as a render reads it.
    static func applied(_ gain: SoundGain, to buffer: AudioBuffer, chunk: Int) throws -> AudioBuffer {
        let out = try AudioBuffer(channels: buffer.channels, sampleRate: rate, capacity: buffer.count)
        let part = try AudioBuffer(channels: buffer.channels, sampleRate: rate, capacity: chunk)
        var at = 0
        var planes: [[Float]] = Array(repeating: [], count: buffer.channels)
        let source = (0..<buffer.channels).map { buffer.samples(channel: $0) }
        while at < buffer.count {
            let n = min(chunk, buffer.count - at)
            part.fill(count: n) { c, i in source[c][at + i] }
            gain.apply(to: part, position: Int64(at), count: n)
            for c in 0..<buffer.channels { planes[c] += part.samples(channel: c) }
            at += n
        }
        out.fill(count: buffer.count) { c, i in planes[c][i] }
        return out
    }

    @Test func zeroDecibelsUnderTheCeilingLeavesEverySampleAsItWas() throws {
        let buffer = try Self.tone(seconds: 1) { _ in 0.5 }
        let (peaks, _) = try Self.peaks(buffer)
        let gain = SoundGain(decibels: 0, peaks: peaks)
        #expect(gain.isIdentity)
        let out = try Self.applied(gain, to: buffer, chunk: 1600)
        #expect(out.samples(channel: 0) == buffer.samples(channel: 0))
    }

    @Test func aStaticGainMovesTheLoudnessByItsDecibels() throws {
        // A 997 Hz stereo sine at −14 dBFS reads −14 LUFS; −9 dB brings it to −23.
        let buffer = try Self.tone(seconds: 4) { _ in pow(10, -14.0 / 20) }
        let (peaks, before) = try Self.peaks(buffer)
        let gain = SoundGain(decibels: -9, peaks: peaks)
        #expect(!gain.isLimiting)
        let after = try Self.measure(try Self.applied(gain, to: buffer, chunk: 1600))
        let was = try #require(before.integrated), now = try #require(after.integrated)
        #expect(abs(now - (was - 9)) < 0.01, "\(was) → \(now) LUFS")
    }

    @Test func theLimiterKeepsTheTruePeakUnderTheCeiling() throws {
        // −3 dBFS raised by 8 dB would peak at +5 dBTP.
        let buffer = try Self.tone(seconds: 2) { _ in pow(10, -3.0 / 20) }
        let (peaks, _) = try Self.peaks(buffer)
        let gain = SoundGain(decibels: 8, peaks: peaks)
        #expect(gain.isLimiting)
        let after = try Self.measure(try Self.applied(gain, to: buffer, chunk: 1024))
        let peak = try #require(after.truePeak)
        #expect(peak <= SoundGain.ceiling + 0.05, "true peak \(peak) dBTP")
        #expect(peak >= SoundGain.ceiling - 0.5, "limited too hard: \(peak) dBTP")
    }

    /// A loud burst in quiet sound: brought down with its look-ahead before it and its release after; the quiet
    /// sound a release away keeps the static gain exactly.
    @Test func theLimiterActsOnlyAroundAPeak() throws {
        let burst = 24_000..<24_480
        let buffer = try Self.tone(seconds: 1) { burst.contains($0) ? 0.9 : 0.05 }
        let (peaks, _) = try Self.peaks(buffer)
        let gain = SoundGain(decibels: 6, peaks: peaks)
        let block = Int64(BlockPeaks.blockLength(sampleRate: Self.rate))
        // Blocks 100 and 101 hold the burst; the true-peak interpolator's delay may reach a block either side.
        #expect(Set(gain.limits.map(\.block)).isSuperset(of: [100, 101]))
        #expect(gain.limits.allSatisfy { (99...102).contains($0.block) }, "\(gain.limits)")
        #expect(gain.limiterGain(at: 0) == 1)
        #expect(gain.limiterGain(at: 99 * block - SoundGain.attackBlocks * block) == 1)
        #expect(gain.limiterGain(at: 100 * block - 1) < 1)
        #expect(gain.limiterGain(at: 24_100) < 0.7)
        #expect(gain.limiterGain(at: 103 * block + SoundGain.releaseBlocks * block) == 1)
        let out = try Self.applied(gain, to: buffer, chunk: 4800)
        let factor = Float(pow(10, 6.0 / 20))
        #expect(out.samples(channel: 0)[1000] == buffer.samples(channel: 0)[1000] * factor)
        let peak = try #require(try Self.measure(out).truePeak)
        #expect(peak <= -1.0, "true peak \(peak) dBTP")
    }

    /// The limiter's gain is a function of the sample's position alone: any chunking gives the same bytes.
    @Test(arguments: [1, 7, 480, 1601, 48_000])
    func theSameBytesWhateverTheChunks(chunk: Int) throws {
        let buffer = try Self.tone(seconds: 1) { i in i % 9000 < 700 ? 0.95 : 0.1 }
        let (peaks, _) = try Self.peaks(buffer)
        let gain = SoundGain(decibels: 4.5, peaks: peaks)
        #expect(gain.isLimiting)
        let whole = try Self.applied(gain, to: buffer, chunk: buffer.count)
        let parts = try Self.applied(gain, to: buffer, chunk: chunk)
        #expect(whole.samples(channel: 0) == parts.samples(channel: 0))
        #expect(whole.samples(channel: 1) == parts.samples(channel: 1))
    }
}
