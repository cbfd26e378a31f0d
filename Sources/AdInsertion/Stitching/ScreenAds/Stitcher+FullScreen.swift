import AdCore
import MediaCore
import VideoPipeline

extension Stitcher {
    /// What a presented full-screen ad draws over its scene's window, bottom first, and its timeline layer; `nil`
    /// when its present failed (the content plays on, uncovered).
    ///
    /// An image is fitted over black; a video plays from its first frame at the frame it presented on (tick 0 then,
    /// on its own clock, by the frame-rate rule) and holds its last frame once it has ended, until the dismiss.
    /// A video whose media fails part-way (a truncated file) is not drawn, and the failure is kept in `mediaReports`
    /// for the frame to report rather than stopping the render: it is dismissed at this frame with the error, and
    /// the session decides this frame again, which shows the content playing on. Without loaded creatives (`--device` alone) the model's layer is a placeholder colour.
    func fullScreenLayers(_ layer: ScreenLayer, frame: Int64) throws(MediaError) -> (layers: [CompositorLayer], timeline: Timeline.Layer)? {
        let area = Timeline.Layer.Area(scene: layer.scene, rect: layer.rect)
        guard let screenAdPictures = screenAds.pictures else {
            return ([.color(Stitcher.fullScreenColor, in: layer.rect)], .fullScreen(area, .placeholder))
        }
        let time = format.frameRate.time(ofFrame: frame)
        guard let shown = session.screenAdPlayback?.presentation(of: layer.scene, at: time) else { return nil }
        if let video = screenAdPictures.videoSources[shown.request] {
            let tick = frame - format.frameRate.firstFrame(atOrAfter: shown.from)
            let picture: VideoPicture
            do throws(MediaError) { picture = try video.picture(atTick: tick) } catch {
                let text = "\(error)", prefix = video.path + ": "
                let detail = text.hasPrefix(prefix) ? String(text.dropFirst(prefix.count)) : text
                mediaReports.append(.fullScreenVideoFailed(scene: layer.scene, at: time, error: .mediaUnavailable(source: video.path, detail: detail)))
                return nil
            }
            return ([.color(.black, in: layer.rect), .picture(picture, .letterbox, in: layer.rect)],
                    .fullScreen(area, .video(source: video.path, srcStartTick: tick)))
        }
        guard let image = screenAdPictures.fullScreenImage(request: shown.request) else { return nil }
        return ([.color(.black, in: layer.rect), .picture(try image.source.picture(atTick: frame % image.source.frameCount), .letterbox, in: layer.rect)],
                .fullScreen(area, .image(source: image.url)))
    }

    /// A video full-screen ad over the player's scene: its source, the output frame it started on and the request
    /// that loaded it. Its sound replaces the paused player's.
    struct PlayerCover {
        var source: MediaSource
        var start: Int64
        var request: Int
        var scene: SceneID
    }

    /// The video full-screen ad covering the player's scene at `decision`'s frame; `nil` when there is none.
    func playerCover(_ decision: FrameDecision) -> PlayerCover? {
        guard let scene = decision.playerScene, let screenAdPictures = screenAds.pictures,
              let shown = session.screenAdPlayback?.presentation(of: scene, at: format.frameRate.time(ofFrame: decision.frame)),
              let video = screenAdPictures.videoSources[shown.request] else { return nil }
        return PlayerCover(source: video, start: format.frameRate.firstFrame(atOrAfter: shown.from), request: shown.request,
                           scene: scene)
    }

    /// Reads the covering video's sound for output frame `frame` into `audio`, brought to the ads' loudness in a
    /// normalised render (measured once, the first time it covers): silence where its media fails, or its sound
    /// cannot be measured (the picture's failure dismisses it; the sound must not stop the render first, nor play
    /// at a loudness the render did not set).
    func readCoverAudio(_ cover: PlayerCover, frame: Int64, count: Int, into audio: AudioBuffer) {
        let clock = format.sampleClock
        do throws(MediaError) {
            try sound.normaliser?.prepare(cover.source, fullScreen: cover.request, scene: cover.scene, frame: cover.start)
            _ = try cover.source.readAudio(from: clock.sample(atFrame: frame) - clock.sample(atFrame: cover.start),
                                           count: count, into: audio)
        } catch {
            audio.fill(count: count) { _, _ in 0 }
        }
    }

    /// Hands the screen ads' playback to the session and every other player: the full-screen ads that cover
    /// them, script and live alike, come from it.
    func attachScreenAdPlayback() {
        guard let screenAdPictures = screenAds.pictures else { return }
        let playback = ScreenAdPlayback(run: screenAdPictures.run)
        session.screenAdPlayback = playback
        for player in players.all { player.session.screenAdPlayback = playback }
    }
}
