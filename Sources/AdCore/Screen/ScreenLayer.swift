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

        /// Whether the system draws the layer, not the app: a tap passes through it to the scene under it.
        public var isSystemChrome: Bool { self == .divider || self == .edge }
    }

    public let scene: SceneID
    public let kind: Kind
    public let rect: PixelRect

    public init(scene: SceneID, kind: Kind, rect: PixelRect) {
        self.scene = scene
        self.kind = kind
        self.rect = rect
    }

    /// Whether output pixel (x, y) is inside the layer.
    public func contains(x: Int, y: Int) -> Bool {
        x >= rect.x && x < rect.maxX && y >= rect.y && y < rect.maxY
    }
}
