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
    /// Each decoded frame's start on the source's clock (zero = the file's start), in presentation order.
    public let starts: [MediaTime]
    /// `reached[k]` is the latest of `starts[0...k]`: the renderer moves past frame `k` only once every frame up
    /// to it has started, so this is what a binary search runs on.
    private let reached: [MediaTime]
    /// Half a nominal frame of the source: the rule's rounding allowance, as `VideoTrack` takes it.
    public let halfFrame: MediaDuration
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
        let origin = decoder.input.startTime ?? .zero
        let nominal = (decoder.nominalFrameRate.map(FrameRate.init) ?? outputRate).frameDuration
        let frame = try Frame()
        var starts: [MediaTime] = []
        var firstStamp: FrameStamp?
        while case .frame(let decoded) = try decoder.decode(into: frame) {
            let start: MediaTime
            if let pts = decoder.presentationTime(of: decoded) {
                start = .zero + (pts - origin)
            } else {
                let duration = decoded.packetDuration.map { MediaDuration(value: $0, timeBase: decoder.timeBase) } ?? nominal
                start = starts.last.map { $0 + duration } ?? .zero
            }
            if starts.isEmpty { firstStamp = VideoPicture(frame: decoded).locateStamp()?.stamp }
            starts.append(start)
        }
        guard !starts.isEmpty else { throw .noFrames(path: path) }
        return SourceFrames(starts: starts, halfFrame: nominal * Rational(1, 2), firstStamp: firstStamp)
    }

    init(starts: [MediaTime], halfFrame: MediaDuration, firstStamp: FrameStamp?) {
        self.starts = starts
        var latest = starts.first ?? .zero
        reached = starts.map { latest = max(latest, $0); return latest }
        self.halfFrame = halfFrame
        self.firstStamp = firstStamp
    }

    /// The frame output tick `tick` at `outputRate` shows (ticks counted from the source's start), by the
    /// frame-rate rule: the last frame starting at or before `tick / F + halfFrame`; the first frame before any
    /// has started, the last one once all have (the renderer holds it).
    public func frame(atTick tick: Int64, outputRate: FrameRate) -> Int {
        let target = outputRate.time(ofFrame: tick) + halfFrame
        var low = 0, high = reached.count
        while low < high {
            let mid = (low + high) / 2
            if reached[mid] <= target { low = mid + 1 } else { high = mid }
        }
        return max(0, low - 1)
    }
}
