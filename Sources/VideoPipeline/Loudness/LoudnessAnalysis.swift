import MediaCore

/// Measures the loudness of a file's sound, as a whole and in spans of it.
public enum LoudnessAnalysis {
    /// What `measure` found.
    public struct Report: Hashable, Sendable {
        /// The sound's sample rate and channel count as measured (a layout with no BS.1770 map is remixed to stereo).
        public var sampleRate: Int
        public var channels: Int
        public var whole: Loudness
        /// One per span asked for, in order.
        public var spans: [Loudness]
        /// Short-term loudness (LUFS, nil for silence) every `shortTermStep` from the start, for plotting.
        public var shortTerm: [Double?]
        public static let shortTermStep = MediaDuration(seconds: Rational(1, 10))
    }

    /// Decodes the best audio stream of `path` start to end at its own rate and measures it, and each of `spans`
    /// (times on the file's audio clock from its first sample) on its own.
    /// - Throws: `MediaError` when the file cannot be read, has no audio, or libebur128 fails.
    public static func measure(file path: String, spans: [Range<MediaTime>] = [],
                               control: JobControl = .none) throws(MediaError) -> Report {
        let info = try MediaProbe.probe(path)
        guard let audio = info.bestAudio, let rate = audio.sampleRate, rate > 0 else {
            throw .missingStream(path: path, kind: .audio)
        }
        let channels = LoudnessMeter.roles(channels: audio.channels ?? 2) == nil ? 2 : audio.channels ?? 2
        let origin = try InputFile(path: path).startTime ?? .zero
        let track = try AudioTrack(path: path, sampleRate: rate, channels: channels, origin: origin)
        let whole = try LoudnessMeter(channels: channels, sampleRate: rate)
        let ranges = spans.map { span in
            ((span.lowerBound.seconds * Rational(Int64(rate))).floor, (span.upperBound.seconds * Rational(Int64(rate))).floor)
        }
        var meters: [LoudnessMeter?] = Array(repeating: nil, count: spans.count)
        var finished: [Loudness?] = Array(repeating: nil, count: spans.count)
        let block = rate / 10
        let buffer = try AudioBuffer(channels: channels, sampleRate: rate, capacity: block)
        var shortTerm: [Double?] = []
        var position: Int64 = 0
        var heard = false
        while true {
            if control.isCancelled() { throw .interrupted }
            let real = try track.read(from: position, count: block, into: buffer)
            // Silence before the first sound belongs to the file's sound; after the last, it does not: a block
            // read short once sound has been heard (this block's included) ends it, so one sample is one sample.
            if real > 0 { heard = true }
            let count = heard && real < block ? real : block
            if count > 0 {
                try whole.add(buffer, to: count)
                shortTerm.append(try whole.shortTerm())
                for (i, (start, end)) in ranges.enumerated() where position + Int64(count) > start && position < end {
                    let from = Int(max(0, start - position)), to = Int(min(Int64(count), end - position))
                    if meters[i] == nil { meters[i] = try LoudnessMeter(channels: channels, sampleRate: rate) }
                    try meters[i]!.add(buffer, from: from, to: to)
                    if position + Int64(to) == end { finished[i] = try meters[i]!.result(); meters[i] = nil }
                }
            }
            position += Int64(count)
            if heard && real < block { break }
            if !heard && position > Int64(rate) * 60 { break }
        }
        for i in ranges.indices where finished[i] == nil { finished[i] = try meters[i]?.result() }
        let empty = Loudness(integrated: nil, range: nil, maxMomentary: nil, truePeak: nil, samplePeak: nil,
                             duration: MediaDuration(seconds: .zero))
        return Report(sampleRate: rate, channels: channels, whole: try whole.result(),
                      spans: finished.map { $0 ?? empty }, shortTerm: shortTerm)
    }
}

extension LoudnessAnalysis {
    /// What a normalised render needs of a source: its loudness and its blocks' true peaks, of its sound as the
    /// render reads it.
    public struct SourceReport: Hashable, Sendable {
        public var loudness: Loudness
        public var peaks: BlockPeaks
    }

