/// How an error message quotes a value the user wrote: whole when it is short, else its first `excerptLimit`
/// characters and its full length, so that one bad command in a 50 MB script gives one short line, not the script.
///
/// Every error that interpolates a user's value (script commands, session files, native responses, URL maps,
/// device names) goes through `excerpt`; docs/SECURITY.md gives the limit.
public let excerptLimit = 200

extension StringProtocol {
    /// The text as an error message quotes it: itself when at most `excerptLimit` characters, else its first
    /// `excerptLimit` characters followed by `… (N bytes in all)`.
    ///
    /// Only the first `excerptLimit + 1` characters are walked to decide, so a huge value costs no more than a
    /// short one (its byte count is O(1) for a native string).
    public var excerpt: String {
        guard let cut = index(startIndex, offsetBy: excerptLimit, limitedBy: endIndex), cut < endIndex else { return String(self) }
        return String(self[..<cut]) + "… (\(utf8.count) bytes in all)"
    }
}
