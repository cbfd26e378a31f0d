/// One ad of a plan: the break's index and the ad's index within the break, both from 0 as in the event log,
/// the timeline and `pipctl ads inspect`.
///
/// A value rather than a `"break0/ad1"` string, so that keys are compared as numbers and cannot be misspelt.
public struct AdReference: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var breakIndex: Int
    public var adIndex: Int

    public init(_ breakIndex: Int, _ adIndex: Int) {
        self.breakIndex = breakIndex
        self.adIndex = adIndex
    }

    public static func < (a: AdReference, b: AdReference) -> Bool {
        (a.breakIndex, a.adIndex) < (b.breakIndex, b.adIndex)
    }

    /// `ad 1 of break 0`, as the log messages say.
    public var description: String { "ad \(adIndex) of break \(breakIndex)" }
}
