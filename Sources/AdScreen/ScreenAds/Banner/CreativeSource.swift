import AdPlayback

/// Where a banner's or a full-screen ad's creative comes from: an image, or a VAST response to read it from.
///
/// Both are request templates, so that an ad server can answer with a creative of the requested size
/// (`AdRequestTemplate`); a local path works too (`--banner FILE`), relative to the session's directory.
public enum CreativeSource: Hashable, Sendable, CustomStringConvertible {
    /// An image (PNG, JPEG, GIF) at a URL or path.
    case image(AdRequestTemplate)
    /// A VAST document: a banner takes the image StaticResource of its first NonLinear or Companion; a
    /// full-screen ad its first playable linear MediaFile, else that image.
    case vast(AdRequestTemplate)

    public var template: AdRequestTemplate {
        switch self {
        case .image(let template), .vast(let template): template
        }
    }

    public var description: String {
        switch self {
        case .image(let template): "image \(template)"
        case .vast(let template): "VAST \(template)"
        }
    }
}

/// An anchored adaptive banner in a scene (the scene must be declared with `hasBanner` in the `ScreenState`).
public struct BannerPlacement: Hashable, Sendable {
    public let scene: SceneID
    public let source: CreativeSource
    /// Whether the request carries its window scene; `false` reproduces the multi-scene app bug.
    public let setsScene: Bool

    public init(scene: SceneID, source: CreativeSource, setsScene: Bool = true) {
        self.scene = scene
        self.source = source
        self.setsScene = setsScene
    }

    /// `banner in scene "main"`, for messages.
    public var label: String { "banner in scene \"\(scene)\"" }
}
