import MediaCore

/// Where an ad break is asked to play, as written in a VMAP `timeOffset` or a `--break` TIME, before it is
/// placed on the content's clock by `AdPlanBuilder`.
public enum BreakOffset: Hashable, Sendable, CustomStringConvertible {
    /// `start` / `pre`: before the content.
    case start
    /// `end` / `post`: after the content.
    case end
    /// A time on the content clock (`hh:mm:ss[.mmm]`, or seconds in the quick form).
    case time(MediaTime)
    /// `n%` of the content's duration, as a fraction (`Rational(1, 4)` for `25%`); needs the content duration.
    case fraction(Rational)
    /// VMAP `#n`: the n-th ad break opportunity of the content (1-based); needs the content's cue points.
    case position(Int)

    /// Reads a VMAP 1.0 `timeOffset`: `start`, `end`, `hh:mm:ss[.mmm]`, `n%` (0–100) or `#n` (n ≥ 1).
    public init?(vmap text: String) {
        self.init(text, start: "start", end: "end", allowsPositions: true)
    }

    /// Reads the TIME of `--break TIME=FILE`: `pre`, `post`, seconds (`90`, `12.5`), `hh:mm:ss[.mmm]` or `n%`.
    public init?(quick text: String) {
        self.init(text, start: "pre", end: "post", allowsPositions: false)
    }

    private init?(_ text: String, start: String, end: String, allowsPositions: Bool) {
        let t = text.trimmingSpaces
        switch t.lowercased() {
        case start: self = .start
        case end: self = .end
        default:
            if allowsPositions, t.hasPrefix("#") {
                guard let n = Int(t.dropFirst()), n >= 1 else { return nil }
                self = .position(n)
            } else if let f = BreakOffset.percentage(t) {
                self = f
            } else if let time = MediaTime(parsing: t), time.seconds >= .zero {
                self = .time(time)
            } else {
                return nil
            }
        }
    }

    private static func percentage(_ t: String) -> BreakOffset? {
        guard t.hasSuffix("%"), let p = Rational(parsing: String(t.dropLast())), p >= .zero, p <= Rational(100) else {
            return nil
        }
        return .fraction(p / Rational(100))
    }

    public var description: String {
        switch self {
        case .start: "start"
        case .end: "end"
        case .time(let t): t.description
        case .fraction(let f):
            (f * Rational(100)).isInteger ? "\((f * Rational(100)).numerator)%" : "\((f * Rational(100)).doubleValue)%"
        case .position(let n): "#\(n)"
        }
    }
}
