/// A constant frame rate, such as `30000/1001`, and the output clock it defines.
///
/// Frame `n` of a stream at rate `r` starts at `n / r` seconds. This is the one place where frame indexes and
/// times are converted, so the rounding rule is written once.
public struct FrameRate: Hashable, Sendable, CustomStringConvertible {
    /// Frames per second.
    public let perSecond: Rational

    public init(_ perSecond: Rational) {
        precondition(perSecond > .zero, "a frame rate must be positive")
        self.perSecond = perSecond
    }

    public init(_ numerator: Int64, _ denominator: Int64 = 1) { self.init(Rational(numerator, denominator)) }

    /// Parses `30`, `29.97`, `30000/1001`; `nil` unless positive.
    public init?(parsing text: String) {
        guard let r = Rational(parsing: text), r > .zero else { return nil }
        self.init(r)
    }

    /// The time base in which frame indexes are timestamps (`1/rate`).
    public var timeBase: Rational { perSecond.reciprocal }

    /// The length of one frame.
    public var frameDuration: MediaDuration { MediaDuration(seconds: perSecond.reciprocal) }

    /// When frame `index` starts.
    public func time(ofFrame index: Int64) -> MediaTime { MediaTime(seconds: Rational(index) / perSecond) }

    /// The number of frames that start before `duration` has elapsed: `ceil(duration × rate)`.
    public func frameCount(in duration: MediaDuration) -> Int64 {
        (duration.seconds * perSecond).ceiling
    }

    /// The first frame that starts at or after `time`.
    public func firstFrame(atOrAfter time: MediaTime) -> Int64 { (time.seconds * perSecond).ceiling }

    /// The frame on screen at `time`: the last one that starts at or before it.
    public func frame(at time: MediaTime) -> Int64 { (time.seconds * perSecond).floor }

    public var description: String { perSecond.description }
}

/// Audio sample positions tied to a frame clock, so that per-frame sample counts never accumulate rounding.
///
/// The audio of frames `[0, n)` is `floor(n × sampleRate / frameRate)` samples; the samples of frame `n` are
/// the difference of two such boundaries. Any run of frames therefore has exactly the samples of its span.
public struct SampleClock: Hashable, Sendable {
    public let sampleRate: Int64
    public let frameRate: FrameRate

    public init(sampleRate: Int64, frameRate: FrameRate) {
        precondition(sampleRate > 0)
        self.sampleRate = sampleRate
        self.frameRate = frameRate
    }

    /// The sample at which frame `index` starts.
    public func sample(atFrame index: Int64) -> Int64 {
        (Rational(index) * Rational(sampleRate) / frameRate.perSecond).floor
    }

    /// How many samples frames `[start, end)` span.
    public func samples(fromFrame start: Int64, toFrame end: Int64) -> Int64 {
        sample(atFrame: end) - sample(atFrame: start)
    }

    /// The sample at `time`, rounded down.
    public func sample(at time: MediaTime) -> Int64 { (time.seconds * Rational(sampleRate)).floor }
}

extension FrameRate {
    /// The rates of film, PAL and NTSC video: 24000/1001, 24, 25, 30000/1001, 30, 50, 60000/1001, 60.
    public static let standardRates: [FrameRate] = [
        FrameRate(24000, 1001), FrameRate(24), FrameRate(25), FrameRate(30000, 1001), FrameRate(30), FrameRate(50),
        FrameRate(60000, 1001), FrameRate(60),
    ]

    /// The standard rate nearest to `rate` by ratio (the smallest `max(r/s, s/r)`, the lower rate on a tie).
    ///
    /// By ratio rather than by difference, because a frame rate is a scale: 12 fps is as far from 24 as 48 is.
    /// A variable-frame-rate source has no rate of its own; its average (`69120000/2305213` for a phone clip) as
    /// an output clock would give a timeline no player or encoder expects, so its output runs at this instead.
    public static func nearestStandard(to rate: FrameRate) -> FrameRate {
        func distance(_ s: FrameRate) -> Rational {
            let ratio = rate.perSecond / s.perSecond
            return Rational.max(ratio, ratio.reciprocal)
        }
        var best = standardRates[0]
        for candidate in standardRates.dropFirst() where distance(candidate) < distance(best) { best = candidate }
        return best
    }
}
