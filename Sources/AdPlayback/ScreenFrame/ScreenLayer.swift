import MediaCore

/// One rectangle the compositor draws: whose it is, what it shows, and where, in output pixels.
public struct ScreenLayer: Hashable, Sendable {
    /// What a layer shows; the timeline's `layers[].kind`.
    public enum Kind: String, Hashable, Sendable, CaseIterable, Codable {
        /// A scene's player (or background) showing the content.
        case content
        /// A scene's player showing a linear ad (contributed by the ads manager).
        case ad
        /// The picture-in-picture window (contributed by the PiP controller).
        case pip
        /// An anchored adaptive banner.
        case banner
        /// A full-screen ad covering its scene's window.
        case fullscreen
        /// A banner's landing screen covering its scene's window.
        case overlay
        /// A native slider's frame (its background, or its placeholder while the block loads).
        case slider
        /// A card of a slider (the timeline layer carries its `index` and `adId`).
        case card
        /// A single native ad (`style: single`), with the same fields.
        case native
        /// The Split View divider between two scenes (the system's, drawn as a dark bar; its scene is the trailing one).
        case divider
        /// A Slide Over window's edge: the rounded rim the system draws along its leading side, over the scene below.
        case edge
        /// A Slide Over window's soft shadow over the scene below: its rectangle is the part of the display it may
        /// darken, and the layer's `shadow` says what casts it.
        case shadow

        /// Whether the system draws the layer, not the app: a tap passes through it to the scene under it.
        public var isSystemChrome: Bool { self == .divider || self == .edge || self == .shadow }
    }

    /// What casts a `shadow` layer and how far it reaches, in output pixels.
    public struct Shadow: Hashable, Sendable {
        /// The rounded rectangle that casts it (a Slide Over window with its edge).
        public let caster: PixelRect
        /// The caster's corner radius.
        public let radius: Int
        /// How far beyond the caster the shadow falls.
        public let reach: Int

        public init(caster: PixelRect, radius: Int, reach: Int) {
            self.caster = caster
            self.radius = radius
            self.reach = reach
        }

        /// The whole shadow, the caster widened by `reach` on every side (the layer's rectangle is its part on the
        /// display).
        public var extent: PixelRect {
            PixelRect(x: caster.x - reach, y: caster.y - reach, width: caster.width + 2 * reach, height: caster.height + 2 * reach)
        }
    }

    public let scene: SceneID
    public let kind: Kind
    public let rect: PixelRect
    /// For a `shadow` layer, what casts it; `nil` for every other kind.
    public let shadow: Shadow?

    public init(scene: SceneID, kind: Kind, rect: PixelRect, shadow: Shadow? = nil) {
        self.scene = scene
        self.kind = kind
        self.rect = rect
        self.shadow = shadow
    }

    /// Whether output pixel (x, y) is inside the layer.
    public func contains(x: Int, y: Int) -> Bool {
        x >= rect.x && x < rect.maxX && y >= rect.y && y < rect.maxY
    }
}
