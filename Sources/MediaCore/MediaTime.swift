/// A point on a media clock, in exact seconds.
///
/// Points and spans are distinct types: subtracting two points gives a `MediaDuration`, adding a duration to a
/// point gives a point. Each clock (the output, the content, one ad) has its own points; nothing here knows
/// which clock a value belongs to, so APIs name it in their parameter labels.
public struct MediaTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Seconds since the clock's origin.
    public var seconds: Rational

    public init(seconds: Rational) { self.seconds = seconds }
    public init(seconds: Int64) { self.seconds = Rational(seconds) }

    /// The time `value × timeBase`, as FFmpeg writes timestamps.
    public init(value: Int64, timeBase: Rational) { self.seconds = Rational(value) * timeBase }

    public static let zero = MediaTime(seconds: .zero)

    /// This time counted in units of `timeBase`, rounded as asked (`av_rescale_q_rnd`, exactly).
    public func value(in timeBase: Rational, rounding rule: RoundingRule = .nearest) -> Int64 {
        (seconds / timeBase).rounded(rule)
    }

    public var description: String { MediaTime.format(seconds) }

    public static func < (a: MediaTime, b: MediaTime) -> Bool { a.seconds < b.seconds }
    public static func - (a: MediaTime, b: MediaTime) -> MediaDuration { MediaDuration(seconds: a.seconds - b.seconds) }
    public static func + (a: MediaTime, b: MediaDuration) -> MediaTime { MediaTime(seconds: a.seconds + b.seconds) }
    public static func - (a: MediaTime, b: MediaDuration) -> MediaTime { MediaTime(seconds: a.seconds - b.seconds) }

    /// Formats seconds as `h:mm:ss.mmm` (milliseconds rounded down), for people.
    public static func format(_ seconds: Rational) -> String {
        let negative = seconds < .zero
        let ms = (negative ? -seconds : seconds) * Rational(1000)
        let total = ms.floor
        let h = total / 3_600_000, m = total / 60_000 % 60, s = total / 1000 % 60, f = total % 1000
        func pad(_ v: Int64, _ w: Int) -> String { String(repeating: "0", count: max(0, w - String(v).count)) + String(v) }
        return (negative ? "-" : "") + "\(h):\(pad(m, 2)):\(pad(s, 2)).\(pad(f, 3))"
    }
}

/// A length of media time, in exact seconds.
public struct MediaDuration: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var seconds: Rational

    public init(seconds: Rational) { self.seconds = seconds }
    public init(seconds: Int64) { self.seconds = Rational(seconds) }
    public init(value: Int64, timeBase: Rational) { self.seconds = Rational(value) * timeBase }

    public static let zero = MediaDuration(seconds: .zero)

    public func value(in timeBase: Rational, rounding rule: RoundingRule = .nearest) -> Int64 {
        (seconds / timeBase).rounded(rule)
    }

    public var description: String { MediaTime.format(seconds) }

    public static func < (a: MediaDuration, b: MediaDuration) -> Bool { a.seconds < b.seconds }
    public static func + (a: MediaDuration, b: MediaDuration) -> MediaDuration { MediaDuration(seconds: a.seconds + b.seconds) }
    public static func - (a: MediaDuration, b: MediaDuration) -> MediaDuration { MediaDuration(seconds: a.seconds - b.seconds) }
    public static func * (a: MediaDuration, b: Rational) -> MediaDuration { MediaDuration(seconds: a.seconds * b) }
}

extension MediaTime {
    /// Parses a clock time exactly: `ss`, `ss.fff`, `mm:ss[.fff]` or `hh:mm:ss[.fff]` (any number of fraction
    /// digits). Minutes and seconds fields after the first must be below 60. Returns `nil` for anything else.
    public init?(parsing text: String) {
        let fields = text.trimmingSpaces.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(fields.count) else { return nil }
        // Whole seconds of the leading fields in 128 bits, so that a huge hour count is refused, not a trap
        // (found by `scripts/fuzz script`: `pip@4643711615777578097:0`).
        var whole: Int128 = 0
        for (i, field) in fields.enumerated() {
            let isLast = i == fields.count - 1
            guard !field.isEmpty, !field.hasPrefix("-"), !field.hasPrefix("+") else { return nil }
            if !isLast {
                guard field.allSatisfy(\.isASCIIDigit), let v = Int64(field) else { return nil }
                if i > 0, v >= 60 { return nil }
                whole = (whole + Int128(v)) * 60
                guard whole <= Int128(Int64.max) else { return nil }
            } else {
                guard let v = Rational.parseDecimal(field) else { return nil }
                if fields.count > 1, v >= Rational(60) { return nil }
                let numerator = whole * Int128(v.denominator) + Int128(v.numerator)
                guard let n = Int64(exactly: numerator) else { return nil }
                self.init(seconds: Rational(n, v.denominator))
                return
            }
        }
        return nil
    }
}

extension MediaDuration {
    /// As a Swift `Duration` (to the nanosecond), for timeouts and sleeps.
    public var duration: Duration { .nanoseconds((seconds * Rational(1_000_000_000)).rounded) }
}
