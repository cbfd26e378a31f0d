import Foundation
import MediaCore

/// The `[TIMESTAMP]` and `[CACHEBUSTING]` values of a session.
///
/// The timestamp is the session's clock origin plus the output time: a fixed origin for a log-only render (so
/// the same inputs give byte-identical beacons), the wall time the render started when beacons are really sent.
/// The cache buster is one value per fired URL, in firing order: from a seeded SplitMix64 generator (reproducible)
/// or, when beacons are really sent, fresh from the system's random source, because an ad server must never see
/// the same value twice across runs.
package struct BeaconStamps {
    private let originMilliseconds: Int64
    private let cacheBusting: CacheBusting
    private var state: UInt64

    package init(clockOrigin: Date, seed: UInt64, cacheBusting: CacheBusting = .seeded) {
        originMilliseconds = Int64((clockOrigin.timeIntervalSince1970 * 1000).rounded(.down))
        self.cacheBusting = cacheBusting
        state = seed
    }

    /// ISO 8601 in UTC with milliseconds (rounded down): `2000-01-01T00:00:12.400Z`.
    package func timestamp(at outputTime: MediaTime) -> String {
        let ms = originMilliseconds + (outputTime.seconds * Rational(1000)).floor
        let (days, dayMs) = ms.quotientAndRemainderFloored(dividingBy: 86_400_000)
        let (year, month, day) = Self.civilDate(daysSinceEpoch: days)
        func pad(_ v: Int64, _ width: Int) -> String {
            let s = String(v)
            return String(repeating: "0", count: max(0, width - s.count)) + s
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(dayMs / 3_600_000, 2)):"
            + "\(pad(dayMs / 60_000 % 60, 2)):\(pad(dayMs / 1000 % 60, 2)).\(pad(dayMs % 1000, 3))Z"
    }

    /// Eight digits, as VAST asks for `[CACHEBUSTING]`.
    package mutating func nextCacheBuster() -> String {
        let number: UInt64 = switch cacheBusting {
        case .seeded: next() % 100_000_000
        case .random: UInt64.random(in: 0..<100_000_000)
        }
        let value = String(number)
        return String(repeating: "0", count: 8 - value.count) + value
    }

    /// SplitMix64: tiny, fast and the same on every platform.
    private mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// The proleptic Gregorian date of a day count from 1970-01-01, by shifting to years that start on 1 March
    /// (so the leap day is last) and counting 400-year eras of 146097 days.
    static func civilDate(daysSinceEpoch days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

private extension Int64 {
    func quotientAndRemainderFloored(dividingBy d: Int64) -> (Int64, Int64) {
        let (q, r) = quotientAndRemainder(dividingBy: d)
        return r < 0 ? (q - 1, r + d) : (q, r)
    }
}

/// Where `[CACHEBUSTING]` values come from: reproducible for logs, fresh for beacons really sent.
public enum CacheBusting: Hashable, Sendable {
    /// From the session's seed: the same inputs give the same values (and byte-identical event logs).
    case seeded
    /// A fresh random eight-digit number per beacon and run, as an ad server expects of beacons it receives.
    case random
}

/// The clock `[TIMESTAMP]` values are read from.
public enum BeaconClock {
    /// 2000-01-01T00:00:00Z: a fixed default origin so that two runs give the same beacons unless told otherwise.
    public static let defaultOrigin = Date(timeIntervalSince1970: 946_684_800)
}
