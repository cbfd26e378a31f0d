import AdDecisioning
import AdPlayback
import AdScreen
import Foundation
import MediaCore
import VideoPipeline

/// The media of a scene's player other than the primary one: its own content and ad media, and the picture it
/// shows. Its session is the director's (`Director.SceneSession`).
///
/// The stitcher steps it once per output frame, after the primary session, and draws its picture in its scene (or
/// its picture-in-picture window). It is muted (the output's audio is the primary player's), and once its session
/// has ended it holds its last frame until the primary session ends the render.
final class ScenePlayback {
    let scene: SceneID
    let content: MediaSource
    let media: AdMedia
    /// What it showed last; held (frozen) once the session has ended.
    private(set) var shown: Shown?

    /// The source its last decision showed and that source's picture.
    struct Shown {
        var source: MediaSource
        var picture: VideoPicture
    }

    /// Opens `player`'s content and the media of its ads.
    init(player: RenderRequest.ScenePlayer, format: OutputFormat, threads: Int, downloads: MediaDownloads,
         live: Bool) throws(RenderError) {
        scene = player.scene
        do { content = try MediaSource(path: player.contentPath, format: format, threads: threads) } catch {
            throw .content(error)
        }
        media = AdMedia(format: format, threads: threads, downloads: downloads, reportsWaits: live)
    }

    /// What its session must know of its content, played from its start.
    var sessionContent: SessionConfiguration.Content {
        SessionConfiguration.Content(frameCount: content.frameCount, aspect: content.displayAspect, earlyEnd: content.earlyEnd)
    }

    /// Decides (through `player`, its session in `director`) and fetches this player's next frame; an ad whose media
    /// fails is reported, and its session moves on, as the primary's does.
    func step(_ player: Director.SceneSession, of director: Director) throws(RenderError) {
        precondition(player.scene == scene, "a scene's media steps with its own session")
        while true {
            guard let decision = player.nextFrame() else { return }
            let source: MediaSource
            switch decision.source {
            case .content:
                source = content
                media.closeAll()
            case .ad(let ad, _):
                guard let opened = media.source(ad) else {
                    director.report(.adFailed(AdError(.mediaDisplay, "break \(ad.breakIndex) ad \(ad.adIndex): its media is not open")),
                                    player: scene)
                    continue
                }
                source = opened
            }
            do {
                shown = Shown(source: source, picture: try source.picture(atTick: decision.source.tick))
            } catch {
                guard case .ad(let ad, _) = decision.source else { throw .content(error) }
                media.close(ad)
                director.report(.adFailed(AdError(.mediaDisplay, "\(error)")), player: scene)
                continue
            }
            return
        }
    }
}
