import AdDecisioning
import AdPlayback
import Foundation
import MediaCore

/// What runs on a device: the screen and its scenes, the player and the ad placements of each scene, test mode
/// and a script; read from a session file (`--session`) or made from the command-line shortcuts.
///
/// One value for both, so that `--device`, `--orientation`, `--banner` and `--test-mode` are exactly a one-scene
/// session and every later step (loading the banners, drawing the scenes) reads the same thing.
public struct ScreenSession: Sendable {
    /// The content and ads a scene plays, as written (a relative path is resolved against the session's directory).
    public struct Player: Hashable, Sendable {
        public let scene: SceneID
        public let content: String
        /// A VMAP or VAST document, path or URL; `nil` for content without ads.
        public let ads: String?
    }

    /// The screen at the start; the primary player's scene is its first scene.
    public let screen: ScreenState
    public let testMode: Bool
    public let banners: [BannerPlacement]
    public let fullScreenAds: [FullScreenPlacement]
    /// The native placements (sliders and single native ads) of every scene, in the file's order.
    public let nativePlacements: [NativePlacement]
    /// The scenes that play content, in the file's order; the first is the primary player (the output's audio,
    /// the timeline's segments, the render's length).
    public let players: [Player]
    /// The primary player; `nil` when no scene has a player.
    public var player: Player? { players.first }
    /// The session's script (script syntax, commands separated by `;` or new lines); `nil` for none.
    public let script: String?
    /// A URL map file (as `--url-map`) for the session's ad requests; `nil` for none.
    public let urlMap: String?
    /// The directory relative paths are read from.
    public let directory: String

    public init(screen: ScreenState, testMode: Bool = false, banners: [BannerPlacement] = [],
                fullScreenAds: [FullScreenPlacement] = [], nativePlacements: [NativePlacement] = [], players: [Player] = [],
                script: String? = nil, urlMap: String? = nil, directory: String = FileManager.default.currentDirectoryPath) {
        self.nativePlacements = nativePlacements
        self.urlMap = urlMap
        self.screen = screen
        self.testMode = testMode
        self.banners = banners
        self.fullScreenAds = fullScreenAds
        self.players = players
        self.script = script
        self.directory = directory
    }

    /// The session the command-line shortcuts describe: one scene, `main`, full screen, with a banner from
    /// `banner` (a `CreativeSource(argument:)` value) when given, laid out `bannerLayout` (`below` by default: the
    /// content ends where the banner begins, as the AdMob banner guide lays it out).
    public static func oneScene(device: Device, orientation: Orientation? = nil, pointScale: PointScale? = nil,
                                banner: String? = nil, bannerLayout: BannerLayout = .below, testMode: Bool = false) -> ScreenSession {
        let screen = ScreenState(device: device, orientation: orientation ?? Device.naturalOrientation(of: device.name),
                                 scenes: [ScreenState.Scene(id: "main", banner: banner.map { _ in bannerLayout })], pointScale: pointScale)
        return ScreenSession(screen: screen, testMode: testMode,
                             banners: banner.map { [BannerPlacement(scene: "main", source: CreativeSource(argument: $0))] } ?? [])
    }

    /// The scenes with a content player: each player's, or (the command line's one scene) the first scene's.
    public var playerScenes: [SceneID] { players.isEmpty ? [screen.scenes[0].id] : players.map(\.scene) }

    /// `path` resolved against the session's directory, unless it is absolute or a URL.
    public func resolved(_ path: String) -> String {
        if path.hasPrefix("/") || path.contains("://") { return path }
        return URL(fileURLWithPath: directory).appendingPathComponent(path).path
    }

    /// Where `player`'s content is: its path resolved against the session's directory.
    public func contentPath(of player: Player) -> String { resolved(player.content) }

    /// Where `player`'s ads come from: an `http(s)` URL as written, else a path resolved against the session's
    /// directory; `nil` for a player without ads.
    public func adSource(of player: Player) -> AdSource? {
        player.ads.map { text -> AdSource in
            let lower = text.lowercased()
            if lower.hasPrefix("http://") || lower.hasPrefix("https://"), let url = URL(string: text) {
                return .document(url.absoluteString)
            }
            return .document(resolved(text))
        }
    }

    /// The run of the session's banners and full-screen ads, fetched with `settings` before the render; the
    /// screen commands of `script` drive the reloads.
    public func loadAds(script: SessionScript, settings: AdsLoaderSettings,
                        clockOrigin: Date = BeaconClock.defaultOrigin) async throws(ScreenAdError) -> ScreenAdRun {
        try await ScreenAdRun.load(screen: screen, script: script, banners: banners, fullScreenAds: fullScreenAds,
                                   testMode: testMode, loader: ScreenAdLoader(settings: settings, directory: directory),
                                   clockOrigin: clockOrigin, playerScenes: Set(playerScenes))
    }
}
