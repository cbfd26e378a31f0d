import Foundation

/// Tells which test tone is sounding in a stretch of decoded audio, and where one tone gives way to another.
///
/// Works on one channel of Float samples, less their mean: a DC offset is no tone and no click (an ad with one,
/// gained and limited by a normalised render, read as noise). Test clicks (`TestTone`) are cut out before any measurement: samples
/// louder than 1.4 times the tone's peak, and 1 ms either side, are set to zero, unless that would remove more
/// than 30% of the stretch (then it is not tone and clicks: noise, say). Tone strength is measured with the
/// Goertzel algorithm over a Hann window, as the share of the stretch's energy that the tone explains (1 for a pure
/// sine).
public struct ToneAnalyzer: Sendable {
    public let sampleRate: Int

    /// A tone must explain at least this share of the energy to count as present.
    public static let minimumShare = 0.5
    /// Quieter than this RMS (-60 dBFS) is silence.
    public static let silenceRMS = 0.001

    public init(sampleRate: Int) {
        precondition(sampleRate > 0, "sample rate \(sampleRate)")
        self.sampleRate = sampleRate
    }

    // MARK: Which tone

    /// The candidate that dominates `samples`, or `nil` for silence, noise, or no clear winner.
    ///
    /// A candidate wins when it explains at least half of the energy and at least twice as much as any other.
    /// Use windows of at least 20 ms, longer when candidates are closer than 100 Hz apart.
    public func dominantTone(in samples: ArraySlice<Float>, candidates: [Double]) -> Double? {
        let clean = declicked(samples)
        guard !candidates.isEmpty, let window = hann(clean.count), rms(clean, window) >= ToneAnalyzer.silenceRMS
        else { return nil }
        let shares = candidates.map { share(of: $0, in: clean, window: window) }
        let ranked = zip(candidates, shares).sorted { $0.1 > $1.1 }
        guard ranked[0].1 >= ToneAnalyzer.minimumShare, ranked.count == 1 || ranked[0].1 >= 2 * ranked[1].1 else {
            return nil
        }
        return ranked[0].0
    }

    /// The frequency of the steady tone in `samples` (such as a source's first second), searched over
    /// `TestTone.frequencyRange`, or `nil` when no single tone dominates.
    ///
    /// Searches coarse to fine: 20 Hz steps over a 40 ms window, 2 Hz steps over 170 ms, then quarter-hertz steps
    /// over up to one second and a parabola through the best three. With a second of audio the result is within
    /// 0.5 Hz; with 200 ms, within about 2 Hz.
    public func estimateTone(in samples: ArraySlice<Float>) -> Double? {
        let clean = declicked(samples)
        let range = Double(TestTone.frequencyRange.lowerBound)...Double(TestTone.frequencyRange.upperBound)
        guard clean.count >= sampleRate / 50 else { return nil }
        var best = (range.lowerBound + range.upperBound) / 2
        var span = (range.upperBound - range.lowerBound) / 2
        for (seconds, step) in [(0.04, 20.0), (0.17, 2.0), (1.0, 0.25)] {
            let n = min(clean.count, Int(seconds * Double(sampleRate)))
            let start = (clean.count - n) / 2
            let part = Array(clean[start..<start + n])
            guard let window = hann(n) else { return nil }
            let low = max(range.lowerBound, best - span), high = min(range.upperBound, best + span)
            var freqs = Array(stride(from: low, through: high, by: step))
            if freqs.isEmpty { freqs = [best] }
            let powers = freqs.map { power(of: $0, in: part, window: window) }
            let i = powers.indices.max { powers[$0] < powers[$1] }!
            best = freqs[i]
            if i > 0, i < freqs.count - 1 {
                let (a, b, c) = (powers[i - 1], powers[i], powers[i + 1])
                let denominator = a - 2 * b + c
                if denominator < 0 { best += step * 0.5 * (a - c) / denominator }
            }
            span = step * 2
        }
        guard let window = hann(clean.count), rms(clean, window) >= ToneAnalyzer.silenceRMS,
              share(of: best, in: clean, window: window) >= ToneAnalyzer.minimumShare else { return nil }
        return best
    }

    // MARK: Where it changes

    /// The index (in `samples`' own indices) of the first sample of tone `to` where `samples` goes from tone
    /// `from` to tone `to`, or `nil` when the stretch does not start with `from` and end with `to`.
    ///
    /// Slides a Hann window about four beats of the two tones long (at least 10 ms) in 1 ms steps, scoring how
    /// much more of `from` than of `to` it hears; the change is where the running score balances best, refined
    /// to the sample where the score crosses zero. Resolution is about a millisecond for tones 100 Hz or more
    /// apart; a click at the change moves it by at most 2 ms.
    public func changePoint(in samples: ArraySlice<Float>, from: Double, to: Double) -> Int? {
        guard from != to else { return nil }
        let clean = declicked(samples)
        let length = min(clean.count / 2, max(sampleRate / 100, Int(4 * Double(sampleRate) / abs(from - to))))
        guard length >= 16, let window = hann(length) else { return nil }
        let step = max(1, sampleRate / 1000)
        func score(at centre: Int) -> Double {
            let part = clean[(centre - length / 2)..<(centre - length / 2 + length)]
            let a = power(of: from, in: part, window: window), b = power(of: to, in: part, window: window)
            return a + b > 0 ? (a - b) / (a + b) : 0
        }
        let centres = Array(stride(from: length / 2, through: clean.count - length + length / 2, by: step))
        guard centres.count >= 2 else { return nil }
        let scores = centres.map(score)
        // The split that leaves the most `from` before it and the most `to` after it.
        var before = 0.0, after = scores.reduce(0, +)
        var bestSplit = 0, bestValue = -Double.infinity
        for k in 1..<scores.count {
            before += scores[k - 1]
            after -= scores[k - 1]
            if before - after > bestValue { bestValue = before - after; bestSplit = k }
        }
        let meanBefore = scores[..<bestSplit].reduce(0, +) / Double(bestSplit)
        let meanAfter = scores[bestSplit...].reduce(0, +) / Double(scores.count - bestSplit)
        guard meanBefore > 0.3, meanAfter < -0.3 else { return nil }
        // Refine between the neighbouring coarse centres: the first sample whose window hears more `to`.
        var low = centres[max(0, bestSplit - 2)], high = centres[min(centres.count - 1, bestSplit + 1)]
        while low < high {
            let mid = (low + high) / 2
            if score(at: mid) <= 0 { high = mid } else { low = mid + 1 }
        }
        return samples.startIndex + low
    }

