import MediaCore

/// How `AdsLoader` fetches, limits and selects, in the spirit of IMA's `IMASettings` and `IMAAdsRenderingSettings`.
public struct AdsLoaderSettings: Hashable, Sendable {
    /// Deadline for the first request (the ad tag itself, and each VMAP `AdTagURI`): 8 s.
    public var firstRequestTimeout: Duration = .seconds(8)
    /// Deadline for each wrapper's `VASTAdTagURI`: 4 s.
    public var wrapperTimeout: Duration = .seconds(4)
    /// One deadline for all of decisioning, counted from the start of `AdsLoader.load`: the ad tag, every VMAP
    /// `AdTagURI` and every wrapper must have arrived by then (each request also keeps its own timeout, whichever
    /// ends first). Breaks still loading then fail with 301 and the plan keeps what arrived: 15 s. `nil` for none.
    public var decisionTimeout: Duration? = .seconds(15)
    /// How many VMAP breaks are resolved at the same time: 8.
    public var maximumConcurrentBreaks = 8
    /// How many wrappers one chain may follow: 5. A wrapper beyond that fails with 302.
    public var maximumWrapperDepth = 5
    /// Documents larger than this are refused unread: 16 MiB.
    public var maximumDocumentBytes = VASTParser.defaultMaximumDocumentBytes
    /// At most this many breaks in one plan (explicit or from `repeatAfter`): 10 000.
    public var maximumBreaks = 10_000
    /// Rewrites remote ad tags and media URLs to local files.
    public var urlMap: URLMap?
    /// What documents fetched over http(s) may reference (`OriginPolicy`); `--allow-local-media` sets its folder.
    public var originPolicy = OriginPolicy()
    /// Headers sent with every ad document request (the tag, VMAP sources, wrappers): `pipctl serve` passes the
    /// viewer's `X-Device-IP` and `X-Device-User-Agent` (VAST 4, server-to-server). Empty by default.
    public var requestHeaders: [String: String] = [:]
    /// Which media file rendition to play.
    public var mediaSelection = MediaSelectionSettings()

    public init() {}
}
