import MediaCore

/// Where a break plays relative to the content.
public enum BreakPosition: Hashable, Comparable, Sendable, CustomStringConvertible {
    case preroll
    /// At this time on the content clock.
    case midroll(MediaTime)
    case postroll

    public var description: String {
        switch self {
        case .preroll: "preroll"
        case .midroll(let t): "midroll@\(t)"
        case .postroll: "postroll"
        }
    }

    private var rank: Int {
        switch self {
        case .preroll: 0
        case .midroll: 1
        case .postroll: 2
        }
    }

    public static func < (a: BreakPosition, b: BreakPosition) -> Bool {
        if case .midroll(let x) = a, case .midroll(let y) = b { return x < y }
        return a.rank < b.rank
    }
}

/// Where one ad stands. `available` moves once, to one of the other three, and never back.
public enum AdState: String, Hashable, Sendable {
    case available, played, skipped, failed
}

/// One ad of a break and its state.
public struct PlannedAd: Hashable, Sendable {
    public fileprivate(set) var ad: LinearAd
    public fileprivate(set) var state: AdState
    /// Why the ad failed, when it did.
    public fileprivate(set) var error: AdError?

    public init(ad: LinearAd) {
        self.ad = ad
        self.state = .available
        self.error = nil
    }
}

/// One ad break: its position, its ads in play order, and the VMAP break's tracking.
public struct AdBreak: Hashable, Sendable {
    /// VMAP `breakId`, when there is one.
    public let id: String?
    public let position: BreakPosition
    /// VMAP `breakType` (`linear`, `nonlinear`, `display`); `linear` for plain VAST and the quick form.
    public let breakType: String
    /// VMAP `breakStart`, `breakEnd` and `error` tracking.
    public let tracking: [TrackingEvent]
    public fileprivate(set) var ads: [PlannedAd]
    /// Stand-alone ads of the break's pod response not used yet, in order, each resolved with a rendition chosen:
    /// `insertFallback(breakIndex:after:)` puts the next one after an ad that failed.
    public fileprivate(set) var fallbacks: [LinearAd]
    /// Which stand-alone ad took the place of which ad while the plan was made, one line each with the failed
    /// ad's code; the ads manager logs them.
    public let replacements: [AdError]

    public init(id: String? = nil, position: BreakPosition, breakType: String = "linear",
                tracking: [TrackingEvent] = [], ads: [LinearAd], fallbacks: [LinearAd] = [],
                replacements: [AdError] = []) {
        self.id = id
        self.position = position
        self.breakType = breakType
        self.tracking = tracking
        self.ads = ads.map(PlannedAd.init(ad:))
        self.fallbacks = fallbacks
        self.replacements = replacements
    }

    /// True once no ad of the break is left to play.
    public var isFinished: Bool { !ads.contains { $0.state == .available } }
}

/// A mistake in using the plan: an index that does not exist or a state change the model forbids.
public enum AdPlanError: Error, Hashable, Sendable, CustomStringConvertible {
    case noSuchAd(breakIndex: Int, adIndex: Int)
    case illegalTransition(breakIndex: Int, adIndex: Int, from: AdState, to: AdState)
    /// A fallback can only follow an ad that failed.
    case notFailed(breakIndex: Int, adIndex: Int)

    public var description: String {
        switch self {
        case .noSuchAd(let b, let a): "break \(b) has no ad \(a)"
        case .notFailed(let b, let a): "ad \(a) of break \(b) has not failed; no fallback replaces it"
        case .illegalTransition(let b, let a, let from, let to): "ad \(a) of break \(b) cannot go from \(from) to \(to)"
        }
    }
}

/// The ad breaks for one content, in play order, with the state of every ad.
///
/// An immutable value (as Media3's `AdPlaybackState`): each change is a checked `mutating` method that returns a
/// new state of the plan, so a session can keep, compare and log plans freely.
public struct AdPlan: Hashable, Sendable {
    /// Pre-roll first, then mid-rolls by content time, then post-roll; equal positions keep their given order.
    public private(set) var breaks: [AdBreak]
    /// Decisioning errors that belong to no playable ad (no fill, a wrapper that failed, a break with no ad).
    public var errors: [AdError]
    /// The tracking, click and resource URLs the origin policy dropped from documents fetched over http(s) (not
    /// http(s) themselves), one warning each: the session logs each as a `LOG` (docs/SECURITY.md).
    public var droppedReferences: [AdError] = []

    public init(breaks: [AdBreak], errors: [AdError] = []) {
        self.breaks = breaks.enumerated().sorted { l, r in
            l.element.position == r.element.position ? l.offset < r.offset : l.element.position < r.element.position
        }.map(\.element)
        self.errors = errors
    }

    public static let empty = AdPlan(breaks: [])

    public var isEmpty: Bool { breaks.isEmpty }

    public mutating func markPlayed(breakIndex: Int, adIndex: Int) throws(AdPlanError) {
        try transition(breakIndex, adIndex, to: .played, error: nil)
    }

    /// Records that an available ad plays from `rendition`, one of its fallback renditions, because the better
    /// ones failed to fetch or decode: the plan (and the macros built from it) name what really plays.
    public mutating func choose(_ rendition: MediaSelection.Rendition, breakIndex: Int, adIndex: Int) throws(AdPlanError) {
        guard breaks.indices.contains(breakIndex), breaks[breakIndex].ads.indices.contains(adIndex) else {
            throw .noSuchAd(breakIndex: breakIndex, adIndex: adIndex)
        }
        breaks[breakIndex].ads[adIndex].ad.selection?.choose(rendition)
    }

    public mutating func markSkipped(breakIndex: Int, adIndex: Int) throws(AdPlanError) {
        try transition(breakIndex, adIndex, to: .skipped, error: nil)
    }

    public mutating func markFailed(breakIndex: Int, adIndex: Int, error: AdError) throws(AdPlanError) {
        try transition(breakIndex, adIndex, to: .failed, error: error)
    }

    /// Puts the break's next fallback right after its failed ad `adIndex`, available, so that it plays in the
    /// failed ad's place (VAST: a stand-alone ad replaces a pod ad that cannot play). The ads after it move one
    /// index up.
    ///
    /// - Returns: the index of the inserted ad, or `nil` when the break has no fallback left.
    /// - Throws: `noSuchAd`, or `notFailed` when the ad has not failed.
    @discardableResult
    public mutating func insertFallback(breakIndex b: Int, after adIndex: Int) throws(AdPlanError) -> Int? {
        guard breaks.indices.contains(b), breaks[b].ads.indices.contains(adIndex) else {
            throw .noSuchAd(breakIndex: b, adIndex: adIndex)
        }
        guard breaks[b].ads[adIndex].state == .failed else { throw .notFailed(breakIndex: b, adIndex: adIndex) }
        guard !breaks[b].fallbacks.isEmpty else { return nil }
        let fallback = breaks[b].fallbacks.removeFirst()
        breaks[b].ads.insert(PlannedAd(ad: fallback), at: adIndex + 1)
        return adIndex + 1
    }

    private mutating func transition(_ b: Int, _ a: Int, to state: AdState, error: AdError?) throws(AdPlanError) {
        guard breaks.indices.contains(b), breaks[b].ads.indices.contains(a) else {
            throw .noSuchAd(breakIndex: b, adIndex: a)
        }
        let from = breaks[b].ads[a].state
        guard from == .available else { throw .illegalTransition(breakIndex: b, adIndex: a, from: from, to: state) }
        breaks[b].ads[a].state = state
        breaks[b].ads[a].error = error
    }
}
