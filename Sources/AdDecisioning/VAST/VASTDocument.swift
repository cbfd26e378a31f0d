/// A parsed VAST response (versions 2 to 4.x): its ads in document order and its own `<Error>` URLs.
///
/// The parser keeps what is written, leniently; whether an ad can be played is decided when the response is
/// resolved (`AdTagResolver`). Pieces that could not be read are dropped and listed in `warnings`.
public struct VASTDocument: Hashable, Sendable {
    /// The `version` attribute as written (`2.0`, `3.0`, `4.2`); `nil` when absent.
    public var version: String?
    /// Every `<Ad>`, in document order.
    public var ads: [VASTAd]
    /// Top-level `<Error>` URLs: fired with `303` when the response has no ad (no fill).
    public var errorURLs: [String]
    /// Where the document came from (file or URL), for messages.
    public var source: String
    /// Pieces that were dropped while reading (a `MediaFile` without URL, an unreadable `skipoffset`, …), with
    /// code 101 and the line.
    public var warnings: [AdError]

    public init(version: String?, ads: [VASTAd], errorURLs: [String], source: String, warnings: [AdError] = []) {
        self.version = version
        self.ads = ads
        self.errorURLs = errorURLs
        self.source = source
        self.warnings = warnings
    }

    /// True when the response has no ad at all: a "no fill".
    public var isNoFill: Bool { ads.isEmpty }

    /// The ads with a `sequence`, in sequence order (stable for equal numbers): an ad pod.
    public var pod: [VASTAd] {
        ads.enumerated().filter { $0.element.sequence != nil }
            .sorted { ($0.element.sequence!, $0.offset) < ($1.element.sequence!, $1.offset) }
            .map(\.element)
    }

    /// The ads without a `sequence`, in document order: stand-alone ads (the "buffet").
    public var standaloneAds: [VASTAd] { ads.filter { $0.sequence == nil } }
}
