/// An exact fraction with a positive denominator, always in lowest terms.
///
/// Time bases, frame rates and points in time are rationals so that no timestamp is ever accumulated in
/// floating point. Intermediate products are computed in 128 bits; a result that does not fit in 64 bits traps,
/// as integer overflow does elsewhere in Swift.
public struct Rational: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let numerator: Int64
    public let denominator: Int64

    /// Creates `numerator/denominator` in lowest terms. The denominator must not be zero.
    public init(_ numerator: Int64, _ denominator: Int64 = 1) {
        precondition(denominator != 0, "Rational with a zero denominator")
        self.init(reducing: Int128(numerator), Int128(denominator))
    }

    init(reducing n: Int128, _ d: Int128) {
        var n = n, d = d
        if d < 0 { n = -n; d = -d }
        let g = Rational.gcd(n.magnitude, d.magnitude)
        if g > 1 { n /= Int128(g); d /= Int128(g) }
        guard let n64 = Int64(exactly: n), let d64 = Int64(exactly: d) else {
            preconditionFailure("Rational \(n)/\(d) does not fit in 64 bits")
        }
        numerator = n64
        denominator = d64
    }

    static func gcd(_ a: UInt128, _ b: UInt128) -> UInt128 {
        var a = a, b = b
        while b != 0 { (a, b) = (b, a % b) }
        return a == 0 ? 1 : a
    }

    public static let zero = Rational(0)
    public static let one = Rational(1)

    public var isZero: Bool { numerator == 0 }
    public var isInteger: Bool { denominator == 1 }

    /// The value as a `Double`, for display and JSON only; never feed it back into a timestamp.
    public var doubleValue: Double { Double(numerator) / Double(denominator) }

    public var reciprocal: Rational { Rational(denominator, numerator) }

    public var description: String { denominator == 1 ? "\(numerator)" : "\(numerator)/\(denominator)" }

    /// `num/den`, always with a denominator (`30/1`), as timelines and reports write rates and aspects.
    public var fraction: String { "\(numerator)/\(denominator)" }

    /// The largest integer not greater than the value.
    public var floor: Int64 { Rational.divide(Int128(numerator), Int128(denominator), .down) }
    /// The smallest integer not less than the value.
    public var ceiling: Int64 { Rational.divide(Int128(numerator), Int128(denominator), .up) }
    /// The nearest integer, halves away from zero (FFmpeg's `AV_ROUND_NEAR_INF`).
    public var rounded: Int64 { Rational.divide(Int128(numerator), Int128(denominator), .nearest) }

    public func rounded(_ rule: RoundingRule) -> Int64 {
        Rational.divide(Int128(numerator), Int128(denominator), rule)
    }

    static func divide(_ n: Int128, _ d: Int128, _ rule: RoundingRule) -> Int64 {
        precondition(d > 0)
        var q = n / d
        let r = n % d
        switch rule {
        case .down: if r < 0 { q -= 1 }
        case .up: if r > 0 { q += 1 }
        case .towardZero: break
        case .nearest:
            if r != 0 {
                let twice = r.magnitude * 2
                if twice >= d.magnitude { q += r > 0 ? 1 : -1 }
            }
        }
        guard let result = Int64(exactly: q) else { preconditionFailure("\(n)/\(d) does not fit in 64 bits") }
        return result
    }

    public static func + (a: Rational, b: Rational) -> Rational {
        Rational(reducing: Int128(a.numerator) * Int128(b.denominator) + Int128(b.numerator) * Int128(a.denominator),
                 Int128(a.denominator) * Int128(b.denominator))
    }
    public static func - (a: Rational, b: Rational) -> Rational {
        Rational(reducing: Int128(a.numerator) * Int128(b.denominator) - Int128(b.numerator) * Int128(a.denominator),
                 Int128(a.denominator) * Int128(b.denominator))
    }
    public static func * (a: Rational, b: Rational) -> Rational {
        Rational(reducing: Int128(a.numerator) * Int128(b.numerator), Int128(a.denominator) * Int128(b.denominator))
    }
    public static func / (a: Rational, b: Rational) -> Rational {
        precondition(b.numerator != 0, "division of a Rational by zero")
        return Rational(reducing: Int128(a.numerator) * Int128(b.denominator), Int128(a.denominator) * Int128(b.numerator))
    }
    public static prefix func - (a: Rational) -> Rational { Rational(-a.numerator, a.denominator) }
    public static func += (a: inout Rational, b: Rational) { a = a + b }
    public static func -= (a: inout Rational, b: Rational) { a = a - b }

    public static func < (a: Rational, b: Rational) -> Bool {
        Int128(a.numerator) * Int128(b.denominator) < Int128(b.numerator) * Int128(a.denominator)
    }

    public static func min(_ a: Rational, _ b: Rational) -> Rational { a < b ? a : b }
    public static func max(_ a: Rational, _ b: Rational) -> Rational { a < b ? b : a }
}

/// How a rational is turned into an integer.
public enum RoundingRule: Sendable {
    /// Toward negative infinity.
    case down
    /// Toward positive infinity.
    case up
    /// Toward zero.
    case towardZero
    /// To the nearest integer, halves away from zero.
    case nearest
}

extension Rational {
    /// Parses `"30000/1001"`, `"30"`, `"29.97"` or `"-1.5"` exactly (decimals are read digit by digit, not
    /// through `Double`). Returns `nil` for anything else, a zero denominator included.
    public init?(parsing text: String) {
        let text = text.trimmingSpaces
        if let slash = text.firstIndex(of: "/") {
            guard let n = Int64(text[..<slash]), let d = Int64(text[text.index(after: slash)...]), d != 0 else {
                return nil
            }
            self.init(n, d)
            return
        }
        guard let value = Rational.parseDecimal(Substring(text)) else { return nil }
        self = value
    }

    /// Parses `[-]digits[.digits]` exactly.
    static func parseDecimal(_ text: Substring) -> Rational? {
        var s = text
        var negative = false
        if s.first == "-" { negative = true; s = s.dropFirst() } else if s.first == "+" { s = s.dropFirst() }
        let parts = s.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = parts.first, !(whole.isEmpty && parts.count == 1) else { return nil }
        guard whole.allSatisfy(\.isASCIIDigit), whole.count <= 15 else { return nil }
        var numerator = Int128(whole.isEmpty ? 0 : Int64(whole)!)
        var denominator: Int128 = 1
        if parts.count == 2 {
            let frac = parts[1]
            guard !frac.isEmpty || !whole.isEmpty, frac.allSatisfy(\.isASCIIDigit), frac.count <= 15 else { return nil }
            for digit in frac {
                numerator = numerator * 10 + Int128(digit.asciiValue! - 48)
                denominator *= 10
            }
        }
        // Up to 15 digits on each side can exceed 64 bits once reduced (20888588.888888888888888, found by
        // `scripts/fuzz script`): refused, not a trap.
        let g = Int128(Rational.gcd(numerator.magnitude, denominator.magnitude))  // ≥ 1: the denominator is
        guard Int64(exactly: numerator / g) != nil, Int64(exactly: denominator / g) != nil else { return nil }
        return Rational(reducing: negative ? -numerator : numerator, denominator)
    }
}

extension Character {
    /// One of `0`…`9`.
    package var isASCIIDigit: Bool { isASCII && isNumber }
}

extension StringProtocol {
    var trimmingSpaces: String {
        var s = Substring(self)
        while let f = s.first, f.isWhitespace { s = s.dropFirst() }
        while let l = s.last, l.isWhitespace { s = s.dropLast() }
        return String(s)
    }
}