    /// Decodes the sound of `path` conformed to `format` (resampled and remixed as `MediaSource` plays it, from
    /// its sample 0 to its last) and measures it, noting each 5 ms block's peak for the limiter: its true peak, or
    /// with `truePeak` false its sample peak (a quarter of the work: no 4x oversampling). The sound measured is the
    /// sound the gain multiplies, so the gain brings what is heard, remix included, to the target.
    /// - Returns: `nil` when the file has no sound.
    /// - Throws: `MediaError` when the file cannot be read, or `.loudness` for an output layout BS.1770 has no
    ///   map for (other than mono, stereo and 5.1).
    /// - Parameter gain: measures the sound as a normalised render plays it, multiplied by this gain and its
    ///   limiter (`SoundGain.apply`, by sample position): what the limiter left of the loudness.
    public static func measure(source path: String, format: OutputFormat, truePeak: Bool = true,
                               control: JobControl = .none, gain: SoundGain? = nil) throws(MediaError) -> SourceReport? {
        let input = try InputFile(path: path)
        guard input.info.bestAudio != nil else { return nil }
        let rate = format.sampleRate, channels = format.channels
        let track = try AudioTrack(path: path, sampleRate: rate, channels: channels, origin: input.startTime ?? .zero)
        let meter = try LoudnessMeter(channels: channels, sampleRate: rate, truePeak: truePeak)
        let length = BlockPeaks.blockLength(sampleRate: rate)
        // Blocks of 20 limiter blocks are read at once.
        let buffer = try AudioBuffer(channels: channels, sampleRate: rate, capacity: length * 20)
        var peaks: [Float] = []
        var position: Int64 = 0
        var heard = false
        while true {
            if control.isCancelled() { throw .interrupted }
            let real = try track.read(from: position, count: buffer.capacity, into: buffer)
            // Silence before the first sound belongs to the source's sound; after the last, it does not (this
            // block's sound included: a source shorter than a block is its own length, not the block's).
            if real > 0 { heard = true }
            let ended = heard && real < buffer.capacity
            let count = ended ? real : buffer.capacity
            gain?.apply(to: buffer, position: position, count: count)
            var at = 0
            while at < count {
                let to = min(count, at + length)
                peaks.append(Float(try meter.addReadingPeak(buffer, from: at, to: to)))
                at = to
            }
            position += Int64(count)
            if ended || (!heard && position > Int64(rate) * 60) { break }
        }
        return SourceReport(loudness: try meter.result(), peaks: BlockPeaks(blockLength: length, peaks: peaks))
    }
}

extension LoudnessAnalysis {
    /// The loudness of `paths` played one after another (an HLS rendition's segments), each file's sound decoded
    /// to `sampleRate` and `channels` from its first sample to its last, into one meter: what `pipctl serve` brings
    /// each ad to. Files without sound add nothing.
    /// - Throws: `MediaError` when a file cannot be read, or libebur128 fails.
    public static func measure(sequence paths: [String], sampleRate: Int, channels: Int,
                               control: JobControl = .none) throws(MediaError) -> Loudness {
        let meter = try LoudnessMeter(channels: channels, sampleRate: sampleRate, truePeak: false)
        let block = sampleRate / 10
        let buffer = try AudioBuffer(channels: channels, sampleRate: sampleRate, capacity: block)
        for path in paths {
            let input = try InputFile(path: path)
            guard input.info.bestAudio != nil else { continue }
            let track = try AudioTrack(path: path, sampleRate: sampleRate, channels: channels, origin: input.startTime ?? .zero)
            var position: Int64 = 0
            while true {
                if control.isCancelled() { throw .interrupted }
                let real = try track.read(from: position, count: block, into: buffer)
                if real > 0 { try meter.add(buffer, to: real) }
                position += Int64(real)
                if real < block { break }
            }
        }
        return try meter.result()
    }
}
