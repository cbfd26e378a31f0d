import MediaCore

/// When every frame of a source's video starts, on the clock the renderer plays it by, and the stamp of its
/// first frame: what `pipctl verify` predicts each output frame from.
///
/// Predicting frame `⌊j × Fs / F + ½⌋` assumes that frame `k` starts at `k / Fs` from the file's start. Real
/// files do not: a video that starts late (after its audio, or with an edit list), Opus's pre-roll pulling the
/// file's start before the first picture (a WebM starting at -7 ms), frames missing or timed irregularly. The
/// renderer (`VideoTrack`) uses each frame's real timestamp, so the verifier must too: this reads them the same
/// way (the same decoder, the same origin, the same guess for a frame without a timestamp) and applies the same
/// rule, so a correct render is never called wrong and a wrong one still is.
public struct SourceFrames: Sendable {
    /// Each decoded frame's start on the source's clock (zero = the file's start), in the order they decode.
    public private(set) var starts: [MediaTime] = []
    /// `pairs[k]` is the largest `t_i + t_{i+1}` (in seconds) for `i ≤ k`: the renderer moves from frame `k` to
    /// `k + 1` at time `t` when `t_k + t_{k+1} ≤ 2t`, and only forwards, so this running maximum is what a binary
    /// search for the frame shown at `t` runs on (timestamps that go backwards included).
    private var pairs: [Rational] = []
    /// The stamp of the first frame, when it carries one.
    public let firstStamp: FrameStamp?

    /// How many frames the video decodes to.
    public var count: Int { starts.count }

    /// Decodes every frame of `path`'s video (pictures are not kept) and notes when each starts.
    ///
    /// - Parameter outputRate: the rate the render ran at, which `VideoTrack` takes as the nominal frame rate
    ///   of a file that declares none.
    /// - Throws: what opening and decoding the file throws; `.noFrames` for a video that decodes to nothing.
    public static func read(_ path: String, outputRate: FrameRate) throws(MediaError) -> SourceFrames {
        let decoder = try StreamDecoder(path: path, kind: .video)
        let clock = FrameClock(decoder: decoder, fallbackRate: outputRate)
        let frame = try Frame()
        var frames: SourceFrames?
        while case .frame(let decoded) = try decoder.decode(into: frame) {
            if frames == nil { frames = SourceFrames(firstStamp: VideoPicture(frame: decoded).locateStamp()?.stamp) }
            frames!.append(clock.start(of: decoded, after: frames!.starts.last))
        }
        guard let frames else { throw .noFrames(path: path) }
        return frames
    }

    /// Frames starting at `starts`, in the order they decode (for frames whose times are known already).
    public init(starts: [MediaTime], firstStamp: FrameStamp? = nil) {
        self.firstStamp = firstStamp
        for start in starts { append(start) }
    }

    init(firstStamp: FrameStamp?) { self.firstStamp = firstStamp }

    /// Notes the next decoded frame's start.
    mutating func append(_ start: MediaTime) {
        if let last = starts.last {
            let sum = last.seconds + start.seconds
            pairs.append(pairs.last.map { max($0, sum) } ?? sum)
        }
        starts.append(start)
    }

    /// The frame output tick `tick` at `outputRate` shows (ticks counted from the source's start), by
    /// `VideoTrack`'s frame-rate rule: at `t = tick / F` the frame whose start is nearest `t`, the later one on a
    /// tie, moving only forwards (the first `k` with `t_k + t_{k+1} > 2t`); the first frame before any has
    /// started, the last one once all have (the renderer holds it).
    public func frame(atTick tick: Int64, outputRate: FrameRate) -> Int {
        let twice = outputRate.time(ofFrame: tick).seconds * Rational(2)
        var low = 0, high = pairs.count
        while low < high {
            let mid = (low + high) / 2
            if pairs[mid] > twice { high = mid } else { low = mid + 1 }
        }
        return low
    }

    /// Whether the frames noted so far decide which frame every tick up to `time` shows: frames decoded later
    /// cannot change it.
    func decides(through time: MediaTime) -> Bool {
        guard let reached = pairs.last else { return false }
        return reached > time.seconds * Rational(2)
    }
}
