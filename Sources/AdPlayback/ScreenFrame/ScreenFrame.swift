import MediaCore

/// What the screen shows at one moment, in output pixels: the display, the scenes and their layers, bottom first.
public struct ScreenFrame: Hashable, Sendable {
    /// A scene on screen: its window and safe area in output pixels, its activation state, and how its content
    /// shares the window with its banner when it has one.
    public struct Scene: Hashable, Sendable {
        public let id: SceneID
        public let rect: PixelRect
        public let safeArea: PixelRect
        public let state: SceneActivationState
        public let banner: BannerLayout?

        package init(id: SceneID, rect: PixelRect, safeArea: PixelRect, state: SceneActivationState, banner: BannerLayout?) {
            self.id = id
            self.rect = rect
            self.safeArea = safeArea
            self.state = state
            self.banner = banner
        }
    }

    public let pointScale: PointScale
    /// The active display in the canvas; the rest of the canvas is bezel.
    public let display: PixelRect
    public let scenes: [Scene]
    /// The screen model's layers (each scene's `content`, `banner`, `fullscreen`, `overlay`), bottom first.
    public let layers: [ScreenLayer]

    package init(pointScale: PointScale, display: PixelRect, scenes: [Scene], layers: [ScreenLayer]) {
        self.pointScale = pointScale
        self.display = display
        self.scenes = scenes
        self.layers = layers
    }

    /// The window of `scene`'s `content` layer: where its player draws; `nil` when the scene is off screen.
    public func window(of scene: SceneID) -> PixelRect? {
        layers.first { $0.scene == scene && $0.kind == .content }?.rect
    }

    /// Where `scene`'s picture-in-picture window may float: its player's window inside the scene's safe area (clear
    /// of the status bar, the island and the home indicator), and above the scene's banner when it has one, as
    /// the system keeps the floating window off the app's anchored views. `nil` when the scene is off screen.
    public func pictureInPictureBounds(of scene: SceneID) -> PixelRect? {
        guard let window = window(of: scene), let safe = scenes.first(where: { $0.id == scene })?.safeArea else { return nil }
        var bounds = window.intersection(safe)
        if let banner = layers.first(where: { $0.scene == scene && $0.kind == .banner })?.rect,
           banner.intersection(bounds).width > 0, banner.intersection(bounds).height > 0 {
            bounds.height = max(0, banner.y - bounds.y)
        }
        return bounds
    }
}

/// A scene's activation state, as `UIScene.ActivationState` names them.
public enum SceneActivationState: String, Hashable, Sendable, CaseIterable, Codable {
    /// On screen and receiving events: the scene the user last touched.
    case foregroundActive
    /// On screen but not the active one (the other half of a Split View).
    case foregroundInactive
    /// Not on screen.
    case background
}
