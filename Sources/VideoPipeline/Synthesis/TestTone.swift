import Foundation

/// The sound of a synthetic test source: a steady sine at the source's own frequency, and a click at every
/// whole second of the source's clock.
///
/// The tone says which source is audible (`ToneAnalyzer`); the clicks mark whole seconds, so audio sync can be
/// checked against frame stamps. Every sample is a pure function of its index on the source's clock, so a clip
/// generated in pieces is identical to one generated at once.
///
/// Levels: the tone peaks at 0.25 (-12 dBFS); the click is a 2 ms doublet (+0.5 for 1 ms, then -0.5 for 1 ms,
/// so it carries no DC) added on top, starting exactly at samples `k × sampleRate`.
public struct TestTone: Hashable, Sendable {
    /// The tones a source may have, in Hz: audible, well inside what AAC keeps, and what
    /// `ToneAnalyzer.estimateTone` searches.
    public static let frequencyRange = 100...4000
    public static let toneAmplitude: Float = 0.25

    /// The tones a source gets when none is asked for: 16 tones from 450 to 2700 Hz, 150 Hz apart.
    ///
    /// 150 Hz keeps `ToneAnalyzer` sure of which is which within 20 ms and puts a change of tone to the
    /// millisecond with windows of under 30 ms (4 beats of the difference), short enough for a one-frame ad; all
    /// lie below half of 8 kHz and well inside what AAC and Opus keep.
    public static let defaultFrequencies: [Int] = (0..<16).map { 450 + 150 * $0 }

    /// The default tone of source `sourceID`: FNV-1a of its UTF-8 bytes, modulo the 16 `defaultFrequencies`.
    ///
    /// Deterministic on every run and machine, so the same id always sounds the same, and two ids usually sound
    /// different (1 pair in 16 collide; `--tone` picks another, and `pipctl verify` tells sources apart by their
    /// stamps first, using tones only for the audio).
    public static func defaultFrequency(forSourceID sourceID: String) -> Int {
        let hash = sourceID.utf8.reduce(2_166_136_261 as UInt32) { ($0 ^ UInt32($1)) &* 16_777_619 }
        return defaultFrequencies[Int(hash % UInt32(defaultFrequencies.count))]
    }
    public static let clickAmplitude: Float = 0.5

    /// The tone, in Hz.
    public let frequency: Int
    public let sampleRate: Int
    public let channels: Int

    /// Describes the sound of a source with tone `frequency`.
    ///
    /// - Throws: `TestSourceError.invalidAudioFormat` for a rate that is not positive or channels outside 1...8,
    ///   `.invalidToneFrequency` for a tone outside `frequencyRange` or not below half the sample rate.
    public init(frequency: Int, sampleRate: Int, channels: Int = 2) throws(TestSourceError) {
        guard sampleRate > 0, (1...8).contains(channels) else {
            throw .invalidAudioFormat(sampleRate: sampleRate, channels: channels)
        }
        guard TestTone.frequencyRange.contains(frequency), 2 * frequency < sampleRate else {
            throw .invalidToneFrequency(hertz: frequency, sampleRate: sampleRate)
        }
        self.frequency = frequency
        self.sampleRate = sampleRate
        self.channels = channels
    }

    /// Samples in each half of the click (1 ms, rounded down: 44 at 44.1 kHz).
    public var clickHalfLength: Int { max(1, sampleRate / 1000) }

    /// The value of every channel at sample `index` of the source's clock.
    public func sample(at index: Int64) -> Float {
        let rate = Int64(sampleRate)
        // The phase is reduced exactly in integers, so it never drifts however long the clip.
        let phase = Double(mod(index * Int64(frequency), rate)) / Double(rate)
        var value = TestTone.toneAmplitude * Float(sin(2 * .pi * phase))
        let intoSecond = Int(mod(index, rate))
        if intoSecond < clickHalfLength {
            value += TestTone.clickAmplitude
        } else if intoSecond < 2 * clickHalfLength {
            value -= TestTone.clickAmplitude
        }
        return value
    }

    /// Writes samples `startSample ..< startSample + buffer.count` of one channel into `buffer` (such as one
    /// plane of an `fltp` audio frame).
    func fill(_ buffer: UnsafeMutableBufferPointer<Float>, startSample: Int64) {
        for i in 0..<buffer.count { buffer[i] = sample(at: startSample + Int64(i)) }
    }

    /// Samples `startSample ..< startSample + count` as planar Float32 (`fltp`): one array per channel, all alike.
    public func planar(startSample: Int64, count: Int) -> [[Float]] {
        let plane = [Float](unsafeUninitializedCapacity: count) { buffer, initialized in
            fill(buffer, startSample: startSample)
            initialized = count
        }
        return Array(repeating: plane, count: channels)
    }

    private func mod(_ a: Int64, _ m: Int64) -> Int64 {
        let r = a % m
        return r < 0 ? r + m : r
    }
}
