import MediaCore

/// `<NonLinearAds>`: overlays shown over the content, kept for overlay rendering later.
public struct VASTNonLinearAds: Hashable, Sendable {
    public var nonLinears: [VASTNonLinear]
    /// Tracking shared by the overlays (`creativeView`, `acceptInvitation`, `close`, …).
    public var tracking: [TrackingEvent]

    public init(nonLinears: [VASTNonLinear] = [], tracking: [TrackingEvent] = []) {
        self.nonLinears = nonLinears
        self.tracking = tracking
    }
}

/// One `<NonLinear>` overlay.
public struct VASTNonLinear: Hashable, Sendable {
    public var id: String?
    public var size: PixelSize?
    public var expandedSize: PixelSize?
    public var scalable: Bool?
    public var maintainAspectRatio: Bool?
    /// `minSuggestedDuration`: how long the overlay should stay.
    public var minSuggestedDuration: MediaDuration?
    public var apiFramework: String?
    public var resources: [VASTResource]
    public var clickThrough: String?
    public var clickTracking: [String]
    public var adParameters: String?

    public init(id: String? = nil, size: PixelSize? = nil, expandedSize: PixelSize? = nil, scalable: Bool? = nil,
                maintainAspectRatio: Bool? = nil, minSuggestedDuration: MediaDuration? = nil,
                apiFramework: String? = nil, resources: [VASTResource] = [], clickThrough: String? = nil,
                clickTracking: [String] = [], adParameters: String? = nil) {
        self.id = id
        self.size = size
        self.expandedSize = expandedSize
        self.scalable = scalable
        self.maintainAspectRatio = maintainAspectRatio
        self.minSuggestedDuration = minSuggestedDuration
        self.apiFramework = apiFramework
        self.resources = resources
        self.clickThrough = clickThrough
        self.clickTracking = clickTracking
        self.adParameters = adParameters
    }
}

/// What an overlay or companion shows.
public enum VASTResource: Hashable, Sendable {
    /// `<StaticResource creativeType="image/png">`: an image (or script) at a URL.
    case staticResource(url: String, creativeType: String?)
    /// `<IFrameResource>`: a page to show in a frame.
    case iframe(url: String)
    /// `<HTMLResource>`: markup to show.
    case html(String)
}
