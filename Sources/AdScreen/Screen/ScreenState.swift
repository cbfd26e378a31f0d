import AdPlayback
import MediaCore

/// The device and its scenes at one moment: orientation, fold state, which scenes are on screen where, which one
/// is active, and what each scene has presented.
///
/// A value changed only by `apply(_:)`, which checks each command against the state and returns the events the
/// change produces, so that a script replays to the same states and the layout is a pure function of the state.
public struct ScreenState: Hashable, Sendable {
    /// What a scene of the app holds besides its frame.
    public struct Scene: Hashable, Sendable {
        public let id: SceneID
        /// How the scene's anchored adaptive banner shares its window; `nil`: the scene has no banner placement.
        public let banner: BannerLayout?
        /// Whether the scene has an anchored adaptive banner placement.
        public var hasBanner: Bool { banner != nil }
        /// The height in points of the scene's player, which then sits at the top of the safe area across its
        /// width (a feed's video, with native ads below it); `nil`: the player fills the window.
        public let playerHeight: Int?
        /// What covers the scene's window now, if anything.
        public internal(set) var presentation: ScenePresentation?
        /// The size the banner was last requested for; `nil` before the first request.
        public internal(set) var bannerLoadedSize: PointSize?

        public init(id: SceneID, banner: BannerLayout?, playerHeight: Int? = nil) {
            self.id = id
            self.banner = banner
            self.playerHeight = playerHeight
        }

        /// A scene whose banner, when it has one, is drawn over its content (`overlay`).
        public init(id: SceneID, hasBanner: Bool = false, playerHeight: Int? = nil) {
            self.init(id: id, banner: hasBanner ? .overlay : nil, playerHeight: playerHeight)
        }
    }

    public let device: Device
    public let pointScale: PointScale
    public internal(set) var orientation: Orientation
    public internal(set) var fold: FoldState
    public internal(set) var arrangement: SceneArrangement
    /// Every scene of the app, in the order declared.
    public internal(set) var scenes: [Scene]
    /// The scene that receives events; always on screen.
    public internal(set) var activeScene: SceneID

    /// A screen whose scenes start as `arrangement` (by default: one scene full screen; two or more on a device
    /// with multitasking, the first two in Split View 1/2), the first scene on screen active.
    ///
    /// Banners are not loaded yet: the first `loadBanners()` requests them.
    public init(device: Device, orientation: Orientation = .portrait, fold: FoldState = .unfolded,
                scenes: [Scene], arrangement: SceneArrangement? = nil, pointScale: PointScale? = nil) {
        precondition(!scenes.isEmpty, "a screen has at least one scene")
        precondition(Set(scenes.map(\.id)).count == scenes.count, "scene names are unique")
        self.device = device
        self.pointScale = pointScale ?? .default(for: device)
        self.orientation = orientation
        self.fold = device.isFoldable ? fold : .unfolded
        self.scenes = scenes
        let chosen = arrangement ?? (scenes.count >= 2 && device.supportsMultipleScenes
            ? .split(leading: scenes[0].id, trailing: scenes[1].id, .half) : .fullScreen(scenes[0].id))
        precondition(chosen.scenesOnScreen.allSatisfy { id in scenes.contains { $0.id == id } },
                     "the arrangement names declared scenes")
        self.arrangement = chosen
        self.activeScene = chosen.scenesOnScreen[0]
    }

    /// The display that is on.
    public var display: Display { device.activeDisplay(fold) }
    /// The active display's size in points in the current orientation: "the screen" of the banner rule.
    public var screenSize: PointSize { display.size(in: orientation) }

    /// Each scene on screen with its frame and safe area, bottom first.
    public var sceneLayouts: [SceneLayout] {
        arrangement.layout(displaySize: screenSize, displayInsets: display.safeArea(in: orientation))
    }

    /// The layout of `scene`, or `nil` when it is off screen.
    public func layout(of scene: SceneID) -> SceneLayout? { sceneLayouts.first { $0.id == scene } }

    /// Each scene's activation state: the active scene `foregroundActive`, the others on screen
    /// `foregroundInactive`, the rest `background`.
    public func activationState(of scene: SceneID) -> SceneActivationState {
        if scene == activeScene { return .foregroundActive }
        return arrangement.scenesOnScreen.contains(scene) ? .foregroundInactive : .background
    }

    /// The anchored adaptive banner's frame in `scene`, when the scene has one and is on screen.
    public func bannerFrame(of scene: SceneID) -> PointRect? {
        guard self.scene(scene)?.hasBanner == true, let layout = layout(of: scene) else { return nil }
        return AnchoredAdaptiveBanner.frame(in: layout, screenHeight: screenSize.height)
    }

    /// The part of `layout`'s window its content may use, in points: the window, which ends where the banner begins
    /// when the scene's banner is laid out `below` the content. The player, and the native placements that scroll
    /// with the content, are cut by it; nothing of the content is under such a banner.
    public func contentFrame(of layout: SceneLayout) -> PointRect {
        var frame = layout.frame
        if scene(layout.id)?.banner == .below, let banner = bannerFrame(of: layout.id) {
            frame.height = max(0, min(frame.height, banner.y - frame.y))
        }
        return frame
    }

    /// Where `layout`'s scene draws its player, in points: the window, or with a `playerHeight` the top of the safe
    /// area, as tall as that or the safe area, whichever is less; cut by the content frame (`contentFrame(of:)`).
    public func playerFrame(of layout: SceneLayout) -> PointRect {
        var frame = layout.frame
        if let height = scene(layout.id)?.playerHeight {
            frame = layout.safeFrame
            frame.height = min(frame.height, height)
        }
        let content = contentFrame(of: layout)
        frame.height = max(0, min(frame.height, content.maxY - frame.y))
        return frame
    }

    func scene(_ id: SceneID) -> Scene? { scenes.first { $0.id == id } }
}
