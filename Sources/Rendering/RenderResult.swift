import AdDecisioning
import AdPlayback
import MediaCore
import VideoPipeline

/// What a finished render produced.
public struct RenderResult: Sendable {
    public var timeline: Timeline
    /// The plan with the final state of every ad.
    public var plan: AdPlan
    /// The inputs whose frames stopped before their declared duration: the content first, then the ads played.
    public var earlyEnds: [InputEarlyEnd] = []
    /// Mid-rolls cued after the content's real end, which it never reached (`AD_BREAK_SKIPPED` `contentEnded`).
    public var breaksNotReached: [Int] = []
    /// Why `--passthrough auto` encoded every frame; `nil` when it copied, or was not asked to.
    public var passthroughRefusal: PassthroughRefusal?
    /// In passthrough, what became of each ad's pictures (those shown whole, on their own, at least once).
    public var passthroughAds: [AdReference: PassthroughAd] = [:]
    /// In passthrough, what limited the copying of the content (open GOPs).
    public var passthroughNotes: [String] = []
    /// In passthrough, what became of the sound.
    public var passthroughSound: PassthroughSound?
}

/// What a passthrough render did with the sound.
public enum PassthroughSound: Hashable, Sendable {
    /// AAC packets copied (the content's, and those of ads with sound in the output's format), and encoded (other
    /// ads', and a few either side of each splice).
    case copied(packets: Int, encoded: Int)
    /// Every packet encoded, and why.
    case encoded(CopyRefusal)
}

/// An input of a render that ended before its declared duration: the content (`ad` is `nil`) or one ad.
public struct InputEarlyEnd: Hashable, Sendable {
    public var ad: AdReference?
    public var earlyEnd: EarlyEnd
}
