/// An input whose frames stop before the duration its container declares: a file cut short (a Matroska file
/// copied half-way, a recording that was never finished), reported rather than silently shortened.
public struct EarlyEnd: Hashable, Sendable, CustomStringConvertible {
    /// The file as it was named to pipctl.
    public var path: String
    /// Where its video really ends, on its own clock (zero = the file's start).
    public var end: MediaDuration
    /// The duration its container declares.
    public var declared: MediaDuration

    public init(path: String, end: MediaDuration, declared: MediaDuration) {
        self.path = path
        self.end = end
        self.declared = declared
    }

    /// `ends at 0:00:04.960, before the 0:00:10.023 its container declares`, for logs and summaries.
    public var description: String { "ends at \(end), before the \(declared) its container declares" }
}
