import AdPlayback
import Foundation
import MediaCore

/// What the loaders fetched before a render, as the planner asks it without opening anything: each banner and
/// full-screen creative of the screen ads' run, each native image fetched, and the file each other player shows
/// (its content). Every fetched creative counts as
/// drawable (its header was checked when it was fetched); the renderer, which opens them, answers for what really
/// opened instead (`Stitcher`).
///
/// It lets the media-free side plan a whole render frame by frame, without FFmpeg: the planning tests, and any
/// tool that wants a render's layout before its media.
public struct FetchedCreatives: FrameMediaCatalog {
    public let screenAds: ScreenAdRun?
    public let native: NativeAds?
    /// The file each other player shows, by scene; a player without one is not drawn.
    public let players: [SceneID: String]

    public init(screenAds: ScreenAdRun?, native: NativeAds?, players: [SceneID: String] = [:]) {
        self.screenAds = screenAds
        self.native = native
        self.players = players
    }

    public func bannerSource(of scene: SceneID, at time: MediaTime) -> String? {
        guard let creative = screenAds?.bannerCreative(of: scene, at: time), case .image = creative.content else { return nil }
        return creative.origin
    }

    public func fullScreenCreative(request: Int) -> LoadedFullScreen? {
        guard let creative = screenAds?.fullScreenChanges.first(where: { $0.request == request })?.creative else { return nil }
        switch creative.content {
        case .image: return .image(source: creative.origin)
        case .video: return .video(source: creative.origin)
        }
    }

    public func nativeImage(_ url: String) -> LoadedImage? {
        guard let native, native.images[url] != nil else { return nil }
        return LoadedImage(source: native.imageSources[url])
    }

    public func playerSource(of scene: SceneID) -> String? { players[scene] }

    // Nothing arrives live in a render planned ahead: a creative counts as what it declares.

    public func openFullScreen(_ creative: DisplayCreative, request: Int) -> FullScreenVideoOutcome? {
        guard case .video(let location, let duration) = creative.content else { return nil }
        return duration.map { .success($0) }
            ?? .failure(.mediaUnavailable(source: location.description, detail: "its length is not known without opening it"))
    }

    public func showBanner(_ creative: DisplayCreative?, in scene: SceneID, from time: MediaTime) throws(ScreenAdError) {}

    public func addNativeImages(_ images: [String: Data], origins: [String: String]) {}
}
