import Foundation

/// A wall-clock bound of a test ("Ctrl-C stops within 1 s", "a 14 MB document parses in under 10 s"), stretched
/// when the suite runs under a sanitizer.
///
/// Why: AddressSanitizer and ThreadSanitizer slow the code 2–15×, so a bound that proves "at once" or "in linear
/// time" on the normal build fails there on time, not on the behaviour. `scripts/test --sanitize KIND` sets
/// `PIPCTL_TEST_TIME_SCALE` (4); the normal build keeps the exact bound.
public enum WallClockBound {
    /// `PIPCTL_TEST_TIME_SCALE` when set to a number of at least 1, else 1.
    public static var scale: Int {
        guard let text = ProcessInfo.processInfo.environment["PIPCTL_TEST_TIME_SCALE"], let value = Int(text), value >= 1 else {
            return 1
        }
        return value
    }

    /// `bound` stretched by `scale`.
    public static func scaled(_ bound: Duration) -> Duration { bound * scale }
}
