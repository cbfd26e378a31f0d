import CFFmpeg
import MediaCore

/// A source's audio resampled and remixed to the output rate and layout (libswresample), addressed by sample
/// position on the source's own clock.
///
/// Exact sample accounting: the first decoded frame is placed at the sample its timestamp names (silence before
/// it); after that the resampled samples are contiguous, so a clip of `n` seconds gives `n × rate` samples. Reading
/// a position ahead of the cursor drops samples up to it; a position up to `historyLength` samples behind (the ±1
/// sample realignment at a splice, a passthrough render's shift onto the AAC packet grid) reads them again from
/// the samples last consumed, and one further behind than that, by less than 100 ms, is silence; a large jump
/// seeks.
final class AudioTrack {
    let decoder: StreamDecoder
    let origin: MediaTime
    let sampleRate: Int
    let channels: Int
    private let resampler: Resampler
    private let fifo: AudioFIFO
    private let decoded: Frame
    /// Source-clock sample index of the first sample in the FIFO.
    private var fifoStart: Int64 = 0
    private var placedFirstFrame = false
    private var ended = false
    private var scratch: [Float] = []
    /// The samples last consumed (read or dropped), ending at `fifoStart`.
    private let history: AudioFIFO
    static let historyLength = 2048

    init(path: String, sampleRate: Int, channels: Int, origin: MediaTime) throws(MediaError) {
        decoder = try StreamDecoder(path: path, kind: .audio)
        self.origin = origin
        self.sampleRate = sampleRate
        self.channels = channels
        resampler = try Resampler(from: decoder.codec.audioFormat, toChannels: channels, format: AV_SAMPLE_FMT_FLTP,
                                  sampleRate: sampleRate, path: path)
        fifo = try AudioFIFO(format: AV_SAMPLE_FMT_FLTP, channels: channels, capacity: sampleRate, path: path)
        history = try AudioFIFO(format: AV_SAMPLE_FMT_FLTP, channels: channels, capacity: AudioTrack.historyLength * 2, path: path)
        decoded = try Frame()
    }

    private var available: Int { fifo.count }

    /// Fills `buffer` with `count` samples starting at source sample `position`. Returns how many of them came
    /// from the source; the rest (before its audio starts or after it ends) are silence.
    func read(from position: Int64, count: Int, into buffer: AudioBuffer) throws(MediaError) -> Int {
        precondition(count <= buffer.capacity && buffer.channels == channels)
        if position < fifoStart - Int64(sampleRate) / 10 || position > fifoStart + Int64(available) + 2 * Int64(sampleRate) {
            try reposition(to: position)
        }
        var written = 0
        var real = 0
        if position < fifoStart, fifoStart - position <= Int64(history.count) {
            written = Int(min(Int64(count), fifoStart - position))
            let offset = history.count - Int(fifoStart - position)
            try buffer.withPlanes { planes throws(MediaError) in try history.peek(planes, count: written, offset: offset) }
            real = written
        } else if position < fifoStart {
            written = Int(min(Int64(count), fifoStart - position))
            buffer.silence(from: 0, to: written)
        } else if position > fifoStart {
            try discard(Int(position - fifoStart))
        }
        while written < count {
            if available == 0 {
                if ended { break }
                try decodeMore()
                continue
            }
            let n = min(count - written, available)
            let got = try buffer.withPlanes(offset: written) { planes throws(MediaError) in try fifo.read(planes, count: n) }
            try remember(buffer, from: written, count: got)
            written += got
            real += got
            fifoStart += Int64(got)
        }
        buffer.silence(from: written, to: count)
        buffer.count = count
        return real
    }

    /// Drops `n` samples from the cursor onwards.
    private func discard(_ n: Int) throws(MediaError) {
        var left = n
        while left > 0 {
            if available == 0 {
                if ended { fifoStart += Int64(left); history.reset(); return }
                try decodeMore()
                continue
            }
            let d = min(left, available)
            if dropped == nil || dropped!.capacity < d {
                dropped = try AudioBuffer(channels: channels, sampleRate: sampleRate, capacity: max(d, 8192))
            }
            _ = try dropped!.withPlanes { planes throws(MediaError) in try fifo.read(planes, count: d) }
            try remember(dropped!, from: 0, count: d)
            fifoStart += Int64(d)
            left -= d
        }
    }

