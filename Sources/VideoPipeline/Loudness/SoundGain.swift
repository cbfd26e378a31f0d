import Foundation

/// A static gain on a source's sound with a true-peak limiter after it: what a normalised render applies to every
/// sample it reads of that source.
///
/// The limiter is planned before the render from the source's own true peaks, block by block (`BlockPeaks`), so its
/// gain at a sample is a pure function of the sample's position: the same bytes however the sound is read (in any
/// chunks, again after a seek), with no state carried along the file. Each block whose gained true peak would pass
/// `ceiling` is brought down to it; the limiter's gain falls linearly to that over `attackBlocks` before the block
/// (its look-ahead) and rises back over `releaseBlocks` after it, and where blocks' ramps overlap the lowest wins.
public struct SoundGain: Hashable, Sendable {
    /// The static gain in dB (0 for a source left as it is).
    public let decibels: Double
    /// Samples per block (5 ms of the output's rate).
    public let blockLength: Int
    /// The blocks the limiter brings down, in order: block index (block `k` is samples `[k·blockLength, (k+1)·blockLength)`)
    /// and the limiter's gain there (linear, under 1).
    public let limits: [Limit]
    /// The static gain as a factor.
    let factor: Double

    public struct Limit: Hashable, Sendable {
        public var block: Int64
        public var gain: Double
    }

    /// The highest true peak a normalised render lets a gained source reach before encoding: −2 dBTP, a dB under
    /// EBU R128's −1 dBTP for the AAC encoder's own overshoot (the ffmpeg tool's `loudnorm` defaults to −2 dBTP
    /// too). Measured on the bundled ads, limited to this and encoded at the default 192 kbit/s, the overshoot stays
    /// near 0.1 dB.
    public static let ceiling = -2.0
    /// The limiter's look-ahead: one block (5 ms).
    public static let attackBlocks: Int64 = 1
    /// The limiter's release: ten blocks (50 ms).
    public static let releaseBlocks: Int64 = 10

    /// The gain of `decibels` on a source whose blocks have `peaks`, with the limiter it needs under `ceiling` dBTP.
    public init(decibels: Double, peaks: BlockPeaks, ceiling: Double = SoundGain.ceiling) {
        self.decibels = decibels
        blockLength = peaks.blockLength
        factor = pow(10, decibels / 20)
        let highest = pow(10, ceiling / 20)
        var limits: [Limit] = []
        for (index, peak) in peaks.peaks.enumerated() where Double(peak) * factor > highest {
            limits.append(Limit(block: Int64(index), gain: highest / (Double(peak) * factor)))
        }
        self.limits = limits
    }

    /// Whether the sound comes out exactly as it went in (0 dB, the limiter idle).
    public var isIdentity: Bool { decibels == 0 && limits.isEmpty }

    /// Whether the limiter acts anywhere.
    public var isLimiting: Bool { !limits.isEmpty }

    /// The limiter's gain at sample `position` (1 where it is idle).
    public func limiterGain(at position: Int64) -> Double {
        var gain = 1.0
        forEachLimit(near: position..<(position + 1)) { limit, from, to in
            gain = min(gain, SoundGain.ramp(limit, blockLength: Int64(blockLength), at: position))
        }
        return gain
    }

    /// Multiplies samples `[0, count)` of `buffer`, which are the source's samples from `position` on.
    public func apply(to buffer: AudioBuffer, position: Int64, count: Int) {
        guard !isIdentity, count > 0 else { return }
        let end = position + Int64(count)
        let length = Int64(blockLength)
        var gains: [Double]?
        forEachLimit(near: position..<end) { limit, from, to in
            if gains == nil { gains = [Double](repeating: factor, count: count) }
            for p in max(from, position)..<min(to, end) {
                let i = Int(p - position)
                gains![i] = min(gains![i], factor * SoundGain.ramp(limit, blockLength: length, at: p))
            }
        }
        if let gains {
            let factors = gains.map { Float($0) }
            buffer.write(count: buffer.count) { _, samples in
                for i in 0..<count { samples[i] *= factors[i] }
            }
        } else {
            // Away from every limit: the static gain alone, the same factor as above.
            let single = Float(factor)
            buffer.write(count: buffer.count) { _, samples in
                for i in 0..<count { samples[i] *= single }
            }
        }
    }

    /// Calls `body` with each limit whose ramps reach into `range`, and the samples `[from, to)` it reaches.
    private func forEachLimit(near range: Range<Int64>, _ body: (Limit, Int64, Int64) -> Void) {
        guard !limits.isEmpty else { return }
        let length = Int64(blockLength)
        // Blocks from (range.lowerBound − release) to (range.upperBound + attack) can reach the range.
        let first = SoundGain.floorDiv(range.lowerBound, length) - SoundGain.releaseBlocks - 1
        let last = SoundGain.floorDiv(range.upperBound, length) + SoundGain.attackBlocks + 1
        var lo = 0, hi = limits.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if limits[mid].block < first { lo = mid + 1 } else { hi = mid }
        }
        var i = lo
        while i < limits.count, limits[i].block <= last {
            let limit = limits[i]
            let from = (limit.block - SoundGain.attackBlocks) * length + 1
            let to = (limit.block + 1 + SoundGain.releaseBlocks) * length
            if from < range.upperBound, to > range.lowerBound { body(limit, from, to) }
            i += 1
        }
    }

    /// One limit's gain at `position`: its own inside its block, rising linearly to 1 over the attack before and
    /// the release after.
    static func ramp(_ limit: Limit, blockLength: Int64, at position: Int64) -> Double {
        let start = limit.block * blockLength, end = start + blockLength
        let missing = 1 - limit.gain
        if position < start {
            let distance = Double(start - position) / Double(SoundGain.attackBlocks * blockLength)
            return distance >= 1 ? 1 : limit.gain + missing * distance
        }
        if position >= end {
            let distance = Double(position - end + 1) / Double(SoundGain.releaseBlocks * blockLength)
            return distance >= 1 ? 1 : limit.gain + missing * distance
        }
        return limit.gain
    }

    static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 { a >= 0 ? a / b : -((-a + b - 1) / b) }
}

/// The true peak (linear, the highest over every channel) of each block of a source's sound from sample 0, for
/// planning the limiter.
public struct BlockPeaks: Hashable, Sendable {
    public let blockLength: Int
    public var peaks: [Float]

    public init(blockLength: Int, peaks: [Float]) {
        precondition(blockLength > 0)
        self.blockLength = blockLength
        self.peaks = peaks
    }

    /// 5 ms of `sampleRate` (at least one sample).
    public static func blockLength(sampleRate: Int) -> Int { max(1, sampleRate / 200) }
}
