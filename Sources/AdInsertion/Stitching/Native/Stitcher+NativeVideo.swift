import AdCore
import MediaCore
import VideoPipeline

extension Stitcher {
    /// What the media frame `rect` of card `card` of `placement` shows of its video at output frame `frame`:
    /// the video cropped to cover the frame (as images are), at tick `frame − s` of its own clock, where `s` is
    /// the output frame it started on (`NativeVideoStart`; tick 0 before that). It plays muted and holds its last
    /// frame once it has ended. A video that cannot play, or whose media fails part-way, shows the grey placeholder;
    /// the render goes on.
    func nativeVideo(_ tag: String, placement: String, card: Int, frame: Int64, in rect: PixelRect) -> [CompositorLayer] {
        let placeholder: [CompositorLayer] = [.color(Stitcher.nativePlaceholderColor, in: rect)]
        guard let native = nativeAds.pictures, case .success(let source)? = native.video(of: NativeVideoKey(placement: placement, card: card, tag: tag)) else {
            return placeholder
        }
        let time = format.frameRate.time(ofFrame: frame)
        let start = (native.ads?.outcome.videoStarts ?? []).last { $0.placement == placement && $0.card == card && $0.time <= time }
        let tick = start.map { frame - format.frameRate.firstFrame(atOrAfter: $0.time) } ?? 0
        guard let picture = try? source.picture(atTick: tick) else { return placeholder }
        return [.picture(picture, .crop, in: rect)]
    }
}