    // MARK: Clicks

    /// The indices (in `samples`' own indices) where clicks start: samples louder than 1.4 times the tone's
    /// peak, at least 100 ms after the previous one.
    public func clickOnsets(in samples: ArraySlice<Float>) -> [Int] {
        let samples = centred(samples)
        guard let threshold = clickThreshold(samples) else { return [] }
        var onsets: [Int] = []
        let gap = sampleRate / 10
        for i in samples.indices where abs(samples[i]) > threshold {
            if let last = onsets.last, i - last < gap { continue }
            onsets.append(i)
        }
        return onsets
    }

    // MARK: Measurements

    /// 1.4 times the peak of the steady tone, estimated as √2 times the median magnitude (a sine's median
    /// magnitude is its peak / √2; clicks are too few to move a median), or `nil` for a silent stretch.
    private func clickThreshold(_ samples: ArraySlice<Float>) -> Float? {
        guard !samples.isEmpty else { return nil }
        var magnitudes = samples.map(abs)
        magnitudes.sort()
        let median = magnitudes[magnitudes.count / 2]
        return median > 0 ? 1.4 * Float(2).squareRoot() * median : nil
    }

    /// `samples` less their mean (a DC offset), with the same indices.
    private func centred(_ samples: ArraySlice<Float>) -> ArraySlice<Float> {
        guard !samples.isEmpty else { return samples }
        let mean = Float(samples.reduce(0.0) { $0 + Double($1) } / Double(samples.count))
        guard mean != 0 else { return samples }
        var out = samples
        for i in out.indices { out[i] -= mean }
        return out
    }

    /// `samples` less their mean, with clicks set to zero (see the type's summary), as a zero-based array.
    private func declicked(_ samples: ArraySlice<Float>) -> [Float] {
        let samples = centred(samples)
        var out = Array(samples)
        guard let threshold = clickThreshold(samples) else { return out }
        let margin = max(1, sampleRate / 1000)
        var zeroed = 0, lastZeroed = -1
        for i in out.indices where abs(samples[samples.startIndex + i]) > threshold {
            let first = max(lastZeroed + 1, i - margin), last = min(out.count - 1, i + margin)
            guard first <= last else { continue }
            for j in first...last {
                out[j] = 0
                zeroed += 1
                lastZeroed = j
            }
        }
        return zeroed * 10 > out.count * 3 ? Array(samples) : out
    }

    /// A Hann window of `n` samples, or `nil` when `n` is too short to measure anything.
    private func hann(_ n: Int) -> [Double]? {
        guard n >= 8 else { return nil }
        return (0..<n).map { 0.5 - 0.5 * cos(2 * .pi * Double($0) / Double(n - 1)) }
    }

    /// The Goertzel power at `frequency` of `samples` weighted by `window` (of the same length).
    private func power(of frequency: Double, in samples: ArraySlice<Float>, window: [Double]) -> Double {
        precondition(samples.count == window.count)
        let coefficient = 2 * cos(2 * .pi * frequency / Double(sampleRate))
        var s1 = 0.0, s2 = 0.0
        samples.withUnsafeBufferPointer { x in
            window.withUnsafeBufferPointer { w in
                for i in 0..<x.count {
                    let s0 = Double(x[i]) * w[i] + coefficient * s1 - s2
                    s2 = s1
                    s1 = s0
                }
            }
        }
        return s1 * s1 + s2 * s2 - coefficient * s1 * s2
    }

    private func power(of frequency: Double, in samples: [Float], window: [Double]) -> Double {
        power(of: frequency, in: samples[...], window: window)
    }

    /// The energy of `samples` weighted by `window`.
    private func windowedEnergy(_ samples: [Float], _ window: [Double]) -> Double {
        var energy = 0.0
        samples.withUnsafeBufferPointer { x in
            window.withUnsafeBufferPointer { w in
                for i in 0..<x.count {
                    let v = Double(x[i]) * w[i]
                    energy += v * v
                }
            }
        }
        return energy
    }

    /// The share of the windowed energy of `samples` that a sine at `frequency` explains (about 1 for a pure tone).
    private func share(of frequency: Double, in samples: [Float], window: [Double]) -> Double {
        let energy = windowedEnergy(samples, window)
        guard energy > 0 else { return 0 }
        // A sine of amplitude A gives |X|² ≈ (A Σw / 2)² and windowed energy ≈ A² Σw² / 2.
        let sumW = window.reduce(0, +)
        let amplitudeSquared = 4 * power(of: frequency, in: samples, window: window) / (sumW * sumW)
        let sumW2 = window.reduce(0) { $0 + $1 * $1 }
        return amplitudeSquared * sumW2 / (2 * energy)
    }

    /// The RMS of `samples` under `window`.
    private func rms(_ samples: [Float], _ window: [Double]) -> Double {
        let energy = windowedEnergy(samples, window)
        return (energy / window.reduce(0) { $0 + $1 * $1 }).squareRoot()
    }
}
