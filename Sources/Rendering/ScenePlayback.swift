import AdDecisioning
import AdPlayback
import AdScreen
import Foundation
import MediaCore
import VideoPipeline

/// The media of a scene's player other than the primary one: its own content and ad media, and the picture it
/// shows. Its session is the director's, which decides its frames.
///
/// The stitcher fetches the picture of each decision the director makes for it (`DirectedFrame.others`), and draws
/// it in its scene (or its picture-in-picture window). It is muted (the output's audio is the primary player's), and once its session
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

    /// Fetches the picture of `source`, what its session decided for this frame.
    ///
    /// - Returns: why the picture of an ad cannot be shown (its media is closed), for its session, which decides the
    ///   frame again; `nil` once the picture is fetched.
    /// - Throws: `RenderError.content` when its content's picture cannot be read.
    func show(_ source: FrameDecision.Source) throws(RenderError) -> AdError? {
        let opened: MediaSource
        switch source {
        case .content:
            opened = content
            media.closeAll()
        case .ad(let ad, _):
            guard let ready = media.source(ad) else {
                return AdError(.mediaDisplay, "break \(ad.breakIndex) ad \(ad.adIndex): its media is not open")
            }
            opened = ready
        }
        do {
            shown = Shown(source: opened, picture: try opened.picture(atTick: source.tick))
        } catch {
            guard case .ad(let ad, _) = source else { throw .content(error) }
            media.close(ad)
            return AdError(.mediaDisplay, "\(error)")
        }
        return nil
    }
}
