import Foundation
import MediaCore

/// Reads and writes the times of script commands, exactly.
///
/// A time is seconds (`12`, `20.5`), a clock time (`1:02:03.250`) or a fraction of seconds (`1001/300`); the
/// fraction form exists so that any rational time, such as a frame start at 30000/1001 fps, can be written back
/// without loss.
///
/// Every form is held below 10^15 s (`limit`, some 31 million years): seconds read at most 15 whole digits, and a
/// fraction or a clock time beyond them could not be written back as a decimal that reads again (found by
/// `scripts/fuzz script`: `pip on@02000000000000000000/00020` formatted as `pip on@100000000000000000`).
enum ScriptTime {
    /// The first time no script can write.
    static let limit = Rational(1_000_000_000_000_000)

    /// Parses a non-negative time below `limit`; `nil` for anything else.
    static func parse(_ text: String) -> MediaTime? {
        let text = text.trimmingCharacters(in: .whitespaces)
        let time: MediaTime?
        if text.contains("/") {
            time = Rational(parsing: text).map { MediaTime(seconds: $0) }
        } else {
            time = MediaTime(parsing: text)
        }
        guard let time, time.seconds >= .zero, time.seconds < limit else { return nil }
        return time
    }

    /// Writes `time` (below `limit`) exactly: a decimal when it has a finite one that `parse` reads back, otherwise
    /// a fraction.
    static func formatExactly(_ time: MediaTime) -> String {
        let value = time.seconds
        if let digits = terminatingDigits(of: value.denominator), let text = decimal(exactly: value, digits: digits) {
            return text
        }
        return "\(value.numerator)/\(value.denominator)"
    }

    /// `value` with `digits` fraction digits (its denominator divides 10^digits), or `nil` when its digits as one
    /// integer do not fit in 64 bits, the most a decimal time reads.
    private static func decimal(exactly value: Rational, digits: Int) -> String? {
        var scale: Int128 = 1
        for _ in 0..<digits { scale *= 10 }
        guard let scaled = Int64(exactly: Int128(value.numerator) * (scale / Int128(value.denominator))) else { return nil }
        return text(scaled: scaled, digits: digits)
    }

    /// Writes the shortest decimal that a command at `time` maps to the same frame with: any value in
    /// `((n-1)/F, n/F]` applies at frame `n`, so the frame start `n/F` is rounded down to the fewest digits that
    /// stay inside that window.
    static func formatSnapped(_ time: MediaTime, to rate: FrameRate) -> String {
        let frame = rate.firstFrame(atOrAfter: time)
        let upper = rate.time(ofFrame: frame).seconds
        let lower = rate.time(ofFrame: frame - 1).seconds
        var scale: Int64 = 1
        for digits in 0...maximumDigits {
            let candidate = Rational((upper * Rational(scale)).floor, scale)
            if candidate > lower { return decimal(candidate, digits: digits) }
            scale *= 10
        }
        return formatExactly(rate.time(ofFrame: frame))
    }

    /// More fraction digits than this risk 64-bit overflow on long times; `Rational(parsing:)` reads 15.
    private static let maximumDigits = 12

    /// The number of decimal digits `1/denominator` needs, or `nil` when its decimal does not terminate.
    private static func terminatingDigits(of denominator: Int64) -> Int? {
        var d = denominator, twos = 0, fives = 0
        while d % 2 == 0 { d /= 2; twos += 1 }
        while d % 5 == 0 { d /= 5; fives += 1 }
        let digits = max(twos, fives)
        return d == 1 && digits <= maximumDigits ? digits : nil
    }

    /// `value` (non-negative, a multiple of 10^-digits) with exactly `digits` fraction digits.
    private static func decimal(_ value: Rational, digits: Int) -> String {
        var scale: Int64 = 1
        for _ in 0..<digits { scale *= 10 }
        return text(scaled: (value * Rational(scale)).floor, digits: digits)
    }

    /// `scaled` / 10^digits written with exactly `digits` fraction digits.
    private static func text(scaled: Int64, digits: Int) -> String {
        guard digits > 0 else { return String(scaled) }
        let text = String(scaled)
        let padded = String(repeating: "0", count: max(0, digits + 1 - text.count)) + text
        return "\(padded.dropLast(digits)).\(padded.suffix(digits))"
    }
}
