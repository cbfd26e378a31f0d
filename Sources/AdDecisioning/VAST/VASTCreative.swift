/// One `<Creative>`: a linear ad, non-linear ads (overlays) or companion ads, with its identifiers.
public struct VASTCreative: Hashable, Sendable {
    /// `<Creative id>`.
    public var id: String?
    /// `<Creative adId>` (VAST 3's `AdID`: the Ad-ID / ISCI code).
    public var adId: String?
    public var sequence: Int?
    public var apiFramework: String?
    /// VAST 4's `<UniversalAdId>` elements; for VAST 3 an `AdID` attribute is read as registry `Ad-ID`.
    public var universalAdIds: [UniversalAdId]
    public var linear: VASTLinear?
    public var nonLinearAds: VASTNonLinearAds?
    public var companions: [VASTCompanion]

    public init(id: String? = nil, adId: String? = nil, sequence: Int? = nil, apiFramework: String? = nil,
                universalAdIds: [UniversalAdId] = [], linear: VASTLinear? = nil,
                nonLinearAds: VASTNonLinearAds? = nil, companions: [VASTCompanion] = []) {
        self.id = id
        self.adId = adId
        self.sequence = sequence
        self.apiFramework = apiFramework
        self.universalAdIds = universalAdIds
        self.linear = linear
        self.nonLinearAds = nonLinearAds
        self.companions = companions
    }
}
