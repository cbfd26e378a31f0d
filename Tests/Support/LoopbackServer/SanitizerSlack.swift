import Foundation

/// The bounds of tests on time and memory ("Ctrl-C stops within 1 s", "an endless body peaks under 100 MB"),
/// stretched when the suite runs under a sanitizer.
///
/// Why: AddressSanitizer and ThreadSanitizer slow the code 2–15× and give every process a large fixed shadow
/// memory, so a bound that proves "at once", "in linear time" or "bounded memory" on the normal build fails there
/// on the tool's cost, not on the behaviour. `scripts/test --sanitize KIND` sets `PIPCTL_SANITIZER_SLACK` (4): a
/// 100 MB bound becomes 400 MB, which an unbounded 2.7 GB read still breaks. The normal build keeps exact bounds.
public enum SanitizerSlack {
    /// `PIPCTL_SANITIZER_SLACK` when set to a number of at least 1, else 1.
    public static var factor: Int {
        guard let text = ProcessInfo.processInfo.environment["PIPCTL_SANITIZER_SLACK"], let value = Int(text), value >= 1 else {
            return 1
        }
        return value
    }

    /// A wall-clock bound, stretched by `factor`.
    public static func time(_ bound: Duration) -> Duration { bound * factor }

    /// A memory bound in bytes, stretched by `factor`.
    public static func bytes(_ bound: Int) -> Int { bound * factor }
}
