import AdPlayback
import AdScreen
import Foundation
import MediaCore
import VideoPipeline

extension SourceVerifier {
    /// The window of sound compared at each splice, and how far either way the source is searched.
    static let audioWindow = Rational(1, 5)
    static let audioReach = Rational(1, 10)
    /// The rate the sound is brought down to (block means) before it is correlated: enough for alignment to a
    /// fraction of a millisecond, cheap enough for every splice.
    static let correlationRate = 8000
    /// Below this correlation the window is not the source's sound (or is silence): not judged.
    static let minimumCorrelation = 0.5

    /// Aligns the output's sound with each segment's source just after its start and just before its end, by
    /// cross-correlation (mono, downsampled), and reports any offset over one video frame in milliseconds.
    static func audioAlignment(_ path: String, timeline: Timeline, plan: Plan, rate: FrameRate, problems: inout [VerifyFinding],
                               notes: inout [String]) throws(Verifier.Failure) -> [SourceReport.AudioAlignment] {
        let format = OutputFormat(size: PixelSize(width: timeline.output.width, height: timeline.output.height),
                                  frameRate: rate, sampleRate: timeline.output.sampleRate, channels: 1)
        let clock = format.sampleClock
        let output: MediaSource
        do { output = try MediaSource(path: path, format: format) } catch { throw .media(error) }
        guard output.hasAudio else {
            problems.append(.init(.audioMissing))
            return []
        }
        let factor = max(1, format.sampleRate / correlationRate)
        let window = Int64((audioWindow * Rational(Int64(format.sampleRate))).floor)
        let reach = Int64((audioReach * Rational(Int64(format.sampleRate))).floor)
        let tolerance = Double(clock.samples(fromFrame: 0, toFrame: 1)) * 1000 / Double(format.sampleRate)
        let buffer: AudioBuffer
        do { buffer = try AudioBuffer(channels: 1, sampleRate: format.sampleRate, capacity: Int(window + 2 * reach)) } catch {
            throw .media(error)
        }
        var sources: [String: MediaSource] = [:]
        func read(_ media: MediaSource, from: Int64, count: Int64) throws(Verifier.Failure) -> [Double] {
            do { _ = try media.readAudio(from: max(0, from), count: Int(count), into: buffer) } catch { throw .media(error) }
            let samples = buffer.samples(channel: 0)
            // Before the start of the source there is nothing: zeros, so the lags stay where they belong.
            let skipped = Int(max(0, -from))
            let real = [Double](repeating: 0, count: min(skipped, Int(count))) + samples.prefix(Int(count) - min(skipped, Int(count))).map(Double.init)
            return stride(from: 0, to: real.count - factor + 1, by: factor).map { i in
                real[i..<(i + factor)].reduce(0, +) / Double(factor)
            }
        }

        var result: [SourceReport.AudioAlignment] = []
        for (i, segment) in timeline.segments.enumerated() where !segment.paused && segment.frameCount > 0 {
            let media: MediaSource
            if let known = sources[plan.paths[i]] { media = known } else {
                do { media = try MediaSource(path: plan.paths[i], format: format) } catch { throw .media(error) }
                sources[plan.paths[i]] = media
            }
            guard media.hasAudio else { continue }
            let start = clock.sample(atFrame: segment.outStartFrame)
            let audible = clock.sample(atFrame: segment.outEndFrame) - start - segment.sound.padded
            let length = min(window, audible)
            // Too short a window to align (a segment of a frame or two at a low rate).
            guard length * 1000 >= Int64(format.sampleRate) * 40 else { continue }
            var places: [(SourceReport.AudioAlignment.Place, Int64)] = [(.start, 0)]
            if audible >= 2 * window { places.append((.end, audible - length)) }
            for (place, offset) in places {
                let x = try read(output, from: start + offset, count: length)
                let y = try read(media, from: segment.sound.sourceStart + offset - reach, count: length + 2 * reach)
                let splice = place == .start ? segment.outStartFrame : segment.outEndFrame
                let at = VerifyFinding.FrameTime(splice, rate: rate)
                guard let aligned = correlate(x, y, reach: Int(reach) / factor) else {
                    notes.append("the sound of \(Verifier.fullName(segment)) \(VerifyFinding.splice(at, place)) is silent or periodic: its alignment is not verifiable")
                    result.append(.init(segment: i, place: place, frame: splice, offsetMilliseconds: nil, correlation: nil, ok: true))
                    continue
                }
                // The output at t sounds like the source at t + lag: a negative lag is sound that comes late.
                let late = aligned.lag == 0 ? 0 : -Double(aligned.lag * factor) * 1000 / Double(format.sampleRate)
                let ok = abs(late) <= tolerance
                result.append(.init(segment: i, place: place, frame: splice, offsetMilliseconds: late,
                                    correlation: aligned.correlation, ok: ok))
                if !ok {
                    problems.append(.init(.soundOffset(at: at, place: place, segment: .init(segment), milliseconds: late, tolerance: tolerance)))
                }
            }
        }
        return result
    }

    /// The lag of `y` (longer by `reach` either side) at which it best matches `x`, and that correlation; `nil` when
    /// the best is weak (silence, another sound) or another lag, away from the peak, matches almost as well
    /// (a tone, whose every period looks the same).
    static func correlate(_ x: [Double], _ y: [Double], reach: Int) -> (lag: Int, correlation: Double)? {
        let n = x.count
        guard n > 0, y.count >= n + 2 * reach else { return nil }
        let xMean = x.reduce(0, +) / Double(n)
        let xc = x.map { $0 - xMean }
        let xEnergy = xc.reduce(0) { $0 + $1 * $1 }
        guard xEnergy > 1e-6 * Double(n) else { return nil }
        var scores: [Double] = []
        scores.reserveCapacity(2 * reach + 1)
        for lag in -reach...reach {
            let base = reach + lag
            var sum = 0.0, yy = 0.0, ys = 0.0
            for t in 0..<n { ys += y[base + t] }
            let yMean = ys / Double(n)
            for t in 0..<n {
                let v = y[base + t] - yMean
                sum += xc[t] * v
                yy += v * v
            }
            scores.append(yy > 0 ? sum / (xEnergy * yy).squareRoot() : 0)
        }
        guard let best = scores.indices.max(by: { scores[$0] < scores[$1] }), scores[best] >= minimumCorrelation else { return nil }
        // Away from the peak by more than 2.5 ms (its own width), nothing may come close.
        let guardBand = max(2, correlationRate / 400)
        let rival = scores.indices.filter { abs($0 - best) > guardBand }.map { scores[$0] }.max() ?? 0
        guard rival < scores[best] * 0.9 else { return nil }
        return (best - reach, scores[best])
    }
}
