import MediaCore

/// Choices that shape which breaks play, after IMA's `IMAAdsRenderingSettings`.
public struct AdsRenderingSettings: Hashable, Sendable {
    /// Which mid-rolls play when a seek jumps over several (a start position passes them all).
    public enum SeekPolicy: String, Hashable, Sendable, CaseIterable {
        /// Only the last one jumped over, as IMA does.
        case last
        /// Every one, in cue order.
        case all
        /// None.
        case none
    }

    /// Only breaks cued strictly after this content time play (the pre-roll is cued at 0, the post-roll at the
    /// content's end); `nil` plays every break.
    public var playAdsAfterTime: MediaTime?
    public var seekPolicy: SeekPolicy
    public var playsPrerolls: Bool
    public var playsMidrolls: Bool
    public var playsPostrolls: Bool

    public init(playAdsAfterTime: MediaTime? = nil, seekPolicy: SeekPolicy = .last, playsPrerolls: Bool = true,
                playsMidrolls: Bool = true, playsPostrolls: Bool = true) {
        self.playAdsAfterTime = playAdsAfterTime
        self.seekPolicy = seekPolicy
        self.playsPrerolls = playsPrerolls
        self.playsMidrolls = playsMidrolls
        self.playsPostrolls = playsPostrolls
    }
}
