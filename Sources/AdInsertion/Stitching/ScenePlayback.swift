import AdCore
import AdDecisioning
import Foundation
import MediaCore
import VideoPipeline

/// A scene's player other than the primary one: its own content, ad media and `PlaybackSession`, playing in its
/// own scene's window of the same screen.
///
/// The stitcher steps it once per output frame, after the primary session, and draws its picture in its scene (or
/// its picture-in-picture window). It is muted (the output's audio is the primary player's), and once its session
/// has ended it holds its last frame until the primary session ends the render.
final class ScenePlayback {
    let scene: SceneID
    let session: PlaybackSession
    private let content: MediaSource
    private let media: AdMedia
    /// What it showed last; held (frozen) once the session has ended.
    private(set) var shown: Shown?

    /// One frame of this player: the decision, the source it shows and that source's picture.
    struct Shown {
        var decision: FrameDecision
        var source: MediaSource
        var picture: VideoPicture
        /// The session has ended: this is its last frame again.
        var held: Bool

        /// Its layer in the timeline: the source and tick on screen, whether frozen, and the ad playing.
        func timelineLayer(kind: Timeline.Layer.Player.Kind, scene: SceneID, rect: PixelRect) -> Timeline.Layer {
            var ad: AdReference?
            if case .ad(let reference, _) = decision.source { ad = reference }
            return .player(.init(kind, .init(scene: scene, rect: rect), source: source.path,
                                 playing: .init(srcStartTick: decision.source.tick, paused: decision.isPaused || held, ad: ad)))
        }
    }

    /// Opens `player`'s content and creates its session with the primary's `base` configuration, moved to its
    /// scene; screen commands are applied without being logged again.
    init(player: RenderRequest.ScenePlayer, base: SessionConfiguration, format: OutputFormat, threads: Int,
         downloads: MediaDownloads, slot: PictureInPictureSlot, live: Bool) throws(RenderError) {
        scene = player.scene
        do { content = try MediaSource(path: player.contentPath, format: format, threads: threads) } catch {
            throw .content(error)
        }
        media = AdMedia(format: format, threads: threads, downloads: downloads, reportsWaits: live)
        var configuration = base
        configuration.contentFrameCount = content.frameCount
        configuration.contentAspect = content.displayAspect
        configuration.contentEarlyEnd = content.earlyEnd
        configuration.contentStart = .zero
        configuration.playerScene = player.scene
        configuration.logsScreen = false
        do { session = try PlaybackSession(plan: player.plan, configuration: configuration, media: media, appDelegate: nil) } catch {
            throw .session("\(player.contentPath): \(error)")
        }
        session.pictureInPictureSlot = slot
    }

    /// Decides and fetches this player's next frame; an ad whose media fails is reported to its session, which
    /// moves on, as the primary's are.
    func step() throws(RenderError) {
        while true {
            guard let decision = session.nextFrame() else {
                shown?.held = true
                return
            }
            let source: MediaSource
            switch decision.source {
            case .content:
                source = content
                media.closeAll()
            case .ad(let ad, _):
                guard let opened = media.source(ad) else {
                    session.report(.adFailed(AdError(.mediaDisplay, "break \(ad.breakIndex) ad \(ad.adIndex): its media is not open")))
                    continue
                }
                source = opened
            }
            do {
                shown = Shown(decision: decision, source: source, picture: try source.picture(atTick: decision.source.tick),
                              held: false)
            } catch {
                guard case .ad(let ad, _) = decision.source else { throw .content(error) }
                media.close(ad)
                session.report(.adFailed(AdError(.mediaDisplay, "\(error)")))
                continue
            }
            return
        }
    }

    /// Its events since the last call, with `AD_BUFFERING` before each ad it waited for (and a `LOG` before each
    /// whose cache entry was dropped).
    func drainEvents() -> [SessionEvent] {
        Stitcher.insertingMediaNotes(of: media, into: session.drainEvents())
    }
}
