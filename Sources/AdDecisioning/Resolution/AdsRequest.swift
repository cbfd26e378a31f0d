import MediaCore

/// What to load ads for: an ad tag and what is known about the content (IMA's `IMAAdsRequest`).
public struct AdsRequest: Hashable, Sendable {
    /// A VAST or VMAP ad tag: an `http(s)://` URL, a `file://` URL or a path (relative to the current directory).
    public var adTag: String
    /// The content's duration; needed to place `n%` breaks and to expand `repeatAfter`, and to refuse mid-rolls
    /// past the end.
    public var contentDuration: MediaDuration?
    /// The content's ad break opportunities, for VMAP `#n` offsets (`#1` is the first).
    public var cuePoints: [MediaTime]

    public init(adTag: String, contentDuration: MediaDuration? = nil, cuePoints: [MediaTime] = []) {
        self.adTag = adTag
        self.contentDuration = contentDuration
        self.cuePoints = cuePoints
    }
}

/// What `AdsLoader.load` found: the plan, what kind of response it came from, and what was dropped on the way.
public struct AdsLoadResult: Hashable, Sendable {
    /// The kind of the top-level response.
    public enum ResponseKind: String, Hashable, Sendable {
        case vast, vmap, quick
    }

    /// Breaks in play order; `plan.errors` lists what could not be used (no fill, failed wrappers, breaks that
    /// cannot be placed); ads that resolved but cannot play are in the plan, already marked `failed`.
    public var plan: AdPlan
    public var kind: ResponseKind
    /// The ad tag as loaded (after resolving a relative path).
    public var source: String
    /// Pieces of the responses that were unreadable and dropped (code 101), and ads ignored by the rules.
    public var warnings: [AdError]

    public init(plan: AdPlan, kind: ResponseKind, source: String, warnings: [AdError] = []) {
        self.plan = plan
        self.kind = kind
        self.source = source
        self.warnings = warnings
    }
}
