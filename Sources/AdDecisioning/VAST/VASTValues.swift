import MediaCore

/// How attribute and text values of VAST and VMAP are read: leniently where real responses vary, `nil` where a
/// value cannot be understood (the caller records what it dropped).
enum VASTValues {
    /// `true`/`false` in any case, `1`/`0`, `yes`/`no`.
    static func bool(_ text: String?) -> Bool? {
        guard let t = text?.trimmingSpaces.lowercased(), !t.isEmpty else { return nil }
        switch t {
        case "true", "1", "yes": return true
        case "false", "0", "no": return false
        default: return nil
        }
    }

    /// A whole number; `640.0` is read as 640.
    static func int(_ text: String?) -> Int? {
        guard let text else { return nil }
        if let v = Int(text) { return v }
        let t = text.trimmingSpaces
        guard !t.isEmpty else { return nil }
        if let v = Int(t) { return v }
        guard let r = Rational(parsing: t), r.isInteger else { return nil }
        return Int(exactly: r.numerator)
    }

    /// The outcome of reading a `Duration`: a length, "not given" (empty, `undefined`), or unreadable.
    enum DurationValue: Equatable {
        case duration(MediaDuration)
        case unspecified
        case invalid
    }

    /// Reads a `<Duration>`: `hh:mm:ss[.mmm]` (any number of fraction digits, `00:00:05.6`), plain seconds
    /// (`30`), or nothing at all (empty, `undefined`, `unknown`), in which case the media decides.
    static func duration(_ text: String?) -> DurationValue {
        guard let t = text?.trimmingSpaces, !t.isEmpty else { return .unspecified }
        if ["undefined", "unknown", "n/a", "-1"].contains(t.lowercased()) { return .unspecified }
        guard let time = MediaTime(parsing: t), time.seconds >= .zero else { return .invalid }
        return .duration(MediaDuration(seconds: time.seconds))
    }

    /// Reads an offset on an ad's clock, as `skipoffset` and `progress` tracking write it: `hh:mm:ss[.mmm]`,
    /// plain seconds, or `n%` (0 to 100, decimals allowed).
    static func adOffset(_ text: String?) -> AdOffset? {
        guard let t = text?.trimmingSpaces, !t.isEmpty else { return nil }
        if t.hasSuffix("%") {
            guard let p = Rational(parsing: String(t.dropLast())), p >= .zero, p <= Rational(100) else { return nil }
            return .fraction(p / Rational(100))
        }
        guard let time = MediaTime(parsing: t), time.seconds >= .zero else { return nil }
        return .time(MediaDuration(seconds: time.seconds))
    }
}
