import CFFmpeg
import MediaCore

/// A source's video seen through the output clock: output tick `j` shows one decoded source frame.
///
/// **The frame-rate rule** (the one documented rule for dropping and repeating frames): tick `j` is at
/// `t = j / F` on the source's clock (F = output rate, the source clock starting at the file's start time). It
/// shows the source frame whose start time is nearest to `t`; when two are equally near, the later one. The
/// times are each frame's real timestamp, not a nominal rate: with frames starting at `t_k ≤ t < t_{k+1}`, frame
/// `k+1` shows when `t_{k+1} − t ≤ t − t_k`, so a variable-frame-rate source is followed as exactly as a constant
/// one (for which this is the last frame starting at or before `t` + half a frame). One decoded frame of
/// lookahead decides it, so the track streams. Faster sources drop frames, slower ones repeat them; before the
/// first frame the first frame shows, after the last one the last frame holds.
final class VideoTrack {
    let decoder: StreamDecoder
    /// The source clock's zero on the stream's own timeline.
    let origin: MediaTime
    let outputRate: FrameRate
    /// Each frame's start, read as the verifiers read it.
    private let clock: FrameClock

    private var current: Frame
    private var currentTime: MediaTime?
    private var next: Frame
    private var nextTime: MediaTime?
    private var nextIsValid = false
    private var ended = false
    private var lastTick: Int64?
    /// How many source frames were decoded; the stamps of a conformed clip are checked against the rule with it.
    private(set) var decodedFrames = 0

    init(path: String, outputRate: FrameRate, origin: MediaTime, threads: Int = 0) throws(MediaError) {
        decoder = try StreamDecoder(path: path, kind: .video, threads: threads)
        self.origin = origin
        self.outputRate = outputRate
        clock = FrameClock(decoder: decoder, origin: origin, fallbackRate: outputRate)
        current = try Frame()
        next = try Frame()
        try advance()
        guard nextIsValid else { throw .noFrames(path: path) }
    }

    var path: String { decoder.path }

    /// The picture for output tick `tick` (ticks counted from the source's start). The frame stays valid until
    /// the next call.
    func frame(atTick tick: Int64) throws(MediaError) -> Frame {
        let target = outputRate.time(ofFrame: tick)
        // The first picture asked for may be far in too (a passthrough render decodes nothing until its first cut).
        if lastTick.map({ tick < $0 }) ?? false || shouldSeek(to: target) {
            try reposition(to: target)
        }
        lastTick = tick
        // The next frame takes over when it is at least as near to the tick as the current one (the later wins a
        // tie); the first decoded frame always does, so that it shows before its own start.
        while nextIsValid, let t = nextTime, currentTime.map({ t - target <= target - $0 }) ?? true {
            swap(&current, &next)
            currentTime = nextTime
            try advance()
        }
        if currentTime == nil {
            // Before the first frame: show the first one.
            return next
        }
        return current
    }

    /// Decoding forward is cheaper than seeking for short jumps; seek only for jumps of over two seconds.
    private func shouldSeek(to target: MediaTime) -> Bool {
        guard nextIsValid, let t = nextTime else { return false }
        return target - t > MediaDuration(seconds: 2)
    }

    private func reposition(to time: MediaTime) throws(MediaError) {
        try decoder.seek(to: time + (origin - .zero))
        current.unref()
        currentTime = nil
        ended = false
        nextIsValid = false
        try advance()
    }

    /// Decodes the next frame into `next`, giving it a time even when the file did not.
    private func advance() throws(MediaError) {
        guard !ended else { nextIsValid = false; return }
        let previous = nextIsValid ? nextTime : currentTime
        switch try decoder.decode(into: next) {
        case .endOfStream:
            ended = true
            nextIsValid = false
        case .frame(let frame):
            decodedFrames += 1
            nextTime = clock.start(of: frame, after: previous)
            nextIsValid = true
        }
    }
}
