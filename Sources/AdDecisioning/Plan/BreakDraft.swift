import MediaCore

/// A break before it is placed on the content clock: where it asks to play, its resolved ads, and how it merges
/// and repeats. `AdPlanBuilder` turns drafts into an `AdPlan`.
package struct BreakDraft: Sendable {
    /// One ad and, when it cannot be played (no acceptable media, media not found), why.
    package struct Ad: Sendable {
        package var ad: LinearAd
        package var error: AdError?
    }

    var offset: BreakOffset
    /// VMAP `breakId`, kept on the `AdBreak`.
    var breakId: String?
    /// Drafts at the same position with the same key are one break; `nil` never merges.
    var mergeKey: String?
    var breakType: String = "linear"
    var tracking: [TrackingEvent] = []
    var ads: [Ad]
    var repeatAfter: MediaDuration?
    /// `break 'ID' at OFFSET (line N)`, for messages.
    var label: String
    /// Unused stand-alone ads of the response, for ads that turn out unplayable (`AdTagResolution.fallbacks`).
    var fallbacks: [LinearAd] = []
    /// Which stand-alone ad replaced which (`AdTagResolution.replacements`).
    var replacements: [AdError] = []

    /// The VMAP `error` tracking URLs, fired when the break cannot be played.
    var errorURLs: [String] { tracking.filter { $0.event == .error }.map(\.url) }
}
