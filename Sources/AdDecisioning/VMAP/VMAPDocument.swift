import MediaCore

/// A parsed VMAP 1.0 response: the ad breaks of one content, in document order.
public struct VMAPDocument: Hashable, Sendable {
    /// The `version` attribute as written (`1.0`, `1.0.1`).
    public var version: String?
    public var breaks: [VMAPAdBreak]
    /// Where the document came from, for messages and as the base of relative `AdTagURI`s.
    public var source: String
    /// Pieces that were dropped while reading (a break with an unreadable `timeOffset`, …), code 101, with the line.
    public var warnings: [AdError]

    public init(version: String?, breaks: [VMAPAdBreak], source: String, warnings: [AdError] = []) {
        self.version = version
        self.breaks = breaks
        self.source = source
        self.warnings = warnings
    }
}

/// One `<AdBreak>`.
public struct VMAPAdBreak: Hashable, Sendable {
    public var timeOffset: BreakOffset
    /// `breakType`: `linear`, `nonlinear`, `display`, or several separated by commas.
    public var breakType: String
    /// `breakId`; breaks with the same offset and id form one break (as Google writes pods).
    public var breakId: String?
    /// `repeatAfter`: play the break again every this long, through the content.
    public var repeatAfter: MediaDuration?
    /// `<AdSource>`; `nil` when the break has none (reported when the break is resolved).
    public var adSource: VMAPAdSource?
    /// `<TrackingEvents>`: `breakStart`, `breakEnd`, `error`.
    public var tracking: [TrackingEvent]
    /// The line of the `<AdBreak>` start tag.
    public var line: Int

    public init(timeOffset: BreakOffset, breakType: String = "linear", breakId: String? = nil,
                repeatAfter: MediaDuration? = nil, adSource: VMAPAdSource? = nil, tracking: [TrackingEvent] = [],
                line: Int = 0) {
        self.timeOffset = timeOffset
        self.breakType = breakType
        self.breakId = breakId
        self.repeatAfter = repeatAfter
        self.adSource = adSource
        self.tracking = tracking
        self.line = line
    }

    /// `break 'ID' at OFFSET (line N)`, for messages.
    public var label: String {
        (breakId.map { "break '\($0)'" } ?? "break") + " at \(timeOffset) (line \(line))"
    }
}

/// An `<AdSource>`: where a break's ads come from.
public struct VMAPAdSource: Hashable, Sendable {
    public enum Content: Hashable, Sendable {
        /// `<VASTAdData>` (VMAP 1.0) or `<VASTData>` (the draft's name): a VAST document inline.
        case vast(VASTDocument)
        /// `<AdTagURI>`: a VAST (or VMAP-less) ad tag, resolved like a wrapper's.
        case adTagURI(String, templateType: String?)
        /// `<CustomAdData>`: a format other than VAST; not supported.
        case custom(templateType: String?)
        /// The source could not be read (an embedded VAST 1 document, an empty `VASTAdData`, …).
        case unusable(AdError)
    }

    public var id: String?
    /// `allowMultipleAds`: whether the source may return a pod or several ads; absent means yes.
    public var allowMultipleAds: Bool?
    /// `followRedirects`: whether wrappers in the source's response may be followed; absent means yes.
    public var followRedirects: Bool?
    public var content: Content

    public init(id: String? = nil, allowMultipleAds: Bool? = nil, followRedirects: Bool? = nil, content: Content) {
        self.id = id
        self.allowMultipleAds = allowMultipleAds
        self.followRedirects = followRedirects
        self.content = content
    }
}
