/// One `<Ad>` of a VAST response: an `<InLine>` ad or a `<Wrapper>` that points at another response.
public struct VASTAd: Hashable, Sendable {
    /// What the `<Ad>` element holds.
    public enum Kind: Hashable, Sendable {
        case inline
        case wrapper(VASTWrapper)
        /// Neither `<InLine>` nor `<Wrapper>`: the ad cannot be used (reported as 101).
        case empty
    }

    /// `<Ad id>`.
    public var id: String?
    /// `<Ad sequence>`: the position in a pod; `nil` for a stand-alone ad.
    public var sequence: Int?
    /// `<Ad conditionalAd>` (VAST 4, deprecated in 4.1); kept for reports, it does not change playback.
    public var conditionalAd: Bool?
    /// `<Ad adType>` (VAST 4.1: `video`, `audio`, `hybrid`).
    public var adType: String?
    public var kind: Kind
    public var adSystem: VASTAdSystem?
    public var adTitle: String?
    public var description: String?
    public var advertiser: String?
    public var impressions: [String]
    /// The ad's `<Error>` URLs.
    public var errorURLs: [String]
    public var creatives: [VASTCreative]
    /// The line of the `<Ad>` start tag, for messages.
    public var line: Int

    public init(id: String? = nil, sequence: Int? = nil, conditionalAd: Bool? = nil, adType: String? = nil,
                kind: Kind, adSystem: VASTAdSystem? = nil, adTitle: String? = nil, description: String? = nil,
                advertiser: String? = nil, impressions: [String] = [], errorURLs: [String] = [],
                creatives: [VASTCreative] = [], line: Int = 0) {
        self.id = id
        self.sequence = sequence
        self.conditionalAd = conditionalAd
        self.adType = adType
        self.kind = kind
        self.adSystem = adSystem
        self.adTitle = adTitle
        self.description = description
        self.advertiser = advertiser
        self.impressions = impressions
        self.errorURLs = errorURLs
        self.creatives = creatives
        self.line = line
    }

    /// `ad 'ID' (line N)` or `ad at line N`, for messages.
    public var label: String { id.map { "ad '\($0)' (line \(line))" } ?? "ad at line \(line)" }

    /// The linear creatives, in document order.
    public var linearCreatives: [VASTLinear] { creatives.compactMap(\.linear) }
}

/// `<AdSystem>`: the ad server that returned the ad.
public struct VASTAdSystem: Hashable, Sendable {
    public var name: String
    public var version: String?

    public init(name: String, version: String? = nil) {
        self.name = name
        self.version = version
    }
}

/// What a `<Wrapper>` adds to an ad: where the next response is and how to treat it.
public struct VASTWrapper: Hashable, Sendable {
    /// `<VASTAdTagURI>` (or VAST 1's `<VASTAdTagURL><URL>`), white space removed; `nil` when missing.
    public var tagURI: String?
    /// `followAdditionalWrappers`: whether the response may itself be a wrapper; absent means yes.
    public var followAdditionalWrappers: Bool?
    /// `allowMultipleAds`: whether the response may hold a pod or several ads; absent means no (VAST 4).
    public var allowMultipleAds: Bool?
    /// `fallbackOnNoAd`: whether a stand-alone ad of this response may replace the ad when the wrapped response
    /// has no ad; absent means no.
    public var fallbackOnNoAd: Bool?

    public init(tagURI: String?, followAdditionalWrappers: Bool? = nil, allowMultipleAds: Bool? = nil,
                fallbackOnNoAd: Bool? = nil) {
        self.tagURI = tagURI
        self.followAdditionalWrappers = followAdditionalWrappers
        self.allowMultipleAds = allowMultipleAds
        self.fallbackOnNoAd = fallbackOnNoAd
    }
}
