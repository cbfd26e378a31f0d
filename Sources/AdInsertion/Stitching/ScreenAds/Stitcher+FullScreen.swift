import AdCore
import MediaCore
import VideoPipeline

extension Stitcher {
    /// What a presented full-screen ad draws over its scene's window, bottom first, and its timeline layer; `nil`
    /// when its present failed (the content plays on, uncovered).
    ///
    /// An image is fitted over black; a video plays from its first frame at the frame it presented on (tick 0 then,
    /// on its own clock, by the frame-rate rule) and holds its last frame once it has ended, until the dismiss.
    /// Without loaded creatives (`--device` alone) the model's layer is a placeholder colour.
    func fullScreenLayers(_ layer: ScreenLayer, frame: Int64) throws(MediaError) -> (layers: [CompositorLayer], timeline: Timeline.Layer)? {
        let rect = Timeline.Rect(layer.rect), scene = layer.scene.rawValue
        guard let screenAds else {
            return ([.color(Stitcher.fullScreenColor, in: layer.rect)],
                    Timeline.Layer(kind: .fullscreen, scene: scene, rect: rect, source: nil))
        }
        guard let shown = screenAds.run.presentation(of: layer.scene, at: format.frameRate.time(ofFrame: frame)) else { return nil }
        if let video = screenAds.videoSources[shown.request] {
            let tick = frame - format.frameRate.firstFrame(atOrAfter: shown.from)
            var shownLayer = Timeline.Layer(kind: .fullscreen, scene: scene, rect: rect, source: video.path)
            shownLayer.srcStartTick = tick
            return ([.color(.black, in: layer.rect), .picture(try video.picture(atTick: tick), .letterbox, in: layer.rect)],
                    shownLayer)
        }
        guard let image = screenAds.fullScreenImage(request: shown.request) else { return nil }
        return ([.color(.black, in: layer.rect), .picture(try image.source.picture(atTick: frame % image.source.frameCount), .letterbox, in: layer.rect)],
                Timeline.Layer(kind: .fullscreen, scene: scene, rect: rect, source: image.url))
    }

    /// The video full-screen ad covering the player's scene at `decision`'s frame, with the output frame it
    /// started on: its sound replaces the paused player's.
    func playerCover(_ decision: FrameDecision) -> (source: MediaSource, start: Int64)? {
        guard let scene = decision.playerScene, let screenAds,
              let shown = screenAds.run.presentation(of: scene, at: format.frameRate.time(ofFrame: decision.frame)),
              let video = screenAds.videoSources[shown.request] else { return nil }
        return (video, format.frameRate.firstFrame(atOrAfter: shown.from))
    }
}
