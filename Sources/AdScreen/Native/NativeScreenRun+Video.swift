import AdPlayback
import MediaCore

/// The moment a video asset starts playing in its card, on the output clock.
///
/// It autoplays, muted, as the SDKs' native video does (IMA's and Yandex's autoplay when the ad is visible): at the
/// first output frame on which at least half of its media frame is inside the slider's viewport and its scene's
/// window (with nothing the scene presents over it). From then on its own clock runs with the output's, scrolled
/// away or not; a block loaded again starts its videos again.
public struct NativeVideoStart: Hashable, Sendable {
    public var time: MediaTime
    public var placement: String
    public var scene: SceneID
    /// The card's index in the response's `ads`, and its ad id.
    public var card: Int
    public var ad: String
    /// The video asset's `vastTag` (the key of `NativeAds.videos`).
    public var vastTag: String
}

extension NativeScreenRun.Evaluation {
    /// Starts the video of each card of placement `p` whose media frame is at least half visible at `t`.
    mutating func startVideos(_ p: Int, _ layout: NativeSliderLayout, offset: Rational, window: PointRect?, at t: MediaTime) {
        guard let window, let block = sliders[p].block else { return }
        for (row, card) in layout.cards.enumerated() where !counted.videoStarted.contains([p, card.index]) {
            guard let media = card.layout.frames.first(where: { $0.slot == .media }), let asset = media.asset,
                  case .video(let tag) = block.ads[card.index].assets[asset].content,
                  layout.visibleFraction(row, of: media.rect, offset: offset, within: window) * Rational(2) >= .one else { continue }
            counted.videoStarted.insert([p, card.index])
            let placement = run.placements[p]
            videoStarts.append(NativeVideoStart(time: t, placement: placement.id, scene: placement.scene, card: card.index,
                                                ad: card.ad, vastTag: tag))
        }
    }
}
