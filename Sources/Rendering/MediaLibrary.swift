import AdPlayback
import AdScreen
import Foundation
import MediaCore
import VideoPipeline

/// Every source of a render's pictures besides the primary player's content: its ads' media (`AdMedia`), the other
/// scenes' players, the picture-in-picture backdrop, the screen ads' pictures and the native placements' pictures.
/// The renderer resolves each of a frame plan's media references here, and the director asks it what opened
/// (`FrameMediaCatalog`): a creative counts only if it opened. In `play` the director hands it what arrives live.
final class MediaLibrary: FrameMediaCatalog {
    /// The primary player's ads, opened as its session starts them.
    let ads: AdMedia
    /// The other scenes' players (`request.players`), in scene order: their media and the picture each shows.
    var players: [ScenePlayback] = []
    let background: MediaSource?
    let screenAds: ScreenAdPictures?
    let native: NativePictures?
    /// The output's rate: a banner's reference names its output frame.
    let rate: FrameRate

    init(ads: AdMedia, background: MediaSource?, screenAds: ScreenAdPictures?, native: NativePictures?, rate: FrameRate) {
        self.ads = ads
        self.background = background
        self.screenAds = screenAds
        self.native = native
        self.rate = rate
    }

    /// What a reference found.
    enum Found {
        case picture(VideoPicture)
        /// Nothing to draw: not opened, or a card's video that cannot play (its placeholder is drawn).
        case missing
        /// A full-screen video that failed part-way: nothing is drawn, and the report goes to the director.
        case failed(MediaReport)
    }

    /// The picture `reference` names at output frame `frame`, drawn in `scene`. A player's picture is the renderer's
    /// own (`missing` here).
    func picture(_ reference: MediaReference, frame: Int64, scene: SceneID?) throws(MediaError) -> Found {
        let found: VideoPicture?
        switch reference {
        case .player, .recorded:
            // A player's picture is the player's own; a timeline's record is verify's to read.
            found = nil
        case .pictureInPictureBackground(let frame):
            guard let background else { return .missing }
            found = try background.picture(atTick: frame % background.frameCount)
        case .banner(let scene, let frame):
            guard let loaded = screenAds?.banner(of: scene, at: rate.time(ofFrame: frame)) else { return .missing }
            found = try loaded.source.picture(atTick: frame % loaded.source.frameCount)
        case .fullScreenImage(let request, let frame):
            guard let image = screenAds?.fullScreenImage(request: request) else { return .missing }
            found = try image.source.picture(atTick: frame % image.source.frameCount)
        case .fullScreenVideo(let request, let tick):
            guard let video = screenAds?.videoSources[request] else { return .missing }
            do throws(MediaError) { found = try video.picture(atTick: tick) } catch {
                let text = "\(error)", prefix = video.path + ": "
                let detail = text.hasPrefix(prefix) ? String(text.dropFirst(prefix.count)) : text
                guard let scene else { return .missing }
                return .failed(.fullScreenVideoFailed(scene: scene, at: rate.time(ofFrame: frame),
                                                      error: .mediaUnavailable(source: video.path, detail: detail)))
            }
        case .nativeImage(let url):
            found = try native?.image(url)?.picture(atTick: 0)
        case .nativeVideo(let placement, let card, let tag, let tick):
            guard case .success(let source)? = native?.video(of: NativeVideoKey(placement: placement, card: card, tag: tag)) else {
                return .missing
            }
            found = try? source.picture(atTick: tick)
        }
        return found.map(Found.picture) ?? .missing
    }

    /// The player of `scene`, one of the other scenes'.
    func player(_ scene: SceneID) -> ScenePlayback {
        guard let player = players.first(where: { $0.scene == scene }) else { preconditionFailure("no player in scene \(scene)") }
        return player
    }

    // MARK: - FrameMediaCatalog

    func bannerSource(of scene: SceneID, at time: MediaTime) -> String? {
        screenAds?.banner(of: scene, at: time)?.url
    }

    func fullScreenCreative(request: Int) -> LoadedFullScreen? {
        guard let screenAds else { return nil }
        if let video = screenAds.videoSources[request] { return .video(source: video.path) }
        return screenAds.fullScreenImage(request: request).map { .image(source: $0.url) }
    }

    func nativeImage(_ url: String) -> LoadedImage? {
        guard let native, native.image(url) != nil else { return nil }
        return LoadedImage(source: native.origin(of: url))
    }

    func playerSource(of scene: SceneID) -> String? {
        players.first { $0.scene == scene }?.shown?.source.path
    }

    func openFullScreen(_ creative: DisplayCreative, request: Int) -> FullScreenVideoOutcome? {
        screenAds?.openLive(creative, request: request)
    }

    func showBanner(_ creative: DisplayCreative?, in scene: SceneID, from time: MediaTime) throws(ScreenAdError) {
        try screenAds?.showLive(creative, in: scene, from: time)
    }

    func addNativeImages(_ images: [String: Data], origins: [String: String]) {
        native?.add(images, origins: origins)
    }
}
