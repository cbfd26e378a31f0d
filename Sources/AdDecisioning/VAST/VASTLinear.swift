import MediaCore

/// A `<Linear>` creative: the video ad itself (in a wrapper: only tracking and click tracking).
public struct VASTLinear: Hashable, Sendable {
    /// `<Duration>` as declared; `nil` when absent, empty or `undefined` (the media's own length decides).
    public var duration: MediaDuration?
    /// `skipoffset`; `nil` when the ad cannot be skipped. May be longer than the ad (then it never applies).
    public var skipOffset: AdOffset?
    /// `<MediaFile>` renditions with every attribute, in document order.
    public var mediaFiles: [MediaFile]
    /// `<InteractiveCreativeFile>` (VAST 4.1, SIMID…): recognised, never run.
    public var interactiveCreativeFiles: [VASTInteractiveCreativeFile]
    /// `<Mezzanine>` URLs (VAST 4, for server-side transcoding).
    public var mezzanineURLs: [String]
    public var adParameters: String?
    /// `<TrackingEvents>`, `progress` events with their `offset`.
    public var tracking: [TrackingEvent]
    public var clickThrough: String?
    public var clickTracking: [String]
    public var customClicks: [String]

    public init(duration: MediaDuration? = nil, skipOffset: AdOffset? = nil, mediaFiles: [MediaFile] = [],
                interactiveCreativeFiles: [VASTInteractiveCreativeFile] = [], mezzanineURLs: [String] = [],
                adParameters: String? = nil, tracking: [TrackingEvent] = [], clickThrough: String? = nil,
                clickTracking: [String] = [], customClicks: [String] = []) {
        self.duration = duration
        self.skipOffset = skipOffset
        self.mediaFiles = mediaFiles
        self.interactiveCreativeFiles = interactiveCreativeFiles
        self.mezzanineURLs = mezzanineURLs
        self.adParameters = adParameters
        self.tracking = tracking
        self.clickThrough = clickThrough
        self.clickTracking = clickTracking
        self.customClicks = customClicks
    }
}

/// An `<InteractiveCreativeFile>`: code that runs beside the media (SIMID, VPAID in VAST 4.1). Never run here.
public struct VASTInteractiveCreativeFile: Hashable, Sendable {
    public var url: String
    public var type: String?
    public var apiFramework: String?
    public var variableDuration: Bool?

    public init(url: String, type: String? = nil, apiFramework: String? = nil, variableDuration: Bool? = nil) {
        self.url = url
        self.type = type
        self.apiFramework = apiFramework
        self.variableDuration = variableDuration
    }
}
