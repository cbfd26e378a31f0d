import MediaCore

/// One `<Companion>` ad shown beside the player, kept for display later.
public struct VASTCompanion: Hashable, Sendable {
    public var id: String?
    public var size: PixelSize?
    public var assetSize: PixelSize?
    public var expandedSize: PixelSize?
    public var apiFramework: String?
    public var adSlotId: String?
    public var resources: [VASTResource]
    public var clickThrough: String?
    public var clickTracking: [String]
    /// `creativeView` tracking of the companion.
    public var tracking: [TrackingEvent]
    public var altText: String?
    public var adParameters: String?

    public init(id: String? = nil, size: PixelSize? = nil, assetSize: PixelSize? = nil,
                expandedSize: PixelSize? = nil, apiFramework: String? = nil, adSlotId: String? = nil,
                resources: [VASTResource] = [], clickThrough: String? = nil, clickTracking: [String] = [],
                tracking: [TrackingEvent] = [], altText: String? = nil, adParameters: String? = nil) {
        self.id = id
        self.size = size
        self.assetSize = assetSize
        self.expandedSize = expandedSize
        self.apiFramework = apiFramework
        self.adSlotId = adSlotId
        self.resources = resources
        self.clickThrough = clickThrough
        self.clickTracking = clickTracking
        self.tracking = tracking
        self.altText = altText
        self.adParameters = adParameters
    }
}