    private var dropped: AudioBuffer?

    /// Keeps the last `historyLength` samples consumed: `count` of `buffer` from `offset` are the newest.
    private func remember(_ buffer: AudioBuffer, from offset: Int, count: Int) throws(MediaError) {
        guard count > 0 else { return }
        let kept = min(count, AudioTrack.historyLength)
        _ = try buffer.withPlanes(offset: offset + count - kept) { planes throws(MediaError) in try history.write(planes, count: kept) }
        let excess = history.count - AudioTrack.historyLength
        if excess > 0 { try history.drain(excess) }
    }

    private func reposition(to position: Int64) throws(MediaError) {
        let time = MediaTime(seconds: Rational(position, Int64(sampleRate)))
        try decoder.seek(to: time + (origin - .zero))
        fifo.reset()
        history.reset()
        try resampler.restart(path: decoder.path)
        placedFirstFrame = false
        ended = false
        fifoStart = position
    }

    /// Decodes one frame (or flushes the resampler at the end) into the FIFO.
    private func decodeMore() throws(MediaError) {
        switch try decoder.decode(into: decoded) {
        case .endOfStream:
            try convert(input: nil, count: 0)
            ended = true
        case .frame(let frame):
            if !placedFirstFrame {
                placedFirstFrame = true
                if let pts = decoder.presentationTime(of: frame) {
                    let start = ((pts.seconds - origin.seconds) * Rational(Int64(sampleRate))).rounded
                    try place(firstSampleAt: start)
                }
            }
            try convert(input: frame.audioPlanes, count: frame.sampleCount)
        }
    }

    /// Aligns the FIFO so that the first decoded sample lands at `start`: silence before it, or dropping what
    /// lies before the cursor.
    private func place(firstSampleAt start: Int64) throws(MediaError) {
        let end = fifoStart + Int64(available)
        if start > end {
            try appendSilence(Int(start - end))
        } else if start < end {
            pendingDrop = Int(end - start)
        }
    }

    private var pendingDrop = 0

    private func appendSilence(_ n: Int) throws(MediaError) {
        var left = n
        let chunk = 4096
        if scratch.count < chunk { scratch = [Float](repeating: 0, count: chunk) }
        while left > 0 {
            let m = min(left, chunk)
            try scratch.withUnsafeMutableBufferPointer { buf throws(MediaError) in
                var pointers = [UnsafeMutableRawPointer?](repeating: UnsafeMutableRawPointer(buf.baseAddress!), count: channels)
                _ = try pointers.withUnsafeMutableBufferPointer { p throws(MediaError) in try fifo.write(p.baseAddress!, count: m) }
            }
            left -= m
        }
    }

    private func convert(input: UnsafeMutablePointer<UnsafePointer<UInt8>?>?, count: Int) throws(MediaError) {
        let room = resampler.outputRoom(forInput: count)
        guard room > 0 else { return }
        if converted == nil || converted!.capacity < room {
            converted = try AudioBuffer(channels: channels, sampleRate: sampleRate, capacity: max(room, 8192))
        }
        let out = converted!
        let path = decoder.path
        let produced = try out.withPlanes { planes throws(MediaError) in
            try planes.withMemoryRebound(to: UnsafeMutablePointer<UInt8>?.self, capacity: channels) { p throws(MediaError) in
                try resampler.convert(input, count: count, into: p, room: room, path: path)
            }
        }
        let skip = min(pendingDrop, produced)
        pendingDrop -= skip
        guard skip < produced else { return }
        _ = try out.withPlanes(offset: skip) { planes throws(MediaError) in try fifo.write(planes, count: produced - skip) }
    }

    /// Reused resampler output, grown when a frame needs more room.
    private var converted: AudioBuffer?
}
